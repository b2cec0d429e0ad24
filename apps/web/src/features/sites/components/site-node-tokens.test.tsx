import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { SiteNodeToken } from '@boomgate/contracts/site-sync';

import { aSession } from '@/testing/data';
import { signedIn } from '@/testing/handlers';
import { renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

const SITE = '00000000-0000-4000-8000-0000000000a1';
const SYNCED = '00000000-0000-4000-8000-0000000000c1';
const NEW = '00000000-0000-4000-8000-0000000000c2';

const token = (overrides: Partial<SiteNodeToken>): SiteNodeToken => ({
  id: SYNCED,
  siteId: SITE,
  name: 'Shaft 2 node',
  createdAt: '2026-11-20T08:00:00.000Z',
  revokedAt: null,
  lastSyncAt: '2026-11-27T10:15:00.000Z',
  stale: false,
  ...overrides,
});

function aSiteWithTokens(initial: SiteNodeToken[]) {
  let tokens = [...initial];
  const revoked: string[] = [];
  server.use(
    signedIn(aSession()),
    http.get('/api/sites', () =>
      HttpResponse.json([
        {
          id: SITE,
          name: 'Shaft 2',
          timezone: 'Africa/Johannesburg',
          overstayMinutes: 720,
          isDefault: true,
          isActive: true,
          createdAt: '2026-01-01T00:00:00.000Z',
        },
      ]),
    ),
    http.get(`/api/sites/${SITE}/gates`, () => HttpResponse.json([])),
    http.get(`/api/sites/${SITE}/node-tokens`, () => HttpResponse.json(tokens)),
    http.post(`/api/sites/${SITE}/node-tokens`, async ({ request }) => {
      const { name } = (await request.json()) as { name: string };
      const created = token({ id: NEW, name, lastSyncAt: null });
      tokens = [...tokens, created];
      return HttpResponse.json(
        { ...created, token: 'T'.repeat(43), centralPublicKey: 'MCowBQYDK2VwAyEA-key' },
        { status: 201 },
      );
    }),
    http.delete(`/api/sites/${SITE}/node-tokens/:tokenId`, ({ params }) => {
      revoked.push(String(params.tokenId));
      tokens = tokens.map((row) =>
        row.id === params.tokenId ? { ...row, revokedAt: '2026-11-27T11:00:00.000Z' } : row,
      );
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return { revoked };
}

describe('Sites and Gates: site nodes (issue 28)', () => {
  it('lists each node token with its last sync, and revokes one after a confirmation', async () => {
    const { revoked } = aSiteWithTokens([
      token({}),
      token({ id: NEW, name: 'Old node', lastSyncAt: null, revokedAt: '2026-11-01T08:00:00.000Z' }),
    ]);
    renderApp('/settings/sites');

    const rows = await screen.findAllByTestId('node-token-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText(/Last sync/)).toBeInTheDocument();
    expect(within(rows[0]!).getByText('In sync')).toBeInTheDocument();
    expect(within(rows[1]!).queryByText('In sync')).toBeNull();
    expect(within(rows[1]!).getByText('Never synced')).toBeInTheDocument();
    expect(within(rows[1]!).getByText(/Revoked/)).toBeInTheDocument();
    expect(within(rows[1]!).queryByRole('button', { name: /Revoke/ })).toBeNull();

    await userEvent.click(
      within(rows[0]!).getByRole('button', { name: 'Revoke the token of Shaft 2 node' }),
    );
    expect(revoked).toEqual([]);
    await userEvent.click(within(rows[0]!).getByRole('button', { name: 'Revoke token' }));
    expect(
      await within((await screen.findAllByTestId('node-token-row'))[0]!).findByText(/Revoked/),
    ).toBeInTheDocument();
    expect(revoked).toEqual([SYNCED]);
  });

  it('warns when head office says a node has not synced for too long, with its last sync', async () => {
    aSiteWithTokens([
      token({ stale: true }),
      token({ id: NEW, name: 'Shaft 3 node', lastSyncAt: '2026-11-27T10:16:00.000Z' }),
    ]);
    renderApp('/settings/sites');

    const rows = await screen.findAllByTestId('node-token-row');
    const warning = within(rows[0]!).getByTestId('node-token-stale');
    expect(warning).toHaveTextContent(/^Not synced since .+ — the site is deciding alone$/);
    expect(warning).toHaveTextContent(/since Nov 27, 2026 \d\d:\d\d:\d\d/);
    expect(within(rows[0]!).queryByText('In sync')).toBeNull();
    expect(within(rows[1]!).queryByTestId('node-token-stale')).toBeNull();
    expect(within(rows[1]!).getByText('In sync')).toBeInTheDocument();
  });

  it('shows a new token once, in the dialog, and forgets it when closed', async () => {
    aSiteWithTokens([]);
    renderApp('/settings/sites');

    expect(await screen.findByText(/No site node yet/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add site node' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Node name'), 'Shaft 2 node');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create token' }));

    expect(await within(dialog).findByText('Copy the token now')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Site token')).toHaveValue('T'.repeat(43));
    expect(within(dialog).getByLabelText('Head office key')).toHaveValue('MCowBQYDK2VwAyEA-key');
    expect(await screen.findByText('Never synced')).toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByDisplayValue('T'.repeat(43))).toBeNull();
  });
});
