import { readFile } from 'node:fs/promises';

import type { BrowserContext, Page } from 'playwright-core';

import type { Viewport } from './flows';
import { assert, type Flow } from './runner';

type ReportsFlowContext = {
  flow: Flow;
  page: Page;
  context: BrowserContext;
  baseUrl: string;
  viewport: Viewport;
  screenshot: (name: string) => Promise<void>;
  pageErrors: string[];
};

/** A JSON call from the page (same origin, the page's session cookie). */
async function api(page: Page, method: string, path: string, body?: unknown): Promise<number> {
  return page.evaluate(
    async ({ method, path, body }) =>
      (
        await fetch(path, {
          method,
          headers: body === undefined ? undefined : { 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        })
      ).status,
    { method, path, body },
  );
}

/**
 * Issue 23: a tenant admin opens Reports (charts drawn, figures from the server), changes the
 * range (the report is asked for again), downloads the entries as CSV and XLSX and the refusals,
 * sets a weekly report e-mail, then opens an audit event's target from the audit log.
 */
export async function runReportsFlow({ flow, page, baseUrl, screenshot }: ReportsFlowContext) {
  const suffix = Date.now().toString(36);
  const admin = { username: `reports-${suffix}`, password: 'Admin-pass-1' };

  await flow.step('registers an organization and adds a user (an audited event)', async () => {
    await page.goto(`${baseUrl}/register`);
    await page.getByLabel('Organization Name').fill(`Reports ${suffix}`);
    await page.getByLabel('Full Name').fill('Report Admin');
    await page.getByLabel('Username').fill(admin.username);
    await page.getByLabel('Password', { exact: true }).fill(admin.password);
    await page.getByLabel('Confirm Password').fill(admin.password);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL((url) => url.pathname === '/onboarding');
    const status = await api(page, 'POST', '/api/users', {
      username: `office-${suffix}`,
      password: 'Office-pass-1',
      role: 'back_office',
    });
    assert(status === 201, `POST /api/users answered ${status}`);
  });

  await flow.step('opens Reports: figures and a drawn chart', async () => {
    const first = page.waitForResponse((r) => r.url().includes('/api/reports/summary'));
    await page.goto(`${baseUrl}/reports`);
    assert((await first).status() === 200, 'the report answered');
    await page.getByTestId('report-entries').waitFor();
    // Chartist is loaded on demand and draws SVG into a chart once it comes near the screen.
    await page.getByTestId('chart').first().scrollIntoViewIfNeeded();
    await page.locator('[data-testid="chart"] svg').first().waitFor();
    await screenshot('reports');
  });

  await flow.step('changes the range and the report is asked for again', async () => {
    const asked = page.waitForResponse(
      (r) =>
        r.url().includes('/api/reports/summary') &&
        r.url().includes('from=2026-01-01&to=2026-01-31'),
    );
    await page.locator('#report-from').fill('2026-01-01');
    await page.locator('#report-to').fill('2026-01-31');
    assert((await asked).status() === 200, 'the new range answered');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="report-days"] tbody tr').length === 31,
    );
  });

  for (const format of ['csv', 'xlsx'] as const) {
    await flow.step(`downloads the range as ${format.toUpperCase()}`, async () => {
      if (format === 'xlsx') {
        await page.getByLabel('Format').click();
        await page.getByRole('option', { name: 'Excel (XLSX)' }).click();
      }
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download' }).click(),
      ]);
      assert(
        download.suggestedFilename() === `entries-2026-01-01-to-2026-01-31.${format}`,
        `file name ${download.suggestedFilename()}`,
      );
      const bytes = await readFile(await download.path());
      if (format === 'csv')
        assert(bytes.toString('utf8').includes('Turnaround Minutes'), 'CSV header');
      else assert(bytes.subarray(0, 2).toString() === 'PK', 'XLSX is a zip');
    });
  }

  await flow.step('downloads the refusals and sets a weekly report e-mail', async () => {
    await page.getByLabel('What').click();
    await page.getByRole('option', { name: 'Refusals' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download' }).click(),
    ]);
    assert(
      download.suggestedFilename().startsWith('refusals-2026-01-01-to-2026-01-31.'),
      `file name ${download.suggestedFilename()}`,
    );
    await page.getByLabel('Send', { exact: true }).click();
    await page.getByRole('option', { name: 'Weekly' }).click();
    await page.getByLabel('Recipients').fill('manager@example.com');
    const saved = page.waitForResponse(
      (r) => r.url().includes('/api/reports/schedule') && r.request().method() === 'PATCH',
    );
    await page.getByRole('button', { name: 'Save schedule' }).click();
    assert((await saved).status() === 200, 'the schedule was saved');
    await page.getByText(/Next e-mail:/).waitFor();
  });

  await flow.step("opens an audit event's target from the audit log", async () => {
    await page.goto(`${baseUrl}/audit`);
    const link = page.getByTestId('audit-row').getByRole('link', { name: /User/ }).first();
    await link.click();
    await page.waitForURL((url) => url.pathname === '/users');
    await screenshot('audit-target');
  });
}
