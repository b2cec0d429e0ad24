import { sql } from 'drizzle-orm';

import {
  SITE_SYNC_EVENTS_BATCH_BYTES,
  SITE_SYNC_EVENTS_BATCH_MAX,
  SITE_SYNC_PAGE_LIMIT_DEFAULT,
  SiteSyncAckSchema,
  type SiteSyncChangesPage,
  SiteSyncChangesPageSchema,
  type SiteSyncEvent,
  SiteSyncKeysSchema,
  type SiteSyncStatus,
} from '@boomgate/contracts/site-sync';

import type { SiteNodeConfig } from '@/config/env';
import { wrapContext } from '@/modules/keys';
import { keySetOf, nodeKeyPair, unwrapKeysAtNode, verifySiteSyncPage } from '@/modules/site-sync';
import type { Clock } from '@/platform/clock';
import type { Database, DbExecutor, Tx } from '@/platform/db';
import { findPgError } from '@/platform/errors';
import { masterKeyId, unwrapKey, wrapKey } from '@/platform/sealing';

import { applyChangesPage, createTableShapes } from './site-node-apply';

/** A sync step that failed; `status` is central's HTTP status when it answered. */
export class SiteSyncError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'SiteSyncError';
  }
}

type NodeState = {
  tenant_id: string;
  site_id: string;
  since_version: string | number;
  last_down_sync_at: Date | null;
  last_up_sync_at: Date | null;
};

/** The node's cursor, read without a tenant (its own policy allows it): null before the first pull. */
export async function readNodeState(tx: DbExecutor): Promise<NodeState | null> {
  const result = await tx.execute<NodeState>(sql`
    select tenant_id, site_id, since_version, last_down_sync_at, last_up_sync_at
    from site_node_state limit 1`);
  return result.rows[0] ?? null;
}

/**
 * What `GET /api/site-sync/status` answers on a node. Down-sync is stale when the last applied
 * pull is older than `staleAfterMs` (or there was none); up-sync is stale when a fact has waited
 * longer than that for central's acknowledgement (an empty outbox is in sync, however long ago the
 * last push was).
 */
export async function siteNodeStatus(
  tx: DbExecutor,
  { now, staleAfterMs }: { now: Date; staleAfterMs: number },
): Promise<SiteSyncStatus> {
  const state = await readNodeState(tx);
  const oldest = await tx.execute<{ at: Date | null }>(sql`
    select min(site_recorded_at) as at from site_outbox where acknowledged_at is null`);
  const oldestAt = oldest.rows[0]?.at ? new Date(oldest.rows[0].at) : null;
  const lastDown = state?.last_down_sync_at ? new Date(state.last_down_sync_at) : null;
  const lastUp = state?.last_up_sync_at ? new Date(state.last_up_sync_at) : null;
  const isOlder = (at: Date | null) => at === null || now.getTime() - at.getTime() > staleAfterMs;
  return {
    mode: 'site_node',
    lastDownSyncAt: lastDown?.toISOString() ?? null,
    lastUpSyncAt: lastUp?.toISOString() ?? null,
    oldestUnacknowledgedAt: oldestAt?.toISOString() ?? null,
    offline: isOlder(lastDown) || (oldestAt !== null && isOlder(oldestAt)),
  };
}

export type SiteNodeSyncDeps = {
  config: SiteNodeConfig;
  /** The schema owner's connection: applying master data writes every synced table. */
  database: Database;
  clock: Clock;
  /** The node's own ENCRYPTION_KEY: its X25519 key pair and the wrapping of central's keys on disk. */
  master: Buffer;
  fetch?: typeof fetch;
  pageLimit?: number;
  /** A request to central that takes longer than this fails (the link may hang, not drop). */
  requestTimeoutMs?: number;
};

/**
 * Issue 28 (ADR 0009): one site node's two directions, each a step the runtime repeats.
 * `pull` applies central's master-data changes page by page (verified, each page in one
 * transaction with its cursor); `push` sends the unacknowledged facts in (stream, seq) order and
 * marks what central acknowledges. Neither ever deletes a fact.
 */
