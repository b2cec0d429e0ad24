import type { BrowserContext, Page } from 'playwright-core';

import type { Viewport } from './flows';
import { assert, type Flow } from './runner';

type OnSiteFlowContext = {
  flow: Flow;
  page: Page;
  context: BrowserContext;
  baseUrl: string;
  viewport: Viewport;
  screenshot: (name: string) => Promise<void>;
  pageErrors: string[];
};

// The screens show plates formatted (ONS 1 GP).
const LEAVING = /ONS\s*1\s*GP/;
const STAYING = /ONS\s*2\s*GP/;

/** A JSON call from the page (same origin, the page's session cookie). */
async function api<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  const { status, json } = await page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        headers: body === undefined ? undefined : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, json: text ? (JSON.parse(text) as unknown) : null };
    },
    { method, path, body },
  );
  assert(status >= 200 && status < 300, `${method} ${path} answered ${status}`);
  return json as T;
}

/**
 * Issue 16: a guard assigned to one site grants an entry, records the exit on the On Site screen
 * and the vehicle leaves the list; the roll-call prints, and with the server unreachable the
 * roll-call page still shows the last list (kept in the browser).
 */
export async function runOnSiteFlow({
  flow,
  page,
  context,
  baseUrl,
  viewport,
  screenshot,
}: OnSiteFlowContext) {
  // The desktop sidebar lists On Site; the phone's menu is the spec's fixed list, so a guard's
  // phone opens the screen by its address (a bookmark), with the server up.
  const openOnSite = async () => {
    if (viewport.name === 'mobile') await page.goto(`${baseUrl}/on-site`);
    else await page.getByTestId('sidebar').getByRole('link', { name: 'On Site' }).click();
    await page.waitForURL((url) => url.pathname === '/on-site');
  };
  const suffix = Date.now().toString(36);
  const admin = { username: `sites-${suffix}`, password: 'Admin-pass-1' };
  const guard = {
    username: `siteguard-${suffix}`,
    password: 'First-pass-1',
    newPassword: 'Guard-pass-22',
  };
  const [leaving, staying] = ['ONS1GP', 'ONS2GP'];

  await flow.step('registers an organization with a second site and a guard there', async () => {
    await page.goto(`${baseUrl}/register`);
    await page.getByLabel('Organization Name').fill(`On Site ${suffix}`);
    await page.getByLabel('Full Name').fill('Site Admin');
    await page.getByLabel('Username').fill(admin.username);
    await page.getByLabel('Password', { exact: true }).fill(admin.password);
    await page.getByLabel('Confirm Password').fill(admin.password);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL((url) => url.pathname === '/onboarding');
    const site = await api<{ id: string }>(page, 'POST', '/api/sites', { name: 'North Pit' });
    await api(page, 'POST', `/api/sites/${site.id}/gates`, {
      name: 'North Gate',
      lanes: [{ name: 'In', direction: 'in' }],
    });
    await api(page, 'POST', '/api/users', {
      username: guard.username,
      password: guard.password,
      role: 'security_guard',
      siteIds: [site.id],
    });
    await api(page, 'POST', '/api/auth/logout');
    await context.clearCookies();
  });

  await flow.step('the guard signs in and grants two entries at their site', async () => {
    await page.goto(`${baseUrl}/login`);
    await page.getByLabel('Username').fill(guard.username);
    await page.getByLabel('Password').fill(guard.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Password' });
    await dialog.getByLabel('New Password', { exact: true }).fill(guard.newPassword);
    await dialog.getByLabel('Confirm New Password').fill(guard.newPassword);
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await page.waitForURL((url) => url.pathname === '/auto-gate');
    for (const plateNumber of [leaving, staying]) {
      const entry = await api<{ siteId: string | null }>(
        page,
        'POST',
        '/api/auto-gate/grant-entry',
        {
          plateNumber,
        },
      );
      assert(entry.siteId, 'the entry has no site');
    }
  });

  await flow.step('On Site lists both; Record Exit takes one off the list', async () => {
    await openOnSite();
    const rows = page.getByTestId('on-site-row');
    await rows.filter({ hasText: LEAVING }).waitFor();
    assert((await rows.count()) === 2, `expected 2 on site, saw ${await rows.count()}`);
    await screenshot('on-site');
    await rows.filter({ hasText: LEAVING }).getByRole('button', { name: 'Record Exit' }).click();
    await rows.filter({ hasText: LEAVING }).waitFor({ state: 'detached' });
    assert((await rows.count()) === 1, 'the exited vehicle is still listed');
  });

  await flow.step('the roll-call lists who is inside and prints', async () => {
    await page.getByRole('link', { name: 'Roll-Call' }).click();
    await page.waitForURL((url) => url.pathname === '/on-site/roll-call');
    await page.getByTestId('roll-call-row').filter({ hasText: STAYING }).waitFor();
    // window.print() opens no dialog in headless Chromium; record that it was called.
    await page.evaluate(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => {
        (window as unknown as { printed: number }).printed += 1;
      };
    });
    await page.getByRole('button', { name: 'Print Roll-Call' }).click();
    const printed = await page.evaluate(() => (window as unknown as { printed: number }).printed);
    assert(printed === 1, 'Print Roll-Call did not print');
    await screenshot('roll-call');
  });

  await flow.step(
    'with the server unreachable, the roll-call still shows the last list',
    async () => {
      await openOnSite();
      await context.route('**/api/**', (route) => route.abort('connectionrefused'));
      await page.getByRole('link', { name: 'Roll-Call' }).click();
      await page.getByTestId('roll-call-offline').waitFor();
      await page.getByTestId('roll-call-row').filter({ hasText: STAYING }).waitFor();
      await screenshot('roll-call-offline');
      await context.unroute('**/api/**');
    },
  );
}
