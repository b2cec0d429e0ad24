import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';

import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { paths } from '../../apps/web/src/config/paths';
import { client } from '../cluster/load';
import { REPO_ROOT } from '../lib/server-process';

import { NODE_ENV, PASSWORD, type SitePair, ok, startSitePair, statusOf, waitFor } from './harness';

/**
 * test:site-sync, in browsers (issue 28: "the cut is visible in both UIs while it lasts"). The
 * built web app is served by both servers; Debian's Chromium opens central's Sites screen as the
 * tenant admin and the site node's screens as a guard of the site, in two browser contexts. The
 * link is cut: every screen of the node says it is offline from head office since its last sync
 * (with that time), and central's Sites screen warns that the node has not synced since then.
 * The link is restored: both say in sync again, with a last sync after the restore.
 *
 * Chromium is required (CHROMIUM_PATH, default /usr/bin/chromium; .ci/run installs it): without
 * it this fails, it never skips. apps/web/dist is built when missing (`npm run build` first to
 * test a changed web app: an existing build is served as it is).
 */

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const webDist = path.join(REPO_ROOT, 'apps/web/dist');
/** Generous: the node turns offline 3 s after its last sync; the screens poll every 15 s. */
const UI_TIMEOUT_MS = 60_000;
const GUARD_PASSWORD = 'site-guard-pass-2';
const NODE_NAME = 'North gate house';
/** Central decides a node is stale with the same (short) interval the harness gives the node. */
const CENTRAL_ENV = { SITE_SYNC_STALE_AFTER_MS: NODE_ENV.SITE_SYNC_STALE_AFTER_MS };

/**
 * Every signed-in screen without a parameter: the banner sits in the app shell, so it must be on
 * each of them (the guard may see "not allowed" on an admin's screen: still inside the shell).
 */
const NODE_SCREENS = [
  ...Object.entries(paths)
    .filter(([name, value]) => typeof value === 'string' && !['login', 'register'].includes(name))
    .map(([, value]) => value as string),
  paths.preArrival(),
  paths.rollCall(),
];

// The browser runs in UTC, so the times it shows are the ISO strings' own (date-fns, English).
const MONTHS = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');
const timeOf = (iso: string) => iso.slice(11, 19);
const dateTimeOf = (iso: string) =>
  `${MONTHS[Number(iso.slice(5, 7)) - 1]} ${iso.slice(8, 10)}, ${iso.slice(0, 4)} ${timeOf(iso)}`;

let pair: SitePair;
let browser: Browser;
let contexts: BrowserContext[] = [];
let centralPage: Page;
let nodePage: Page;
const report: string[] = [];

function ensureWebBuild() {
  if (existsSync(path.join(webDist, 'index.html'))) return;
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (build.status !== 0) throw new Error(`vite build failed with status ${String(build.status)}`);
}