export function createSiteNodeSync({
  config,
  database,
  clock,
  master,
  fetch: fetchImpl = fetch,
  pageLimit = SITE_SYNC_PAGE_LIMIT_DEFAULT,
  requestTimeoutMs = 30_000,
}: SiteNodeSyncDeps) {
  const shapeOf = createTableShapes();

  async function call(path: string, init: RequestInit = {}): Promise<Response> {
    try {
      return await fetchImpl(`${config.centralUrl}${path}`, {
        ...init,
        headers: {
          authorization: `Bearer ${config.token}`,
          accept: 'application/json',
          ...(init.body ? { 'content-type': 'application/json' } : {}),
        },
        signal: AbortSignal.timeout(requestTimeoutMs),
      });
    } catch (error) {
      throw new SiteSyncError(`central unreachable: ${(error as Error).message}`);
    }
  }

  /** A failure as one line for the log and the state: a query's own text left out, its cause in. */
  function describe(error: unknown): string {
    const first = ((error as Error).message ?? String(error)).split('\n')[0] ?? '';
    const cause = findPgError(error) as { message?: string } | undefined;
    return cause?.message && !first.includes(cause.message) ? `${first} ${cause.message}` : first;
  }

  async function recordError(message: string) {
    const state = await readNodeState(database.db);
    if (!state) return;
    await database.withTenant(state.tenant_id, (tx) =>
      tx.execute(sql`update site_node_state set last_error = ${message},
        last_error_at = ${clock.now().toISOString()}::timestamptz`),
    );
  }

  async function fetchPage(since: number): Promise<SiteSyncChangesPage> {
    const response = await call(`/api/site-sync/changes?since=${since}&limit=${pageLimit}`);
    if (!response.ok)
      throw new SiteSyncError(`changes: central answered ${response.status}`, response.status);
    const parsed = SiteSyncChangesPageSchema.safeParse(await response.json().catch(() => null));
    if (!parsed.success) throw new SiteSyncError('changes: the page does not match the contract');
    const page = parsed.data;
    if (!verifySiteSyncPage(page, config.centralPublicKey))
      throw new SiteSyncError('changes: the signature does not verify with the pinned key');
    if (page.since !== since) throw new SiteSyncError('changes: the page is not for our version');
    return page;
  }

  /** Applies one page and moves the cursor in one transaction; false when nothing was newer. */
  async function applyPage(page: SiteSyncChangesPage, state: NodeState | null): Promise<void> {
    if (state && (state.tenant_id !== page.tenantId || state.site_id !== page.siteId))
      throw new SiteSyncError('changes: the page is for another tenant or site than this node');
    const now = clock.now().toISOString();
    await database.withTenant(page.tenantId, async (tx) => {
      await relaxReferences(tx);
      await applyChangesPage(tx, page, shapeOf);
      await tx.execute(sql`
        insert into site_node_state (tenant_id, site_id, since_version, high_water, last_down_sync_at)
        values (${page.tenantId}, ${page.siteId}, ${page.nextSince}, ${page.highWater}, ${now}::timestamptz)
        on conflict (tenant_id) do update set since_version = excluded.since_version,
          high_water = excluded.high_water, last_down_sync_at = excluded.last_down_sync_at,
          last_error = null, last_error_at = null`);
    });
  }

  type LocalKey = {
    purpose: 'data' | 'index' | 'audit';
    version: number;
    state: 'active' | 'retiring' | 'retired';
    wrapped_key: string | null;
    master_key_id: string;
  };

  /**
   * Issue 28 (ADR 0009): the tenant's keys from central, wrapped for this node, stored re-wrapped
   * under the node's own ENCRYPTION_KEY in tenant_keys (where the keyring reads them; it makes no
   * keys of its own on a node). A key the node already holds under the same version but with
   * other bytes stops the sync (never silently two keys for one version); a key central has
   * moved to retiring is retiring here too. Returns how many keys were written.
   */
  async function syncKeys(tenantId: string): Promise<number> {
    const node = nodeKeyPair(master);
    const currentMaster = masterKeyId(master);
    const local = await database.withTenant(
      tenantId,
      async (tx) =>
        (
          await tx.execute<LocalKey>(sql`
            select purpose, version, state, wrapped_key, master_key_id from tenant_keys
            where tenant_id = ${tenantId}`)
        ).rows,
    );
    const response = await call('/api/site-sync/keys', {
      method: 'POST',
      body: JSON.stringify({
        nodePublicKey: node.publicKey,
        have: keySetOf(local.filter((key) => key.state !== 'retired') as never[]),
      }),
    });
    if (!response.ok)
      throw new SiteSyncError(`keys: central answered ${response.status}`, response.status);
    const parsed = SiteSyncKeysSchema.safeParse(await response.json().catch(() => null));
    if (!parsed.success) throw new SiteSyncError('keys: the answer does not match the contract');
    if (parsed.data.tenantId !== tenantId)
      throw new SiteSyncError('keys: the answer is for another tenant than this node');
    let keys;
    try {
      keys = unwrapKeysAtNode(master, parsed.data);
    } catch {
      throw new SiteSyncError('keys: the keys do not open with this node’s key');
    }
    const wanted = keys.filter((key) => {
      const held = local.find((row) => row.purpose === key.purpose && row.version === key.version);
      if (!held) return true;
      if (held.wrapped_key && held.master_key_id === currentMaster) {
        const bytes = unwrapKey(master, held.wrapped_key, wrapContext({ tenantId, ...key }));
        if (!bytes.equals(key.key))
          throw new SiteSyncError(
            `keys: this node holds its own ${key.purpose} key v${key.version}, not central's; it cannot seal with both`,
          );
      }
      return held.state !== key.state || held.master_key_id !== currentMaster || !held.wrapped_key;
    });
    if (wanted.length === 0) return 0;
    // Retiring before active: one active key per purpose at every step (tenant_keys_one_active).
    wanted.sort((a, b) => Number(a.state === 'active') - Number(b.state === 'active'));
    await database.withTenant(tenantId, async (tx) => {
      for (const key of wanted) {
        if (key.state === 'active')
          await tx.execute(sql`update tenant_keys set state = 'retiring'
            where tenant_id = ${tenantId} and purpose = ${key.purpose} and state = 'active'
              and version <> ${key.version}`);
        const wrapped = wrapKey(master, key.key, wrapContext({ tenantId, ...key }));
        await tx.execute(sql`
          insert into tenant_keys (tenant_id, purpose, version, state, wrapped_key, master_key_id)
          values (${tenantId}, ${key.purpose}, ${key.version}, ${key.state}, ${wrapped}, ${currentMaster})
          on conflict (tenant_id, purpose, version) do update set state = excluded.state,
            wrapped_key = excluded.wrapped_key, master_key_id = excluded.master_key_id`);
      }
    });
    return wanted.length;
  }

  /** Pulls until central has nothing newer; returns the pages applied. */
  async function pull(): Promise<{ pages: number; changes: number }> {
    let pages = 0;
    let changes = 0;
    try {
      for (;;) {
        const state = await readNodeState(database.db);
        const since = Number(state?.since_version ?? 0);
        const page = await fetchPage(since);
        await applyPage(page, state);
        pages += 1;
        changes += page.changes.length;
        if (page.changes.length === 0 || page.nextSince >= page.highWater) break;
      }
      // The tenant's keys at every pull: a rotation made centrally reaches the node here.
      const state = await readNodeState(database.db);
      if (state) await syncKeys(state.tenant_id);
      return { pages, changes };
    } catch (error) {
      const message = describe(error);
      await recordError(message).catch(() => undefined);
      throw error instanceof SiteSyncError ? error : new SiteSyncError(message);
    }
  }

  type Pending = {
    id: string;
    gate_id: string | null;
    stream: string;
    seq: number;
    kind: SiteSyncEvent['kind'];
    site_recorded_at: Date;
    payload: Record<string, unknown>;
  };

  /**
   * Sends up to one batch of unacknowledged facts; returns how many were sent (0: nothing waits).
   * 409 means central's order check found a gap (it holds less than this node marked as sent):
   * the streams go back to central's acknowledged seq (or to their start when it did not say)
   * and are sent again; central applies a resent fact once (its id is its key).
   */
  async function push(): Promise<{ sent: number; acknowledged: number }> {
    const state = await readNodeState(database.db);
    if (!state) return { sent: 0, acknowledged: 0 };
    const tenantId = state.tenant_id;
    try {
      const pending = await database.withTenant(
        tenantId,
        async (tx) =>
          (
            await tx.execute<Pending>(sql`
            select id, gate_id, stream, seq, kind, site_recorded_at, payload from site_outbox
            where acknowledged_at is null order by stream, seq limit ${SITE_SYNC_EVENTS_BATCH_MAX}`)
          ).rows,
      );
      if (pending.length === 0) return { sent: 0, acknowledged: 0 };
      // A batch stays under SITE_SYNC_EVENTS_BATCH_BYTES (captures carry their objects), but
      // always holds the first fact: the rest follow in the next batch, in order.
      let bytes = 0;
      let take = 0;
      for (const row of pending) {
        bytes += JSON.stringify(row.payload).length;
        if (take > 0 && bytes > SITE_SYNC_EVENTS_BATCH_BYTES) break;
        take += 1;
      }
      const inOrder = pending.slice(0, take);
      const events: SiteSyncEvent[] = inOrder.map((row) => ({
        id: row.id,
        gateId: row.gate_id,
        seq: row.seq,
        kind: row.kind,
        siteRecordedAt: new Date(row.site_recorded_at).toISOString(),
        payload: row.payload,
      }));
      const response = await call('/api/site-sync/events', {
        method: 'POST',
        body: JSON.stringify({ events }),
      });
      const body: unknown = await response.json().catch(() => null);
      if (response.status === 409) {
        const told = findAcknowledged(body);
        const streams = [...new Set(inOrder.map((row) => row.stream))];
        await database.withTenant(tenantId, async (tx) => {
          for (const stream of streams) {
            const from = told?.[stream] ?? 0;
            await tx.execute(sql`update site_outbox set acknowledged_at = null
              where stream = ${stream} and seq > ${from} and acknowledged_at is not null`);
            await tx.execute(sql`update site_outbox set acknowledged_at = ${clock.now().toISOString()}::timestamptz
              where stream = ${stream} and seq <= ${from} and acknowledged_at is null`);
          }
        });
        throw new SiteSyncError('events: central found a gap in a gate stream; resending', 409);
      }
      if (!response.ok)
        throw new SiteSyncError(`events: central answered ${response.status}`, response.status);
      const ack = SiteSyncAckSchema.safeParse(body);
      if (!ack.success) throw new SiteSyncError('events: the answer does not match the contract');
      const now = clock.now().toISOString();
      let acknowledged = 0;
      await database.withTenant(tenantId, async (tx) => {
        for (const [stream, seq] of Object.entries(ack.data.acknowledged)) {
          const marked =
            await tx.execute(sql`update site_outbox set acknowledged_at = ${now}::timestamptz
            where stream = ${stream} and seq <= ${seq} and acknowledged_at is null`);
          acknowledged += marked.rowCount ?? 0;
        }
        await tx.execute(sql`update site_node_state set last_up_sync_at = ${now}::timestamptz,
          last_error = null, last_error_at = null`);
      });
      return { sent: events.length, acknowledged };
    } catch (error) {
      const message = describe(error);
      await recordError(message).catch(() => undefined);
      throw error instanceof SiteSyncError ? error : new SiteSyncError(message);
    }
  }

  return { pull, push, syncKeys };
}

