import { randomUUID } from 'node:crypto';

import { type Client, client, sleep } from '../cluster/load';
import { type ServerProcess, startServer } from '../lib/server-process';

import { startLinkProxy } from './proxy';

/**
 * test:site-sync (issue 28, ADR 0009): what the site-sync harness tests share — central and a
 * site node (two real server processes, each on its own embedded PostgreSQL) joined by a loopback
 * TCP proxy as the link, a tenant registered centrally with a node token for its default site,
 * and small helpers to call either side and wait for a state. Used by both halves: the API one
 * (site-sync.site-sync.test.ts) and the browser one (site-sync-ui.site-sync.test.ts).
 */

/** Short intervals so the harness runs in seconds; the meaning is the production one. */
export const NODE_ENV = {
  SITE_SYNC_PULL_INTERVAL_MS: '500',
  SITE_SYNC_PUSH_INTERVAL_MS: '300',
  SITE_SYNC_MAX_BACKOFF_MS: '1000',
  SITE_SYNC_STALE_AFTER_MS: '3000',
};
export const PASSWORD = 'site-sync-pass-1';

export type Status = {
  mode: string;
  lastDownSyncAt: string | null;
  lastUpSyncAt: string | null;
  oldestUnacknowledgedAt: string | null;
  offline: boolean;
};

/** One call that must answer one of `status`; its body, else an error naming the call. */
export async function ok<T>(
  api: Client,
  method: string,
  path: string,
  body?: unknown,
  status = [200, 201, 204],
): Promise<T> {
  const answer = await api.call(`${method} ${path}`, method, path, body);
  if (!status.includes(answer.status ?? 0))
    throw new Error(
      `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body ?? answer.error)}`,
    );
  return answer.body as T;
}

/** Polls `check` until it gives a value (not undefined or false); fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(250);
  }
}

export const statusOf = (api: Client) => ok<Status>(api, 'GET', '/api/site-sync/status');

export type SitePair = {
  central: ServerProcess;
  node: ServerProcess;
  link: Awaited<ReturnType<typeof startLinkProxy>>;
  /** Signed in centrally as the tenant's admin (`username`, PASSWORD). */
  atCentral: Client;
  /** Not signed in: the caller signs in once the node has the tenant. */
  atNode: Client;
  siteId: string;
  gateId: string;
  tokenId: string;
  username: string;
  stop(): Promise<void>;
};

/**
 * Starts central, registers a tenant, creates a node token for its default site, opens the link
 * and starts the site node against it. `centralEnv` and `nodeEnv` are added to each process's
 * environment (the node always gets SITE_NODE=1, the link as CENTRAL_URL, the token and key).
 */
export async function startSitePair({
  centralEnv = {},
  nodeEnv = NODE_ENV,
}: {
  centralEnv?: Record<string, string>;
  nodeEnv?: Record<string, string>;
} = {}): Promise<SitePair> {
  // Each process gets its own embedded PostgreSQL: never a shared DATABASE_URL.
  delete process.env.DATABASE_URL;
  delete process.env.DATABASE_APP_URL;
  const central = await startServer({ env: centralEnv });
  const atCentral = client(central.url);
  const username = `sitesync${randomUUID().slice(0, 8)}`;
  await ok(atCentral, 'POST', '/api/auth/register', {
    organizationName: `Site Sync ${randomUUID().slice(0, 6)}`,
    fullName: 'Site Admin',
    username,
    password: PASSWORD,
  });
  const siteId = (await ok<{ id: string }[]>(atCentral, 'GET', '/api/sites'))[0]!.id;
  const gateId = (await ok<{ id: string }[]>(atCentral, 'GET', `/api/sites/${siteId}/gates`))[0]!
    .id;
  const created = await ok<{ id: string; token: string; centralPublicKey: string }>(
    atCentral,
    'POST',
    `/api/sites/${siteId}/node-tokens`,
    { name: 'North gate house' },
  );
  const link = await startLinkProxy({
    host: '127.0.0.1',
    port: Number(new URL(central.url).port),
  });
  const node = await startServer({
    env: {
      ...nodeEnv,
      SITE_NODE: '1',
      CENTRAL_URL: link.url,
      SITE_TOKEN: created.token,
      CENTRAL_PUBLIC_KEY: created.centralPublicKey,
    },
  }).catch(async (error: unknown) => {
    await link.close();
    await central.stop();
    throw error;
  });
  return {
    central,
    node,
    link,
    atCentral,
    atNode: client(node.url),
    siteId,
    gateId,
    tokenId: created.id,
    username,
    async stop() {
      await node.stop();
      await link.close();
      await central.stop();
    },
  };
}
