import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { SiteSyncStatus } from '@boomgate/contracts/site-sync';

import { createQueryClient } from '@/lib/query-client';
import { server } from '@/testing/server';

import { SiteSyncBanner } from './site-sync-banner';

function renderWith(status: SiteSyncStatus) {
  let asked = 0;
  server.use(
    http.get('/api/site-sync/status', () => {
      asked += 1;
      return HttpResponse.json(status);
    }),
  );
  const view = render(
    <QueryClientProvider client={createQueryClient()}>
      <SiteSyncBanner />
    </QueryClientProvider>,
  );
  return { ...view, asked: () => asked };
}

const today = (hours: number, minutes: number) => {
  const at = new Date();
  at.setHours(hours, minutes, 0, 0);
  return at.toISOString();
};

describe('SiteSyncBanner', () => {
  it('says the site decides alone while cut, since the earlier of the last sync and the oldest unsent fact', async () => {
    renderWith({
      mode: 'site_node',
      lastDownSyncAt: today(0, 10),
      lastUpSyncAt: today(0, 12),
      oldestUnacknowledgedAt: today(0, 5),
      offline: true,
    });

    expect(await screen.findByTestId('site-sync-offline')).toHaveTextContent(
      'Offline from head office since 00:05:00 — decisions made at this site',
    );
    expect(screen.getByText('Last sync with head office: 00:12:00')).toBeInTheDocument();
  });

  it('shows only the last sync time while the link is up', async () => {
    renderWith({
      mode: 'site_node',
      lastDownSyncAt: today(0, 20),
      lastUpSyncAt: null,
      oldestUnacknowledgedAt: null,
      offline: false,
    });

    expect(await screen.findByTestId('site-sync-last')).toHaveTextContent(
      'Last sync with head office: 00:20:00',
    );
    expect(screen.queryByTestId('site-sync-banner')).not.toBeInTheDocument();
  });

  it('is hidden on a central instance', async () => {
    const { container, asked } = renderWith({
      mode: 'central',
      lastDownSyncAt: null,
      lastUpSyncAt: null,
      oldestUnacknowledgedAt: null,
      offline: false,
    });

    await waitFor(() => expect(asked()).toBe(1));
    expect(container).toBeEmptyDOMElement();
  });
});
