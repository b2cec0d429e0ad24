import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { Role } from '@boomgate/contracts/roles';
import type { CreateWatchlistEntry, WatchlistEntry } from '@boomgate/contracts/watchlist';

import { aSession, aTenantSettings } from '@/testing/data';
import { signedIn } from '@/testing/handlers';
import { expectToast, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

function setUp(role: Role) {
  const entries: WatchlistEntry[] = [];
  const posted: CreateWatchlistEntry[] = [];
  server.use(
    signedIn(aSession({ user: { role } })),
    http.get('/api/settings', () => HttpResponse.json(aTenantSettings())),
    http.get('/api/watchlist', () => HttpResponse.json(entries)),
    http.post<never, CreateWatchlistEntry>('/api/watchlist', async ({ request }) => {
      const body = await request.json();
      posted.push(body);
      const entry: WatchlistEntry = {
        id: crypto.randomUUID(),
        kind: body.kind,
        value: body.value,
        reason: body.reason,
        severity: body.severity,
        covert: body.covert ?? false,
        expiresAt: body.expiresAt ?? null,
        isActive: true,
        createdAt: new Date().toISOString(),
        createdBy: { id: crypto.randomUUID(), name: 'Thandi Admin' },
        updatedAt: new Date().toISOString(),
      };
      entries.push(entry);
      return HttpResponse.json(entry, { status: 201 });
    }),
  );
  return { ...renderApp('/settings'), posted };
}

describe('Watchlist under Settings (issue 21)', () => {
  it('lets an admin add a covert plate block and lists it with who added it', async () => {
    const { user, posted } = setUp('tenant_admin');
    const section = await screen.findByTestId('watchlist-section');

    await user.type(within(section).getByLabelText('Plate'), 'CA 123-456');
    await user.type(within(section).getByLabelText('Reason'), 'Reported stolen');
    await user.click(within(section).getByLabelText(/Covert/));
    await user.click(within(section).getByRole('button', { name: 'Add to Watchlist' }));

    await expectToast('Added to the watchlist', 'CA 123-456');
    expect(posted).toEqual([
      {
        kind: 'plate',
        value: 'CA 123-456',
        reason: 'Reported stolen',
        severity: 'block',
        covert: true,
        expiresAt: null,
      },
    ]);
    const row = (await within(section).findByText('CA 123-456')).closest('tr');
    expect(row).not.toBeNull();
    expect(within(row as HTMLElement).getByText('Covert')).toBeInTheDocument();
    expect(within(row as HTMLElement).getByText(/Added by Thandi Admin/)).toBeInTheDocument();
  });

  it('shows back office the list without the form', async () => {
    setUp('back_office');
    const section = await screen.findByTestId('watchlist-section');
    await within(section).findByText('The watchlist is empty.');
    expect(within(section).queryByRole('button', { name: 'Add to Watchlist' })).toBeNull();
  });
});
