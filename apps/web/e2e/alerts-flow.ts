import type { FlowContext } from './flows';
import { assert } from './runner';

/**
 * Alerts (issue 22): a refused entry at the auto gate makes the admin's bell count go up live
 * (server-sent events, no reload), the admin opens the list from the bell and acknowledges the
 * alert, and the count goes back down. The issue's own scenario (a watchlist hit at the auto
 * gate) needs the watchlist of issue 21; entry_refused travels the same path (raiseAlert → NOTIFY
 * → the stream → the bell). The refusal is posted to grant-entry as the gate screen would, from
 * the signed-in browser, so this flow needs no camera.
 */
export async function runAlertsFlow({ flow, page, baseUrl, viewport, screenshot }: FlowContext) {
  const suffix = `${viewport.name}-${Date.now().toString(36)}`;
  const admin = { username: `alerts-${suffix}`, password: 'Admin-pass-1' };
  const plate = `AL${String(Date.now() % 100_000).padStart(5, '0')}GP`;
  const bell = page.getByTestId('alerts-bell');
  const count = page.getByTestId('alerts-unread-count');

  await flow.step('registers an organization and sees the bell without a count', async () => {
    await page.goto(`${baseUrl}/register`);
    await page.getByLabel('Organization Name').fill(`Alert Mine (${viewport.name})`);
    await page.getByLabel('Full Name').fill('Alert Admin');
    await page.getByLabel('Username').fill(admin.username);
    await page.getByLabel('Password', { exact: true }).fill(admin.password);
    await page.getByLabel('Confirm Password').fill(admin.password);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL((url) => url.pathname === '/onboarding', { timeout: 15_000 });
    await bell.waitFor();
    // The stream's first event (unread 0) gives the bell its label.
    await page.getByRole('link', { name: 'Alerts: 0 unacknowledged' }).waitFor();
    assert((await count.count()) === 0, 'a new organization has no unread alerts');
  });

  await flow.step('a refused entry makes the bell count go up without a reload', async () => {
    const response = await page.request.post(`${baseUrl}/api/auto-gate/grant-entry`, {
      headers: { origin: baseUrl },
      data: { plateNumber: plate, entryGranted: false, refusalReason: 'guard_refused' },
    });
    assert(response.status() === 201, `grant-entry answered ${response.status()}`);
    await count.filter({ hasText: /^1$/ }).waitFor({ timeout: 2_000 });
    await screenshot('bell-count');
  });

  await flow.step('opens the alert from the bell and acknowledges it', async () => {
    await bell.click();
    await page.waitForURL((url) => url.pathname === '/alerts');
    const item = page.getByTestId('alert-item').filter({ hasText: plate });
    await item.getByText(`Entry refused for ${plate} (guard refused).`).waitFor();
    await item.getByRole('button', { name: 'Acknowledge' }).click();
    await count.waitFor({ state: 'detached', timeout: 2_000 });
    await page.getByRole('button', { name: 'Acknowledged', exact: true }).click();
    await page
      .getByTestId('alert-item')
      .filter({ hasText: plate })
      .getByText(/Acknowledged by Alert Admin/)
      .waitFor();
    await screenshot('acknowledged');
  });
}
