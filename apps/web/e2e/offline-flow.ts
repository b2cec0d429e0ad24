import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { Page } from 'playwright-core';

import type { FlowContext } from './flows';
import { assert } from './runner';
import { type RunningServer, startServer } from './server';

type EntryLogRow = {
  plateNumber: string;
  entryGranted: boolean;
  timestamp: string;
  warnings: { message?: string }[];
};

/**
 * Issue 18, load-shedding: the guard's phone keeps working with the server really stopped (not
 * only `setOffline`, which service-worker traffic ignores). This flow runs its own server, so it
 * can stop it and start it again on the same port with the same data: the Auto Gate renders on
 * reload from the service worker's precache, two entries are granted from the cached
 * approved-vehicle list and one exit recorded, the page is closed and reopened, the server starts
 * again, and exactly those two entries and the exit reach it, in order, once each, and the banner
 * clears. Then, under `record_only`, a grant made offline is refused by the server on arrival and
 * stays on the device, flagged, until the guard dismisses it.
 */
export async function runOfflineFlow({
  flow,
  page: firstPage,
  context,
  repoRoot,
  logFile,
  screenshot,
  keepData,
}: FlowContext & {
  repoRoot: string;
  logFile: string;
  /**
   * Issue 26f: receives this flow's DATA_DIR once its server has stopped; the caller scans it at
   * rest (the run's final `sealed-at-rest` flow) and removes it.
   */
  keepData: (dataDir: string) => void;
}) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'boomgate-offline-e2e-'));
  // The first start takes the port the system gives; restarts come back on it (the page's origin).
  let server: RunningServer | undefined = await startServer({ repoRoot, logFile, dataDir });
  const baseUrl = server.baseUrl;
  const port = Number(new URL(baseUrl).port);
  const start = () => startServer({ repoRoot, logFile, port, dataDir });
  const suffix = Date.now().toString(36);
  const plates = ['CA123456', 'KP35XKGP'];
  let page: Page = firstPage;

  const grantOffline = async (plate: string) => {
    await page.getByLabel('Plate number').fill(plate);
    await page.getByRole('button', { name: 'Check Plate' }).click();
    await page.getByTestId('offline-vehicle').waitFor();
    await page.getByRole('button', { name: 'Grant Entry' }).click();
    await page.getByTestId('offline-granted').waitFor();
    await page.getByRole('button', { name: 'Next Vehicle' }).click();
  };
  const queueCount = () => page.getByTestId('queue-count').textContent();

  try {
    await flow.step('registers an organization with two approved vehicles', async () => {
      await page.goto(`${baseUrl}/register`);
      await page.getByLabel('Organization Name').fill(`Load-shedding Depot ${suffix}`);
      await page.getByLabel('Full Name').fill('Lerato Offline');
      await page.getByLabel('Username').fill(`offline-${suffix}`);
      await page.getByLabel('Password', { exact: true }).fill('Admin-pass-1');
      await page.getByLabel('Confirm Password').fill('Admin-pass-1');
      await page.getByRole('button', { name: 'Create Account' }).click();
      await page.waitForURL((url) => url.pathname === '/onboarding');
      for (const [index, plateNumber] of plates.entries()) {
        const response = await page.request.post(`${baseUrl}/api/approved-vehicles`, {
          data: { plateNumber, driverName: `Driver ${index + 1}`, company: 'Eskom Haulage' },
        });
        assert(response.status() === 201, `registering ${plateNumber}: ${response.status()}`);
      }
    });

    await flow.step('installs the app: service worker active, vehicle list cached', async () => {
      const listed = page.waitForResponse(
        (response) => response.url().endsWith('/api/approved-vehicles') && response.ok(),
      );
      await page.goto(`${baseUrl}/auto-gate`);
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      await listed;
      await page.waitForFunction(
        () =>
          new Promise<boolean>((resolve) => {
            const open = indexedDB.open('boomgate-offline');
            open.onerror = () => resolve(false);
            open.onsuccess = () => {
              const db = open.result;
              const count = db.transaction('cache').objectStore('cache').count();
              count.onsuccess = () => {
                db.close();
                resolve(count.result > 0);
              };
              count.onerror = () => resolve(false);
            };
          }),
        undefined,
        { timeout: 15_000 },
      );
      // Once the list is saved, the page can be controlled by the worker on the next load.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Automated Gate Entry' }).waitFor();
      const controlled = await page.evaluate(() => navigator.serviceWorker.controller !== null);
      assert(controlled, 'the page is not controlled by the service worker');
      const manifest = await page.request.get(`${baseUrl}/manifest.webmanifest`);
      assert(manifest.ok(), `manifest: ${manifest.status()}`);
    });

    await flow.step('with the server stopped, the Auto Gate renders on reload', async () => {
      await server?.stop();
      server = undefined;
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Automated Gate Entry' }).waitFor();
      await page.getByTestId('connection-state').getByText('Offline').waitFor();
      await page.getByTestId('offline-auto-gate').waitFor();
      await screenshot('offline-auto-gate');
    });

    await flow.step('grants two entries offline; they wait in the queue', async () => {
      for (const plate of plates) await grantOffline(plate);
      const count = await queueCount();
      assert(count?.startsWith('2 actions saved'), `queue counter says "${count}"`);
      await screenshot('two-queued');
    });

    await flow.step('records the exit of the first vehicle offline', async () => {
      await page.getByLabel('Plate number').fill(plates[0]!);
      await page.getByRole('button', { name: 'Record Exit' }).click();
      await page.getByTestId('offline-exit-saved').waitFor();
      await page.getByRole('button', { name: 'Next Vehicle' }).click();
      await page.getByTestId('queue-count').getByText('3 actions saved').waitFor();
    });

    await flow.step('the queue survives closing and reopening the page', async () => {
      await page.close();
      page = await context.newPage();
      await page.goto(`${baseUrl}/auto-gate`);
      await page.getByRole('heading', { level: 1, name: 'Automated Gate Entry' }).waitFor();
      await page.getByTestId('queue-count').getByText('3 actions saved').waitFor();
    });

    await flow.step(
      'the server starts again: both entries and the exit arrive once, in order',
      async () => {
        server = await start();
        // The banner asks the server again every 10 s; then it replays and clears.
        await page.getByTestId('offline-banner').waitFor({ state: 'detached', timeout: 45_000 });
        const response = await page.request.get(`${baseUrl}/api/entry-logs`);
        assert(response.ok(), `GET /api/entry-logs: ${response.status()}`);
        const entries = ((await response.json()) as EntryLogRow[])
          .filter((entry) => plates.includes(entry.plateNumber))
          .sort((a, b) => a.timestamp.localeCompare(b.timestamp));
        assert(
          entries.length === 2,
          `${entries.length} entries reached the server: ${JSON.stringify(entries.map((e) => e.plateNumber))}`,
        );
        assert(
          entries.map((entry) => entry.plateNumber).join() === plates.join(),
          `order: ${entries.map((entry) => entry.plateNumber).join()}`,
        );
        assert(
          entries.every((entry) => entry.entryGranted),
          'an offline grant was not stored as granted',
        );
        // The exit reached it once: the first vehicle left, the second is still On Site.
        const onSite = await page.request.get(`${baseUrl}/api/on-site`);
        assert(onSite.ok(), `GET /api/on-site: ${onSite.status()}`);
        const inside = ((await onSite.json()) as { plateNumber: string | null }[]).map(
          (visit) => visit.plateNumber,
        );
        assert(
          inside.length === 1 && inside[0] === plates[1],
          `On Site after the replay: ${JSON.stringify(inside)}`,
        );
        // No screenshot here: the run's screenshot helper shoots the first page, closed above.
      },
    );

    await flow.step(
      'under record-only, an offline grant the server refuses stays visible as flagged',
      async () => {
        const settings = await page.request.patch(`${baseUrl}/api/settings`, {
          data: { offlineDecisions: 'record_only' },
        });
        assert(settings.ok(), `PATCH /api/settings: ${settings.status()}`);
        await server?.stop();
        server = undefined;
        await page.reload();
        await page.getByTestId('offline-auto-gate').waitFor();
        // The device still has the list (it does not know the setting): the guard grants.
        await grantOffline(plates[0]!);
        server = await start();
        const flagged = page.locator(
          '[data-testid="refused-action"][data-refusal-reason="offline_grant_not_allowed"]',
        );
        await flagged.waitFor({ timeout: 45_000 });
        const text = await flagged.textContent();
        assert(text?.includes('CA 123'), `the flagged entry does not name the plate: "${text}"`);
        const response = await page.request.get(`${baseUrl}/api/entry-logs`);
        const latest = ((await response.json()) as (EntryLogRow & { refusalReason: string })[])
          .filter((entry) => entry.plateNumber === plates[0])
          .sort((a, b) => b.timestamp.localeCompare(a.timestamp))[0];
        assert(
          latest?.entryGranted === false && latest.refusalReason === 'offline_grant_not_allowed',
          `the server stored ${JSON.stringify(latest)}`,
        );
        // Dismissed by the guard, it leaves the device.
        await flagged.getByRole('button', { name: 'Dismiss' }).click();
        await page.getByTestId('offline-banner').waitFor({ state: 'detached' });
      },
    );
  } finally {
    await server?.stop();
    keepData(dataDir);
  }
}
