import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { OverridePinSettings } from '@boomgate/contracts/override-pins';
import type { Role } from '@boomgate/contracts/roles';

import { aSession, aTenantSettings } from '@/testing/data';
import { signedIn } from '@/testing/handlers';
import { renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

function setUp(role: Role, initial: OverridePinSettings = { enabled: false, validityMinutes: 15 }) {
  let pins: OverridePinSettings = initial;
  const patched: unknown[] = [];
  server.use(
    signedIn(aSession({ user: { role } })),
    http.get('/api/settings', () => HttpResponse.json(aTenantSettings())),
    http.get('/api/watchlist', () => HttpResponse.json([])),
    http.get('/api/settings/override-pins', () => HttpResponse.json(pins)),
    http.patch('/api/settings/override-pins', async ({ request }) => {
      const body = (await request.json()) as Partial<OverridePinSettings>;
      patched.push(body);
      pins = { ...pins, ...body };
      return HttpResponse.json(pins);
    }),
    http.post('/api/overrides/pins', () =>
      HttpResponse.json(
        { id: crypto.randomUUID(), pin: '042917', expiresAt: new Date().toISOString() },
        { status: 201 },
      ),
    ),
  );
  return { ...renderApp('/settings'), patched };
}

describe('Supervisor PINs (issue 21)', () => {
  it('lets an admin turn PINs on and issue one, shown once', async () => {
    const { user, patched } = setUp('tenant_admin');
    const section = await screen.findByTestId('override-pins-section');
    expect(within(section).queryByRole('button', { name: 'Issue PIN' })).toBeNull();

    await user.click(
      await within(section).findByLabelText('Let guards override with a supervisor PIN'),
    );
    expect(patched).toEqual([{ enabled: true }]);
    await user.click(await within(section).findByRole('button', { name: 'Issue PIN' }));

    expect(await within(section).findByTestId('issued-pin')).toHaveTextContent('042917');
  });

  it('lets back office issue PINs but not turn them off', async () => {
    setUp('back_office', { enabled: true, validityMinutes: 30 });
    const section = await screen.findByTestId('override-pins-section');
    expect(
      await within(section).findByLabelText('Let guards override with a supervisor PIN'),
    ).toBeDisabled();
    expect(await within(section).findByRole('button', { name: 'Issue PIN' })).toBeEnabled();
    expect(within(section).getByText(/for 30 minutes/)).toBeInTheDocument();
  });
});
