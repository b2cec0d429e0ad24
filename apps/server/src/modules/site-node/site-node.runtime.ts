import { SITE_SYNC_EVENTS_BATCH_MAX } from '@boomgate/contracts/site-sync';

import type { SiteNodeConfig } from '@/config/env';
import type { Clock } from '@/platform/clock';
import { createDatabase } from '@/platform/db';

import type { StoredObjects } from './site-facts';
import { type SiteNodeSync, createSiteNodeSync } from './site-node.sync';

type Log = (level: 'info' | 'warn', message: string) => void;

/**
 * Repeats one direction: `step` every `intervalMs` while it succeeds, and after a failure (the
 * link is down, central refused) again after a backoff that doubles from the interval up to
 * `maxBackoffMs`. `more` true: run again at once (pages or facts still waiting).
 */
export function createSyncLoop({
  step,
  intervalMs,
  maxBackoffMs,
  onError,
}: {
  step: () => Promise<{ more: boolean }>;
  intervalMs: number;
  maxBackoffMs: number;
  onError: (error: Error, retryInMs: number) => void;
}) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  let failures = 0;

  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick().finally(() => {
        running = undefined;
      });
    }, delayMs);
    timer.unref?.();
  };

  async function tick() {
    try {
      const { more } = await step();
      failures = 0;
      schedule(more ? 0 : intervalMs);
    } catch (error) {
      failures += 1;
      const retryInMs = Math.min(maxBackoffMs, intervalMs * 2 ** (failures - 1));
      onError(error as Error, retryInMs);
      schedule(retryInMs);
    }
  }

  return {
    start: () => schedule(0),
    /** The step in progress finishes; nothing starts after. */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    get failures() {
      return failures;
    },
  };
}

/**
 * Issue 28: the site node's runtime beside the normal server (main.ts starts it when SITE_NODE=1):
 * the pull and push loops on a small pool of their own, as the schema owner (applying master data
 * writes every synced table, which the API role may not).
 */
export function startSiteNodeRuntime({
  config,
  ownerUrl,
  clock,
  master,
  log,
  objects,
  sync: givenSync,
}: {
  config: SiteNodeConfig;
  ownerUrl: string;
  clock: Clock;
  /** The node's ENCRYPTION_KEY (central's keys are stored re-wrapped under it). */
  master: Buffer;
  log: Log;
  /** The storage as it is (sealed): facts sent again after pruning read their objects back. */
  objects?: StoredObjects;
  sync?: SiteNodeSync;
}) {
  const database = createDatabase({
    url: ownerUrl,
    poolMax: 2,
    // Applying a first full page of master data can take longer than a request's budget.
    statementTimeoutMs: 120_000,
    onPoolError: (error) => log('warn', `site sync: database connection lost: ${error.message}`),
  });
  const sync = givenSync ?? createSiteNodeSync({ config, database, clock, master, objects });
  const pull = createSyncLoop({
    intervalMs: config.pullIntervalMs,
    maxBackoffMs: config.maxBackoffMs,
    step: async () => {
      const { changes } = await sync.pull();
      if (changes > 0)
        log('info', `site sync: applied ${changes} master-data changes from central`);
      return { more: false };
    },
    onError: (error, retryInMs) =>
      log('warn', `site sync: pull failed (${error.message}); retrying in ${retryInMs} ms`),
  });
  const push = createSyncLoop({
    intervalMs: config.pushIntervalMs,
    maxBackoffMs: config.maxBackoffMs,
    step: async () => {
      const { sent, acknowledged } = await sync.push();
      // A full batch central took: more may wait. Anything else waits for the next interval.
      return { more: sent === SITE_SYNC_EVENTS_BATCH_MAX && acknowledged > 0 };
    },
    onError: (error, retryInMs) =>
      log('warn', `site sync: push failed (${error.message}); retrying in ${retryInMs} ms`),
  });
  pull.start();
  push.start();
  return {
    async stop() {
      await Promise.all([pull.stop(), push.stop()]);
      await database.close();
    },
  };
}