async function newPage(viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({
    viewport,
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(UI_TIMEOUT_MS);
  return page;
}

async function signIn(page: Page, baseUrl: string, username: string, password: string) {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
}

/** The node's screens, one after another, by the app's own (client-side) navigation. */
async function eachNodeScreen(check: (screen: string) => Promise<void>) {
  for (const screen of NODE_SCREENS) {
    // In the page (a string: this file is type-checked without the DOM library).
    await nodePage.evaluate(
      `history.pushState(null, '', ${JSON.stringify(screen)}); dispatchEvent(new PopStateEvent('popstate'))`,
    );
    await nodePage.waitForURL((url) => `${url.pathname}${url.search}` === screen);
    await check(screen);
  }
}

const tokenRow = () => centralPage.getByTestId('node-token-row').filter({ hasText: NODE_NAME });
const offlineText = () => nodePage.getByTestId('site-sync-offline');
const lastSyncOnline = () => nodePage.getByTestId('site-sync-last');

/**
 * Waits until `selector`'s text ends in a time (HH:mm:ss) at or after `min` (a time shortly after
 * midnight counts as after one shortly before it: a run may cross the day).
 */
async function waitForTimeAtLeast(page: Page, selector: string, min: string) {
  // In the page (a string: this file is type-checked without the DOM library).
  const text = `document.querySelector(${JSON.stringify(selector)})?.textContent ?? ''`;
  const shown = `(/(\\d\\d:\\d\\d:\\d\\d)\\s*$/.exec(${text})?.[1] ?? '')`;
  const minimum = JSON.stringify(min);
  await page.waitForFunction(
    `((t) => t !== '' && (t >= ${minimum} || (${minimum} >= '23:' && t < '01:')))(${shown})`,
    undefined,
    { timeout: UI_TIMEOUT_MS },
  );
}

beforeAll(async () => {
  if (!existsSync(chromiumPath))
    throw new Error(
      `Chromium not found at ${chromiumPath}: apt-get install -y chromium (as .ci/run does), or set CHROMIUM_PATH`,
    );
  ensureWebBuild();
  pair = await startSitePair({ centralEnv: CENTRAL_ENV });
  browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: process.env.E2E_HEADED !== '1',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  // Head office at a desk; the guard on a phone over the site's Wi-Fi (issue 15's two sizes).
  centralPage = await newPage({ width: 1366, height: 768 });
  nodePage = await newPage({ width: 390, height: 844 });
}, 240_000);

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  contexts = [];
  await browser?.close();
  await pair?.stop();
  if (report.length > 0) process.stdout.write(`\n${report.join('\n')}\n`);
});

