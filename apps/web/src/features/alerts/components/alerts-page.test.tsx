import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import {
  ALERT_UNREAD_COUNT_HEADER,
  type Alert,
  type AlertSettings,
  DEFAULT_ALERT_SETTINGS,
} from '@boomgate/contracts/alerts';
import type { Role } from '@boomgate/contracts/roles';

import { aSession, aTenantSettings } from '@/testing/data';
import { signedIn } from '@/testing/handlers';
import { expectToast, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

const anAlert = (overrides: Partial<Alert> = {}): Alert => ({
  id: '8d6c3c1e-5a4b-4c2d-9e8f-0a1b2c3d4e5f',
  kind: 'entry_refused',
  severity: 'warning',
  state: 'open',
  createdAt: '2026-03-02T08:15:00.000Z',
  message: 'Entry refused for CA123456 (guard refused).',
  entryId: null,
  siteId: null,
  gateId: null,
  plateNumber: 'CA123456',
  acknowledgedAt: null,
  acknowledgedBy: null,
  acknowledgedByName: null,
  ...overrides,
});

function setUp(role: Role) {
  let alert = anAlert();
  const acknowledged: string[] = [];
  server.use(
    signedIn(aSession({ user: { role } })),
    http.get('/api/alerts', ({ request }) => {
      const state = new URL(request.url).searchParams.get('state');
      const rows = state && alert.state !== state ? [] : [alert];
      return HttpResponse.json(rows, {
        headers: { [ALERT_UNREAD_COUNT_HEADER]: alert.state === 'open' ? '1' : '0' },
      });
    }),
    http.post<{ id: string }>('/api/alerts/:id/acknowledge', ({ params }) => {
      acknowledged.push(params.id);
      alert = {
        ...alert,
        state: 'acknowledged',
        acknowledgedAt: '2026-03-02T08:20:00.000Z',
        acknowledgedBy: '0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0',
        acknowledgedByName: 'Thandi Admin',
      };
      return HttpResponse.json(alert);
    }),
  );
  return { ...renderApp('/alerts'), acknowledged };
}

describe('Alerts', () => {
  it('lists open alerts and acknowledges one', async () => {
    const { user, acknowledged } = setUp('back_office');

    const item = await screen.findByTestId('alert-item');
    expect(within(item).getByText('Entry refused for CA123456 (guard refused).')).toBeVisible();
    await user.click(within(item).getByRole('button', { name: 'Acknowledge' }));

    await expectToast('Alert acknowledged');
    expect(acknowledged).toEqual(['8d6c3c1e-5a4b-4c2d-9e8f-0a1b2c3d4e5f']);
    await waitFor(() => expect(screen.queryByTestId('alert-item')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Acknowledged' }));
    const done = await screen.findByTestId('alert-item');
    expect(within(done).getByText(/Acknowledged by Thandi Admin/)).toBeVisible();
    expect(within(done).queryByRole('button', { name: 'Acknowledge' })).toBeNull();
  });

  it('tells a guard the alerts are not theirs', async () => {
    setUp('security_guard');
    expect(
      await screen.findByText('Only administrators and back office see alerts.'),
    ).toBeVisible();
  });
});

describe('Settings → Alerts', () => {
  it('saves which events go to which channels', async () => {
    const patches: Partial<AlertSettings>[] = [];
    server.use(
      signedIn(aSession({ user: { role: 'tenant_admin' } })),
      http.get('/api/settings', () => HttpResponse.json(aTenantSettings())),
      http.patch<never, Partial<AlertSettings>>('/api/settings/alerts', async ({ request }) => {
        const body = await request.json();
        patches.push(body);
        return HttpResponse.json({ ...DEFAULT_ALERT_SETTINGS, ...body });
      }),
    );
    const { user } = renderApp('/settings');

    await user.click(await screen.findByLabelText('Entry refused: Webhook'));
    await user.click(screen.getByLabelText('Entry refused: E-mail'));
    await user.type(
      screen.getByLabelText('E-mail recipients (one per line)'),
      'control@mine.example.com',
    );
    await user.click(screen.getByRole('button', { name: 'Save alert settings' }));

    await expectToast('Alert settings saved');
    const [saved] = patches;
    expect(saved?.emailRecipients).toEqual(['control@mine.example.com']);
    expect(saved?.routes?.find((route) => route.kind === 'entry_refused')).toEqual({
      kind: 'entry_refused',
      siteId: null,
      channels: ['push', 'webhook'],
      minSeverity: 'info',
    });
  });

  it('gives a site its own rule for a kind and its own quiet hours', async () => {
    const patches: Partial<AlertSettings>[] = [];
    const site = (id: string, name: string, timezone: string, isDefault: boolean) => ({
      id,
      name,
      timezone,
      overstayMinutes: 720,
      isDefault,
      isActive: true,
      createdAt: '2026-03-01T08:00:00.000Z',
    });
    const DEPOT = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
    server.use(
      signedIn(aSession({ user: { role: 'tenant_admin' } })),
      http.get('/api/sites', () =>
        HttpResponse.json([
          site('6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', 'Main mine', 'Africa/Johannesburg', true),
          site(DEPOT, 'Maputo depot', 'Africa/Maputo', false),
        ]),
      ),
      http.get('/api/watchlist', () => HttpResponse.json([])),
      http.patch<never, Partial<AlertSettings>>('/api/settings/alerts', async ({ request }) => {
        const body = await request.json();
        patches.push(body);
        return HttpResponse.json({ ...DEFAULT_ALERT_SETTINGS, ...body });
      }),
    );
    const { user } = renderApp('/settings');

    await user.selectOptions(await screen.findByLabelText('Rules for'), 'Maputo depot');
    // Following the all-sites rule: read-only until the site takes its own.
    expect(screen.getByLabelText('Overstay: Webhook')).toBeDisabled();
    await user.click(screen.getByLabelText('Overstay: same as all sites'));
    await user.click(screen.getByLabelText('Overstay: Webhook'));
    await user.click(screen.getByLabelText('Overstay: E-mail'));
    await user.click(screen.getByLabelText('Maputo depot (Africa/Maputo): own quiet hours'));
    await user.clear(screen.getByLabelText('Maputo depot: from'));
    await user.type(screen.getByLabelText('Maputo depot: from'), '12:00');
    await user.click(screen.getByRole('button', { name: 'Save alert settings' }));

    await expectToast('Alert settings saved');
    const [saved] = patches;
    expect(saved?.routes?.filter((route) => route.kind === 'overstay')).toEqual([
      { kind: 'overstay', siteId: null, channels: ['email', 'push'], minSeverity: 'info' },
      { kind: 'overstay', siteId: DEPOT, channels: ['push', 'webhook'], minSeverity: 'info' },
    ]);
    expect(saved?.siteQuietHours).toEqual([
      { siteId: DEPOT, start: '12:00', end: '06:00', minSeverity: 'critical' },
    ]);
    expect(saved?.quietHours).toBeNull();
  });
});
