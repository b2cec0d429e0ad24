/**
 * Issue 19 end to end, at 390×844 (a guard's phone): isiZulu chosen on the login screen changes its
 * texts and survives a reload; a signed-in user's choice follows them to another browser; and
 * every guard route is measured for touch targets (≥ 44×44 px) and text sizes (≥ 14 px for any
 * text, ≥ 16 px in form fields). The measurements are reported per route; only the routes this
 * issue converted are asserted, the others are listed as known gaps (docs/i18n.md).
 */
import { chromium, type Page } from 'playwright-core';

import type { FlowContext } from './flows';
import { assert } from './runner';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const MIN_TARGET_PX = 44;
const MIN_CAPTION_PX = 14;
const MIN_FIELD_TEXT_PX = 16;

/** Guard routes (spec §6: what a security_guard reaches) and whether this issue owns them. */
export const GUARD_ROUTES: { path: string; heading: string; asserted: boolean }[] = [
  { path: '/', heading: 'System Dashboard', asserted: true },
  { path: '/truck-list', heading: 'Truck List', asserted: true },
  { path: '/registered-vehicles', heading: 'Registered Vehicles', asserted: true },
  { path: '/pre-arrival', heading: 'Pre-Arrival Registration', asserted: true },
  { path: '/scan-station', heading: 'Document Scan Station', asserted: true },
  { path: '/account/security', heading: 'Two-Step Verification', asserted: true },
  { path: '/weighbridge', heading: 'Weighbridge Station', asserted: true },
  { path: '/auto-gate', heading: 'Automated Gate Entry', asserted: true },
  { path: '/incoming-feed', heading: 'Incoming Feed', asserted: true },
  // One step at a time on a phone (issue 19's stepper).
  { path: '/real-gate', heading: 'Real Gate Entry', asserted: true },
];

type Problem = { kind: 'target' | 'text'; what: string; size: string };

/**
 * Runs in the page: every visible control smaller than 44×44 px and every visible text under the
 * sizes. Kept as source text: the test runner (tsx) would wrap named functions in a `__name`
 * helper the page does not have.
 */
const MEASURE = `(({ minTarget, minCaption, minField }) => {
  const problems = [];
  const isVisible = (element) => {
    const rect = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    return rect.width > 0 && rect.height > 0 && style.visibility !== 'hidden' &&
      style.display !== 'none' && !element.closest('[aria-hidden="true"], .sr-only, [hidden]');
  };
  const describe = (element) => {
    const label = element.getAttribute('aria-label') ??
      (element.textContent ?? '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    return '<' + element.tagName.toLowerCase() + '> "' + label + '"';
  };
  const controls = document.querySelectorAll('a[href], button, input:not([type="hidden"]), select, ' +
    'textarea, [role="button"], [role="checkbox"], [role="tab"], [role="switch"], [role="combobox"]');
  for (const control of controls) {
    if (!isVisible(control)) continue;
    // WCAG 2.5.8's inline exception: a link inside a sentence.
    if (control.tagName === 'A' && control.parentElement?.tagName === 'P') continue;
    // A native input drawn inside its (measured) label is the label's target.
    if (control.closest('label') && control.tagName === 'INPUT') continue;
    const rect = control.getBoundingClientRect();
    if (rect.width + 0.5 < minTarget || rect.height + 0.5 < minTarget) {
      problems.push({ kind: 'target', what: describe(control),
        size: Math.round(rect.width) + '×' + Math.round(rect.height) + ' px' });
    }
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || seen.has(parent) || !(node.textContent ?? '').trim()) continue;
    seen.add(parent);
    if (!isVisible(parent) || parent.closest('script, style, noscript')) continue;
    const size = parseFloat(getComputedStyle(parent).fontSize);
    if (size + 0.01 < minCaption) problems.push({ kind: 'text', what: describe(parent), size: size + ' px' });
  }
  for (const field of document.querySelectorAll('input, select, textarea')) {
    if (!isVisible(field)) continue;
    const size = parseFloat(getComputedStyle(field).fontSize);
    if (size + 0.01 < minField) {
      problems.push({ kind: 'text', what: describe(field), size: size + ' px (field)' });
    }
  }
  return problems;
})`;

/** Every visible control smaller than 44×44 px and every visible text under the sizes. */
export async function measureErgonomics(page: Page): Promise<Problem[]> {
  const limits = {
    minTarget: MIN_TARGET_PX,
    minCaption: MIN_CAPTION_PX,
    minField: MIN_FIELD_TEXT_PX,
  };
  return page.evaluate<Problem[]>(`${MEASURE}(${JSON.stringify(limits)})`);
}

const heading = (page: Page, name: string) =>
  page.getByRole('heading', { level: 1, name, exact: true });

async function signIn(page: Page, baseUrl: string, username: string, password: string) {
  await page.goto(`${baseUrl}/login`);
  await page.locator('#username').fill(username);
  await page.locator('#password').fill(password);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL((url) => url.pathname !== '/login', { timeout: 15_000 });
}

