import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { aSession } from '@/testing/data';
import { signedIn } from '@/testing/handlers';
import { renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

const SITE = '00000000-0000-4000-8000-0000000000a1';
const ONLINE = '00000000-0000-4000-8000-0000000000b1';
const OFFLINE = '00000000-0000-4000-8000-0000000000b2';
const NO_AGENT = '00000000-0000-4000-8000-0000000000b3';

const gate = (id: string, name: string, lanes: unknown[]) => ({
  id,
  siteId: SITE,
  name,
  lanes,
  isActive: true,
  createdAt: '2026-01-01T00:00:00.000Z',
});

describe('Sites and Gates: barrier presence (issue 17)', () => {
  it('badges each gate with an agent online or offline, and marks automatic lanes', async () => {
    server.use(
      signedIn(aSession()),
      http.get('/api/sites', () =>
        HttpResponse.json([
          {
            id: SITE,
            name: 'Main site',
            timezone: 'Africa/Johannesburg',
            overstayMinutes: 720,
            isDefault: true,
            isActive: true,
            createdAt: '2026-01-01T00:00:00.000Z',
          },
        ]),
      ),
      http.get(`/api/sites/${SITE}/gates`, () =>
        HttpResponse.json([
          gate(ONLINE, 'North', [{ name: 'In', direction: 'in', automatic: true }]),
          gate(OFFLINE, 'South', [{ name: 'Out', direction: 'out' }]),
          gate(NO_AGENT, 'West', []),
        ]),
      ),
      http.get('/api/gates/:id/barrier', ({ params }) => {
        const id = String(params.id);
        return HttpResponse.json({
          gateId: id,
          online: id === ONLINE,
          connected: id === ONLINE,
          device: id === NO_AGENT ? null : 'shelly',
          lastSeenAt: id === NO_AGENT ? null : '2026-11-26T08:00:00.000Z',
          hasToken: id !== NO_AGENT,
        });
      }),
    );
    renderApp('/settings/sites');

    const rows = await screen.findAllByTestId('gate-row');
    expect(rows).toHaveLength(3);
    expect(await within(rows[0]!).findByText('Barrier online')).toBeInTheDocument();
    expect(within(rows[0]!).getByText(/In \(in, automatic\)/)).toBeInTheDocument();
    expect(await within(rows[1]!).findByText(/Barrier offline · last seen/)).toBeInTheDocument();
    expect(within(rows[2]!).queryByTestId('gate-presence')).toBeNull();
  });
});
