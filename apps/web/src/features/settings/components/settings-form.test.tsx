import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { Role } from '@boomgate/contracts/roles';
import type { TenantSettings, UpdateTenantSettings } from '@boomgate/contracts/settings';

import { i18next } from '@/lib/i18n';
import { aSession } from '@/testing/data';
import { apiError, signedIn } from '@/testing/handlers';
import { expectToast, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

function setUp(role: Role, patchAnswer?: () => Response) {
  let settings: TenantSettings = {
    biometricRetentionDays: null,
    documentRetentionDays: 90,
    inductionValidityDays: 365,
    antispoofGating: false,
    antispoofThreshold: 0.5,
    separationOfDuties: true,
    maxApprovalValidityMonths: 12,
    requireMfaForAdmins: false,
    requireMfaForEveryone: false,
    offlineDecisions: 'grant',
  };
  const patches: UpdateTenantSettings[] = [];
  const revoked: string[] = [];
  const device = {
    id: '00000000-0000-4000-8000-0000000000d1',
    deviceId: '00000000-0000-4000-8000-0000000000d2',
    label: 'Gate 1 phone',
    lastUser: { id: '00000000-0000-4000-8000-0000000000d3', name: 'Thandi Guard' },
    firstSeenAt: '2026-11-01T06:00:00.000Z',
    lastContactAt: '2026-11-02T06:00:00.000Z',
    revokedAt: null as string | null,
    revokedBy: null as { id: string | null; name: string | null } | null,
  };
  server.use(
    signedIn(aSession({ user: { role } })),
    http.get('/api/settings', () => HttpResponse.json(settings)),
    // The watchlist (issue 21) shares the screen; its own tests are beside it.
    http.get('/api/watchlist', () => HttpResponse.json([])),
    // Issue 18: the guards' devices, listed for admins.
    http.get('/api/devices', () => HttpResponse.json([device])),
    http.post<{ id: string }>('/api/devices/:id/revoke', ({ params }) => {
      revoked.push(params.id);
      device.revokedAt = '2026-11-03T06:00:00.000Z';
      device.revokedBy = { id: null, name: 'Admin' };
      return HttpResponse.json(device);
    }),
    http.patch<never, UpdateTenantSettings>('/api/settings', async ({ request }) => {
      const body = await request.json();
      patches.push(body);
      if (patchAnswer) return patchAnswer();
      settings = { ...settings, ...body };
      return HttpResponse.json(settings);
    }),
  );
  const view = renderApp('/settings');
  return { ...view, patches, revoked };
}

describe('Settings', () => {
  it('speaks the chosen language, its percentage messages too', async () => {
    await i18next.changeLanguage('st');
    // The language a signed-in user picks is saved for them on the server.
    server.use(http.patch('/api/auth/preferences', () => HttpResponse.json({ language: 'st' })));
    const { user, patches } = setUp('tenant_admin');

    expect(await screen.findByRole('heading', { level: 1, name: 'Disetting' })).toBeVisible();
    expect(await screen.findByLabelText('Thupello e sebetsa (matsatsi)')).toHaveValue(365);
    expect(screen.getByRole('link', { name: 'Disaete le Diheke' })).toBeVisible();
    expect(screen.getByText('Lenane la Tlhokomelo')).toBeVisible();

    await user.click(
      screen.getByLabelText('Hana difahleho tse shebahalang jwaloka setshwantsho kapa skrini'),
    );
    const threshold = screen.getByLabelText('Dintlha tse tlase tsa bophelo (%)');
    await user.clear(threshold);
    await user.type(threshold, '100');
    await user.click(screen.getByRole('button', { name: 'Boloka Disetting' }));

    expect(await screen.findByText('Bongata 99%')).toBeVisible();
    expect(patches).toEqual([]);
  });

  it('shows the current settings and saves a change as whole settings', async () => {
    const { user, patches } = setUp('tenant_admin');

    const validity = await screen.findByLabelText('Induction valid for (days)');
    expect(validity).toHaveValue(365);
    expect(screen.getByLabelText('Document images (days)')).toHaveValue(90);
    expect(screen.getByLabelText('Driver photos and face data (days)')).toHaveValue(null);
    expect(screen.getByLabelText('Minimum liveness score (%)')).toBeDisabled();

    await user.click(screen.getByLabelText('Refuse faces that look like a photo or a screen'));
    const threshold = screen.getByLabelText('Minimum liveness score (%)');
    await user.clear(threshold);
    await user.type(threshold, '70');
    await user.clear(validity);
    await user.type(validity, '180');
    await user.click(screen.getByLabelText('Require two-step verification for admins'));
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));

    await expectToast('Settings Saved', 'The new settings apply from now on.');
    expect(patches).toEqual([
      {
        biometricRetentionDays: null,
        documentRetentionDays: 90,
        inductionValidityDays: 180,
        antispoofGating: true,
        antispoofThreshold: 0.7,
        separationOfDuties: true,
        maxApprovalValidityMonths: 12,
        requireMfaForAdmins: true,
        requireMfaForEveryone: false,
        offlineDecisions: 'grant',
      },
    ]);
  });

  it('lets offline decisions only record, and revokes a lost guard device (issue 18)', async () => {
    const { user, patches, revoked } = setUp('tenant_admin');

    const mayGrant = await screen.findByLabelText(
      'Offline decisions may grant entry to approved vehicles (otherwise they only record)',
    );
    expect(mayGrant).toBeChecked();
    await user.click(mayGrant);
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    await expectToast('Settings Saved', 'The new settings apply from now on.');
    expect(patches).toEqual([expect.objectContaining({ offlineDecisions: 'record_only' })]);

    expect(await screen.findByText('Gate 1 phone')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('Revoked')).toBeInTheDocument();
    expect(revoked).toEqual(['00000000-0000-4000-8000-0000000000d1']);
  });

  it('shows field errors and sends nothing for out-of-range values', async () => {
    const { user, patches } = setUp('tenant_admin');

    const validity = await screen.findByLabelText('Induction valid for (days)');
    await user.clear(validity);
    await user.type(validity, '0');
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));

    expect(await screen.findByText('At least 1 day')).toBeInTheDocument();
    expect(patches).toHaveLength(0);
  });

  it('saves the separation of duties and the longest approval a guard may register', async () => {
    const { user, patches } = setUp('tenant_admin');

    const months = await screen.findByLabelText('Longest approval by a security guard (months)');
    expect(months).toHaveValue(12);
    await user.click(
      screen.getByLabelText("Security guards' approvals and deletions need confirmation"),
    );
    await user.clear(months);
    await user.type(months, '6');
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));

    await expectToast('Settings Saved', 'The new settings apply from now on.');
    expect(patches).toEqual([
      expect.objectContaining({ separationOfDuties: false, maxApprovalValidityMonths: 6 }),
    ]);
  });

  it("reports the server's message when saving fails", async () => {
    const { user } = setUp('tenant_admin', () => apiError(400, 'INVALID', 'At most 3650 days'));

    const validity = await screen.findByLabelText('Induction valid for (days)');
    await user.clear(validity);
    await user.type(validity, '30');
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));

    await expectToast('Save Failed', 'At most 3650 days');
  });

  it('is read-only for back office and closed to guards', async () => {
    setUp('back_office');
    expect(await screen.findByLabelText('Induction valid for (days)')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save Settings' })).not.toBeInTheDocument();
    expect(screen.getByText('Only administrators change these settings.')).toBeInTheDocument();
  });

  it('tells a guard the page is not for them', async () => {
    setUp('security_guard');
    await waitFor(() =>
      expect(
        screen.getByText('Only administrators and back office see the settings.'),
      ).toBeInTheDocument(),
    );
  });
});