export async function runI18nFlow({ flow, page, baseUrl, screenshot }: FlowContext) {
  const suffix = Date.now().toString(36);
  const admin = { username: `i18n-admin-${suffix}`, password: 'Admin-pass-19' };
  const guard = { username: `i18n-guard-${suffix}`, password: 'Guard-pass-19' };

  await flow.step(
    'isiZulu chosen on the login screen changes its texts and survives a reload',
    async () => {
      await page.goto(`${baseUrl}/login`);
      await heading(page, 'Sign In').waitFor();
      const loginProblems = await measureErgonomics(page);
      assert(
        loginProblems.length === 0,
        `the login screen at 390 px: ${loginProblems.map((p) => `${p.what} ${p.size}`).join('; ')}`,
      );
      await page.getByTestId('language-picker').selectOption({ label: 'isiZulu' });
      await heading(page, 'Ngena').waitFor();
      await page.getByLabel('Igama lomsebenzisi').waitFor();
      assert((await page.locator('html').getAttribute('lang')) === 'zu', '<html lang> is not zu');
      await screenshot('login-zu');

      await page.reload({ waitUntil: 'domcontentloaded' });
      await heading(page, 'Ngena').waitFor();
      const stored = await page.evaluate(() => window.localStorage.getItem('ui-language'));
      assert(stored === 'zu', `ui-language is ${String(stored)}, expected zu`);

      // Back to English for the rest of this browser.
      await page.getByTestId('language-picker').selectOption({ label: 'English' });
      await heading(page, 'Sign In').waitFor();
    },
  );

  await flow.step('a guard account is made through the API', async () => {
    const registered = await page.request.post(`${baseUrl}/api/auth/register`, {
      data: {
        organizationName: `Mogalakwena ${suffix}`,
        fullName: 'Thandeka Admin',
        username: admin.username,
        password: admin.password,
      },
    });
    assert(registered.status() === 201, `register answered ${registered.status()}`);
    const created = await page.request.post(`${baseUrl}/api/users`, {
      data: { username: guard.username, password: 'First-pass-19', role: 'security_guard' },
    });
    assert(created.status() === 201, `create guard answered ${created.status()}`);
    const login = await page.request.post(`${baseUrl}/api/auth/login`, {
      data: { username: guard.username, password: 'First-pass-19' },
    });
    assert(login.status() === 200, `guard login answered ${login.status()}`);
    const changed = await page.request.post(`${baseUrl}/api/auth/change-password`, {
      data: { currentPassword: 'First-pass-19', newPassword: guard.password },
    });
    assert(changed.status() === 200, `change password answered ${changed.status()}`);
    await page.request.post(`${baseUrl}/api/auth/logout`, { data: {} });
  });

  await flow.step("a signed-in guard's choice follows them to another browser", async () => {
    await signIn(page, baseUrl, guard.username, guard.password);
    await heading(page, 'Automated Gate Entry').waitFor();
    const saved = page.waitForResponse(
      (response) =>
        response.url().endsWith('/api/auth/preferences') && response.request().method() === 'PATCH',
    );
    await page.getByTestId('language-picker').first().selectOption({ label: 'isiZulu' });
    assert((await saved).status() === 200, 'the language was not saved on the account');

    const otherBrowser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: process.env.E2E_HEADED !== '1',
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
    try {
      const other = await otherBrowser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
      });
      const otherPage = await other.newPage();
      await otherPage.goto(`${baseUrl}/login`);
      await heading(otherPage, 'Sign In').waitFor(); // this browser has no choice of its own
      await signIn(otherPage, baseUrl, guard.username, guard.password);
      await otherPage
        .getByRole('navigation', { name: 'Ukuzulazula kwangezansi' })
        .getByRole('link', { name: 'Ekhaya' })
        .waitFor();
      assert(
        (await otherPage.locator('html').getAttribute('lang')) === 'zu',
        "the other browser does not speak the guard's language",
      );
      await otherPage.screenshot({ path: 'test-results/e2e/i18n-other-browser-zu.png' });
    } finally {
      await otherBrowser.close();
    }

    // Back to English here, saved on the account too, for the measurements below.
    await page.getByTestId('language-picker').first().selectOption({ label: 'English' });
    await page
      .getByRole('navigation', { name: 'Bottom navigation' })
      .getByRole('link', { name: 'Home' })
      .waitFor();
  });

  await flow.step(
    'guard routes at 390 px: targets ≥ 44 px, text ≥ 14 px, fields ≥ 16 px',
    async () => {
      const failures: string[] = [];
      for (const route of GUARD_ROUTES) {
        await page.goto(`${baseUrl}${route.path}`);
        await heading(page, route.heading).waitFor();
        const problems = await measureErgonomics(page);
        const lines = problems.map((problem) => `${problem.kind} ${problem.what}: ${problem.size}`);
        const mark = problems.length === 0 ? 'ok' : route.asserted ? 'FAIL' : 'known gap';
        console.log(`    ${route.path}: ${problems.length} problem(s) [${mark}]`);
        for (const line of lines.slice(0, 8)) console.log(`      ${line}`);
        if (route.asserted && problems.length > 0)
          failures.push(`${route.path}: ${lines.join('; ')}`);
      }
      await page.goto(`${baseUrl}/`);
      await heading(page, 'System Dashboard').waitFor();
      assert(failures.length === 0, `under the sizes:\n${failures.join('\n')}`);
    },
  );
}
