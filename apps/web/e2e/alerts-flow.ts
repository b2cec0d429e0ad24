import type { FlowContext } from './flows';
import { assert } from './runner';

/**
 * Alerts (issue 22), the scenario: the admin puts a plate on the watchlist; a watchlist
 * hit at the auto gate makes the admin's bell count go up live (server-sent events, no reload);
 * the admin opens the list from the bell and acknowledges the watchlist alert, and the count goes
 * down by one (the refusal's own entry_refused alert stays open). The gate's decision is posted
 * to grant-entry as the auto gate screen posts it after a scan, from the signed-in browser, so
 * this flow needs no camera (the watchlist flow drives the camera path).
 */
export async function runAlertsFlow({ flow, page, baseUrl, viewport, screenshot }: FlowContext) {
  const suffix = `${viewport.name}-${Date.now().toString(36)}`;
  const admin = { username: `alerts-${suffix}`, password: 'Admin-pass-1' };
  const plate = `AL${String(Date.now() % 100_000).padStart(5, '0')}GP`;
  const reason = `Reported stolen (${suffix})`;
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

  await flow.step('a watchlist hit at the auto gate makes the bell count go up live', async () => {
    const watched = await page.request.post(`${baseUrl}/api/watchlist`, {
      headers: { origin: baseUrl },
      data: { kind: 'plate', value: plate, reason, severity: 'block' },
    });
    assert(watched.status() === 201, `the watchlist answered ${watched.status()}`);
    const response = await page.request.post(`${baseUrl}/api/auto-gate/grant-entry`, {
      headers: { origin: baseUrl },
      data: { category: 'visitor', plateNumber: plate, entryGranted: true },
    });
    assert(response.status() === 201, `grant-entry answered ${response.status()}`);
    const entry = (await response.json()) as { entryGranted: boolean; refusalReason: string };
    assert(
      !entry.entryGranted && entry.refusalReason === 'watchlist',
      'the server refused the watched plate',
    );
    // Two alerts: the watchlist hit (critical) and the refusal; within 2 s, without a reload.
    await count.filter({ hasText: /^2$/ }).waitFor({ timeout: 2_000 });
    await screenshot('bell-count');
  });

  await flow.step('opens the watchlist alert from the bell and acknowledges it', async () => {
    await bell.click();
    await page.waitForURL((url) => url.pathname === '/alerts');
    const item = page
      .getByTestId('alert-item')
      .filter({ hasText: 'Watchlist hit' })
      .filter({ hasText: reason });
    await item.waitFor();
    await item.getByRole('button', { name: 'Acknowledge' }).click();
    await count.filter({ hasText: /^1$/ }).waitFor({ timeout: 2_000 });
    await page.getByRole('button', { name: 'Acknowledged', exact: true }).click();
    await page
      .getByTestId('alert-item')
      .filter({ hasText: reason })
      .getByText(/Acknowledged by Alert Admin/)
      .waitFor();
    await screenshot('acknowledged');
  });
}