/**
 * A page is in version order, not in the order of references (a user updated after being assigned
 * to a site comes after the assignment; the tenant's row may come pages later than its users), so
 * within the page's transaction the node checks no foreign keys and runs no triggers when its
 * database lets it (the embedded PostgreSQL's owner is a superuser): central's rows are consistent
 * at its high water, and the node's are once it has caught up. Elsewhere the check stays on and a
 * page whose rows refer ahead fails whole (nothing applied) and is retried.
 */
async function relaxReferences(tx: Tx) {
  try {
    await tx.transaction((savepoint) =>
      savepoint.execute(sql`set local session_replication_role = replica`),
    );
  } catch {
    // Not a superuser: references are checked as usual.
  }
}

/**
 * Central's acknowledged seqs in a 409's body: the error format's `issues`, one per stream as
 * `{ path: "acknowledged.<stream>", message: "<seq>" }` (central's site-sync routes), or an
 * `acknowledged` map as SiteSyncAckSchema has it.
 */
function findAcknowledged(body: unknown): Record<string, number> | null {
  const error = (body as { error?: { issues?: unknown; acknowledged?: unknown } } | null)?.error;
  const found: Record<string, number> = {};
  if (Array.isArray(error?.issues)) {
    for (const issue of error.issues as { path?: unknown; message?: unknown }[]) {
      const path = typeof issue.path === 'string' ? issue.path : '';
      const seq = Number(issue.message);
      if (path.startsWith('acknowledged.') && Number.isInteger(seq) && seq >= 0)
        found[path.slice('acknowledged.'.length)] = seq;
    }
  }
  if (Object.keys(found).length > 0) return found;
  const shape = SiteSyncAckSchema.shape.acknowledged;
  for (const candidate of [
    error?.acknowledged,
    (body as { acknowledged?: unknown } | null)?.acknowledged,
  ]) {
    const parsed = shape.safeParse(candidate);
    if (parsed.success && Object.keys(parsed.data).length > 0) return parsed.data;
  }
  return null;
}

export type SiteNodeSync = ReturnType<typeof createSiteNodeSync>;