describe('the cut, shown in both UIs (issue 28)', () => {
  let guard: string;
  let cutAt: number;

  it('a guard of the site signs in at the node; the admin opens central’s Sites screen', async () => {
    // The guard is made centrally (users are central's master data) and sets a password there.
    guard = `guard${randomUUID().slice(0, 8)}`;
    await ok(pair.atCentral, 'POST', '/api/users', {
      username: guard,
      password: PASSWORD,
      fullName: 'Thandi Guard',
      role: 'security_guard',
      siteIds: [pair.siteId],
    });
    const asGuard = client(pair.central.url);
    await ok(asGuard, 'POST', '/api/auth/login', { username: guard, password: PASSWORD });
    await ok(asGuard, 'POST', '/api/auth/change-password', {
      currentPassword: PASSWORD,
      newPassword: GUARD_PASSWORD,
    });
    // The harness's own client at the node signs in as the guard too (the node's status route).
    await waitFor('the guard’s new password reaches the node', async () => {
      const login = await pair.atNode.call('login', 'POST', '/api/auth/login', {
        username: guard,
        password: GUARD_PASSWORD,
      });
      return login.status === 200;
    });

    await signIn(nodePage, pair.node.url, guard, GUARD_PASSWORD);
    await lastSyncOnline().waitFor();
    expect(await lastSyncOnline().textContent()).toMatch(
      /^Last sync with head office: (.+ )?\d\d:\d\d:\d\d$/,
    );
    expect(await nodePage.getByTestId('site-sync-banner').count()).toBe(0);

    await signIn(centralPage, pair.central.url, pair.username, PASSWORD);
    await centralPage.goto(`${pair.central.url}${paths.sitesSettings}`);
    await tokenRow().getByText('In sync').waitFor();
    expect(await tokenRow().textContent()).toMatch(/Last sync \w{3} \d\d, \d{4} \d\d:\d\d:\d\d/);
    expect(await centralPage.getByTestId('node-token-stale').count()).toBe(0);
  });

  it('shows the last sync time on every screen of the node while it is in sync', async () => {
    await eachNodeScreen(async (screen) => {
      await lastSyncOnline().waitFor();
      expect(await lastSyncOnline().textContent(), screen).toMatch(
        /^Last sync with head office: (.+ )?\d\d:\d\d:\d\d$/,
      );
    });
  });

  it('while the link is cut, the node says it decides alone and central that it has not synced', async () => {
    await pair.link.cut();
    cutAt = Date.now();

    // The node: the banner, with the time of its last sync before the cut.
    await offlineText().waitFor({ timeout: UI_TIMEOUT_MS });
    report.push(`site-sync-ui: the node's banner ${Date.now() - cutAt} ms after the cut`);
    const status = await statusOf(pair.atNode);
    expect(status.offline).toBe(true);
    const since = [status.lastDownSyncAt, status.oldestUnacknowledgedAt]
      .filter((time): time is string => time !== null)
      .sort()[0]!;
    expect(new Date(since).getTime()).toBeLessThanOrEqual(cutAt);
    const banner = `Offline from head office since ${timeOf(since)} — decisions made at this site`;
    expect(await offlineText().textContent()).toBe(banner);

    // Central: the node's row turns into a warning naming its last sync, which was before the cut.
    const stale = tokenRow().getByTestId('node-token-stale');
    await stale.waitFor({ timeout: UI_TIMEOUT_MS });
    report.push(`site-sync-ui: central's warning ${Date.now() - cutAt} ms after the cut`);
    const tokens = await ok<{ id: string; lastSyncAt: string; stale: boolean }[]>(
      pair.atCentral,
      'GET',
      `/api/sites/${pair.siteId}/node-tokens`,
    );
    const token = tokens.find((candidate) => candidate.id === pair.tokenId)!;
    expect(token.stale).toBe(true);
    expect(new Date(token.lastSyncAt).getTime()).toBeLessThanOrEqual(cutAt);
    expect(await stale.textContent()).toBe(
      `Not synced since ${dateTimeOf(token.lastSyncAt)} — the site is deciding alone`,
    );
    expect(await tokenRow().getByText('In sync').count()).toBe(0);

    // Every screen of the node says so, with the time and the last sync.
    const lastSync = [status.lastDownSyncAt, status.lastUpSyncAt]
      .filter((time): time is string => time !== null)
      .sort()
      .at(-1)!;
    await eachNodeScreen(async (screen) => {
      await offlineText().waitFor();
      expect(await offlineText().textContent(), screen).toBe(banner);
      expect(await nodePage.getByTestId('site-sync-banner').textContent(), screen).toContain(
        `Last sync with head office: ${timeOf(lastSync)}`,
      );
    });
  });

  it('after the link is back, both say in sync again, with a last sync after the restore', async () => {
    await pair.link.restore();
    const restoredAt = new Date();
    const after = timeOf(restoredAt.toISOString());

    await nodePage.getByTestId('site-sync-banner').waitFor({ state: 'detached' });
    await waitForTimeAtLeast(nodePage, '[data-testid="site-sync-last"]', after);
    report.push(
      `site-sync-ui: the node's banner gone ${Date.now() - restoredAt.getTime()} ms after the restore`,
    );
    expect(await lastSyncOnline().textContent()).toMatch(
      /^Last sync with head office: (.+ )?\d\d:\d\d:\d\d$/,
    );

    await tokenRow().getByTestId('node-token-stale').waitFor({ state: 'detached' });
    await tokenRow().getByText('In sync').waitFor();
    await waitForTimeAtLeast(centralPage, '[data-testid="node-token-last-sync"]', after);
    report.push(
      `site-sync-ui: central in sync ${Date.now() - restoredAt.getTime()} ms after the restore`,
    );
    expect(await tokenRow().getByTestId('node-token-last-sync').textContent()).toMatch(
      /^Last sync \w{3} \d\d, \d{4} \d\d:\d\d:\d\d$/,
    );

    await eachNodeScreen(async (screen) => {
      await lastSyncOnline().waitFor();
      expect(await nodePage.getByTestId('site-sync-banner').count(), screen).toBe(0);
    });
  });
});
