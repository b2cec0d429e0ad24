import { createHmac, randomUUID } from 'node:crypto';

import type { BrowserContext, Locator, Page } from 'playwright-core';

import type { Viewport } from './flows';
import { assert, type Flow } from './runner';

type IncomingFeedFlowContext = {
  flow: Flow;
  page: Page;
  context: BrowserContext;
  baseUrl: string;
  viewport: Viewport;
  screenshot: (name: string) => Promise<void>;
  pageErrors: string[];
};

type Box = { x: number; y: number; width: number; height: number };

const TAB_NAMES = [
  'Number Plate',
  "Driver's License",
  'ID Document',
  'Face Capture',
  'Weighbridge Ticket',
] as const;

/** Standard Webhooks, as the server's SIGNATURE_HELP describes it: what a booking system sends. */
export function signedHeaders(secret: string, body: string) {
  const id = `msg_${randomUUID().replaceAll('-', '')}`;
  const timestamp = Math.floor(Date.now() / 1000).toString();
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${signature}`,
  };
}

const inside = (inner: Box, outer: Box, slack = 1) =>
  inner.x >= outer.x - slack &&
  inner.y >= outer.y - slack &&
  inner.x + inner.width <= outer.x + outer.width + slack &&
  inner.y + inner.height <= outer.y + outer.height + slack;

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function boxOf(locator: Locator, what: string): Promise<Box> {
  const box = await locator.boundingBox();
  assert(box, `${what} has no box (not rendered)`);
  return box;
}

/**
 * Each of the dialog's five tabs lies inside the tab list and the window, is the element on top at
 * its centre (nothing covers it), does not run into the panel, and selects its panel when clicked.
 */
async function checkDialogTabs(page: Page, dialog: Locator, size: string) {
  const tabs = dialog.getByRole('tab');
  assert((await tabs.count()) === 5, `${size}: expected 5 tabs, found ${await tabs.count()}`);
  const window = page.viewportSize();
  assert(window, 'no viewport size');
  const screen: Box = { x: 0, y: 0, width: window.width, height: window.height };
  for (const name of TAB_NAMES) {
    const tab = dialog.getByRole('tab', { name: new RegExp(name) });
    await tab.scrollIntoViewIfNeeded();
    const list = await boxOf(dialog.getByRole('tablist'), `${size}: the tab list`);
    const box = await boxOf(tab, `${size}: ${name}`);
    assert(inside(box, list), `${size}: ${name} ${JSON.stringify(box)} spills out of its list`);
    assert(inside(box, screen), `${size}: ${name} ${JSON.stringify(box)} is off screen`);
    const onTop = await tab.evaluate((element) => {
      const rect = element.getBoundingClientRect();
      const hit = document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2);
      return hit !== null && element.contains(hit);
    });
    assert(onTop, `${size}: ${name} is covered by another element`);
    await tab.click();
    assert(
      (await tab.getAttribute('aria-selected')) === 'true',
      `${size}: clicking ${name} did not select it`,
    );
    const panel = await boxOf(dialog.getByRole('tabpanel'), `${size}: the ${name} panel`);
    const listAfter = await boxOf(dialog.getByRole('tablist'), `${size}: the tab list`);
    assert(
      !overlaps(listAfter, panel),
      `${size}: the tab list ${JSON.stringify(listAfter)} overlaps the panel ${JSON.stringify(panel)}`,
    );
  }
  const optional = dialog.getByRole('tab', { name: /Weighbridge Ticket/ }).getByText('(optional)');
  assert(await optional.isVisible(), `${size}: "(optional)" is not visible`);
}

/**
 * Incoming Feed: a booking system's entry (plate, driver name and ID number, so three tabs show
 * their checks) arrives by signed webhook, and the Process Vehicle Entry dialog's five tabs are each
 * reachable and visible at the run's size (1366×768 on desktop, 390 px on the phone). Every page also
 * watches for CSP violations (zod must not probe `new Function` under the server's CSP).
 */
export async function runIncomingFeedFlow({
  flow,
  page,
  baseUrl,
  viewport,
  screenshot,
}: IncomingFeedFlowContext) {
  const suffix = `${viewport.name}-${Date.now().toString(36)}`;
  const admin = { username: `feed-${suffix}`, password: 'Admin-pass-1' };
  const plate = viewport.name === 'desktop' ? 'FEED1GP' : 'FEED2GP';

  // Every document of the flow reports here, whatever navigations happen in between.
  const cspViolations: string[] = [];
  await page.exposeFunction('reportCspViolation', (text: string) => cspViolations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (text: string) => void })
        .reportCspViolation;
      report(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`);
    });
  });

  await flow.step('registers an organization', async () => {
    await page.goto(`${baseUrl}/register`);
    await page.getByLabel('Organization Name').fill(`Incoming Feed (${viewport.name})`);
    await page.getByLabel('Full Name').fill('Feed Admin');
    await page.getByLabel('Username').fill(admin.username);
    await page.getByLabel('Password', { exact: true }).fill(admin.password);
    await page.getByLabel('Confirm Password').fill(admin.password);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL((url) => url.pathname === '/onboarding');
  });

  await flow.step('a booking system sends an entry by signed webhook', async () => {
    const { tenantId, secret } = await page.evaluate(async () => {
      const me = (await (await fetch('/api/auth/me')).json()) as { tenant: { id: string } };
      const created = (await (
        await fetch('/api/integrations/secret', { method: 'POST' })
      ).json()) as { secret: string };
      return { tenantId: me.tenant.id, secret: created.secret };
    });
    const body = JSON.stringify({
      plateNumber: plate,
      driverName: 'Sipho',
      driverSurname: 'Dlamini',
      driverIdNumber: '8001015009087',
      referenceNumber: `REF-${suffix}`,
    });
    const response = await page.request.post(`${baseUrl}/api/webhook/incoming/${tenantId}`, {
      data: body,
      headers: signedHeaders(secret, body),
    });
    assert(response.status() === 202, `webhook answered ${response.status()}`);
  });

  await flow.step("opens the entry's Process Vehicle Entry dialog", async () => {
    if (viewport.name === 'desktop') {
      await page.getByTestId('sidebar').getByRole('link', { name: 'Incoming Feed' }).click();
    } else {
      await page.goto(`${baseUrl}/incoming-feed`);
    }
    const row = page.getByTestId('request-row').filter({ hasText: plate });
    await row.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('dialog', { name: 'Process Vehicle Entry' }).waitFor();
  });

  await flow.step(
    `every tab of the dialog is reachable and visible at ${viewport.width} px`,
    async () => {
      const dialog = page.getByRole('dialog', { name: 'Process Vehicle Entry' });
      await screenshot('process-entry-dialog');
      // The runner's sizes are the (1366 px and 390 px).
      await checkDialogTabs(page, dialog, `${viewport.width}×${viewport.height}`);
    },
  );

  await flow.step('no page reported a CSP violation', async () => {
    assert(cspViolations.length === 0, `CSP violations: ${cspViolations.join('; ')}`);
  });
}
