import { sql } from 'drizzle-orm';

import {
  SITE_SYNC_EVENTS_BATCH_BYTES,
  SITE_SYNC_EVENTS_BATCH_MAX,
  SITE_SYNC_PAGE_LIMIT_DEFAULT,
  SITE_SYNC_REUSED_ISSUE_PREFIX,
  SiteSyncAckSchema,
  SiteSyncAcknowledgedSchema,
  type SiteSyncChangesPage,
  SiteSyncChangesPageSchema,
  type SiteSyncEvent,
  SiteSyncKeysSchema,
  type SiteSyncStatus,
} from '@boomgate/contracts/site-sync';

import type { SiteNodeConfig } from '@/config/env';
import { KEY_CACHE_MS, NODE_RESEAL_JOB, SETTLE_MARGIN_MS, wrapContext } from '@/modules/keys';
import { keySetOf, nodeKeyPair, unwrapKeysAtNode, verifySiteSyncPage } from '@/modules/site-sync';
import type { Clock } from '@/platform/clock';
import type { Database, DbExecutor, Tx } from '@/platform/db';
import { findPgError } from '@/platform/errors';
import { enqueueJob } from '@/platform/jobs';
import { masterKeyId, unwrapKey, wrapKey } from '@/platform/sealing';

import type { StoredObjects } from './site-facts';
import { applyChangesPage, createTableShapes } from './site-node-apply';
import { withObjects } from './site-node.outbox';

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
  /** A batch of facts is filled up to this many bytes of JSON (default the node's config). */
  batchBytes?: number;
  /** How long a process may still seal with a key after it changed (KEY_CACHE_SECONDS). */
  keyCacheMs?: number;
  /** The node's storage as it is (sealed): a fact whose objects were pruned reads them back. */
  objects?: StoredObjects;
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
  batchBytes = config.batchBytes ?? SITE_SYNC_EVENTS_BATCH_BYTES,
  keyCacheMs = config.keyCacheMs ?? KEY_CACHE_MS,
  objects,
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
    created_at: Date;
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
            select purpose, version, state, wrapped_key, master_key_id, created_at from tenant_keys
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
    await scheduleReseal(tenantId, local, keys);
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

  /** The last re-seal decision queued per tenant in this process (see scheduleReseal). */
  const scheduled = new Map<string, string>();
  /**
   * ADR 0009: after central rotated the data key, the node re-seals its own rows and objects with
   * the new key (NODE_RESEAL_JOB, the keys module's walk), and erases a retiring key once central
   * no longer delivers it (central retired it). Decided here from what the node held before this
   * delivery (`local`) and what central sent (`delivered`); one job per tenant (its job key), run
   * once no process of the node can still seal with the old key (its key cache).
   */
  async function scheduleReseal(
    tenantId: string,
    local: LocalKey[],
    delivered: { purpose: string; version: number; state: string }[],
  ) {
    const activeHere = local.find((key) => key.purpose === 'data' && key.state === 'active');
    const activeThere = delivered.find((key) => key.purpose === 'data' && key.state === 'active');
    const rotated = activeHere && activeThere && activeThere.version !== activeHere.version;
    const retire = local
      .filter((key) => key.purpose === 'data' && key.state !== 'retired')
      .filter(
        (key) => !delivered.some((sent) => sent.purpose === 'data' && sent.version === key.version),
      )
      .filter((key) => key.version !== activeThere?.version)
      .map((key) => key.version);
    if (!rotated && retire.length === 0) return;
    // A pull comes every few seconds: the same decision again must not replace the queued job
    // (that would reset its attempts, and replacing a running job starts a second walk beside it).
    const decision = JSON.stringify({ retire, active: activeThere?.version });
    if (!rotated && scheduled.get(tenantId) === decision) return;
    scheduled.set(tenantId, decision);
    // From when the node took its active key (now, for a rotation this pull brings): stable
    // across pulls, so replacing the job at every pull never pushes it back.
    const since = rotated ? clock.now() : new Date(activeHere?.created_at ?? clock.now());
    const runAt = new Date(since.getTime() + keyCacheMs + SETTLE_MARGIN_MS);
    await enqueueJob(
      database.db,
      NODE_RESEAL_JOB,
      { tenantId, retire },
      // One per tenant: a later pull replaces it (a retire list grown, a second rotation).
      { runAt, jobKey: `${NODE_RESEAL_JOB.name}:${tenantId}` },
    );
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
   * An entry too large for a batch with its objects inline (many large images): each object
   * (`objects`, and each document's `object`) goes to central on its own first
   * (`POST /api/site-sync/objects`, idempotent on the key), and the entry is sent without their
   * bytes, naming their keys in `objects_uploaded`; central checks it holds them. The outbox row
   * is left as it is (a fact is never rewritten).
   */
  async function liftObjects(payload: Record<string, unknown>): Promise<Record<string, unknown>> {
    const uploads: [string, string][] = [];
    const objects = (payload.objects ?? {}) as Record<string, string>;
    uploads.push(...Object.entries(objects));
    const documents = Array.isArray(payload.documents)
      ? (payload.documents as { row: { image_key?: unknown }; object?: string }[])
      : [];
    const lifted = documents.map(({ object, ...document }) => {
      const key = document.row.image_key;
      if (object === undefined || typeof key !== 'string')
        return object === undefined ? document : { ...document, object };
      uploads.push([key, object]);
      return document;
    });
    for (const [key, object] of uploads) {
      const response = await call('/api/site-sync/objects', {
        method: 'POST',
        body: JSON.stringify({ key, object }),
      });
      if (!response.ok)
        throw new SiteSyncError(
          `objects: central answered ${response.status} for ${key}`,
          response.status,
        );
    }
    const { objects: _objects, ...rest } = payload;
    return {
      ...rest,
      ...(payload.documents !== undefined ? { documents: lifted } : {}),
      objects_uploaded: [...new Set(uploads.map(([key]) => key))],
    };
  }

  /** False until the node has compared its streams with central's since it started. */
  let reconciled = false;

  /**
   * Brings the node's streams in line with what central holds (ADR 0009, "Restore"): asked at
   * start and after every 409, so a node restored from a backup older than central's
   * acknowledgements never reuses a seq. Per stream, with `held` central's highest seq:
   * - a fact marked acknowledged above `held` is sent again (central lost it, or never had it);
   * - the counter moves past `held`, so the next fact recorded gets `held + 1` or later;
   * - `reused` (facts central named in a 409 as new under a seq it holds for another fact) and
   *   every fact after the first of them are renumbered, in their order, to `held + 1`, ….
   *   Only unacknowledged facts move; a fact's id, kind and payload never change.
   * Facts still unacknowledged at or below `held` stay as they are and are resent: central
   * answers them as duplicates when it holds them, or names them `reused`.
   */
  async function reconcile(
    tenantId: string,
    reused: string[] = [],
  ): Promise<{ renumbered: number; held: Record<string, number> }> {
    const response = await call('/api/site-sync/acknowledged');
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok)
      throw new SiteSyncError(`acknowledged: central answered ${response.status}`, response.status);
    const parsed = SiteSyncAcknowledgedSchema.safeParse(body);
    if (!parsed.success)
      throw new SiteSyncError('acknowledged: the answer does not match the contract');
    const held = parsed.data.acknowledged;
    const renumbered = await database.withTenant(tenantId, async (tx) => {
      const own = await tx.execute<{ stream: string }>(
        sql`select distinct stream from site_outbox`,
      );
      const streams = new Set([...Object.keys(held), ...own.rows.map((row) => row.stream)]);
      let moved = 0;
      for (const stream of streams) {
        const upTo = held[stream] ?? 0;
        // The counter's row first: no fact of this stream is recorded while it moves.
        await tx.execute(sql`
          insert into site_outbox_streams (tenant_id, stream, last_seq)
          values (${tenantId}, ${stream}, ${upTo})
          on conflict (tenant_id, stream)
          do update set last_seq = greatest(site_outbox_streams.last_seq, ${upTo})`);
        await tx.execute(sql`update site_outbox set acknowledged_at = null
          where stream = ${stream} and seq > ${upTo} and acknowledged_at is not null`);
        const first = await tx.execute<{ seq: number | null }>(sql`
          select min(seq) as seq from site_outbox where stream = ${stream}
            and acknowledged_at is null and id = any(${sql.param(reused)}::uuid[])`);
        const from = first.rows[0]?.seq;
        if (from === null || from === undefined) continue;
        // Two steps through negative seqs: the (stream, seq) index is never violated midway.
        await tx.execute(sql`update site_outbox set seq = -seq
          where stream = ${stream} and seq >= ${from}`);
        const changed = await tx.execute(sql`
          update site_outbox o set seq = ${upTo} + ranked.n
          from (select id, row_number() over (order by -seq) as n
                from site_outbox where stream = ${stream} and seq < 0) ranked
          where o.stream = ${stream} and o.id = ranked.id`);
        moved += changed.rowCount ?? 0;
        await tx.execute(sql`update site_outbox_streams set last_seq = greatest(last_seq,
            (select coalesce(max(seq), 0) from site_outbox where stream = ${stream}))
          where tenant_id = ${tenantId} and stream = ${stream}`);
      }
      return moved;
    });
    reconciled = true;
    return { renumbered, held };
  }

  /**
   * Sends up to one batch of unacknowledged facts; returns how many were sent (0: nothing waits).
   * The first push after start reconciles the streams with central (`reconcile`). 409 means
   * central's order check refused the batch (a gap, or a seq it holds for another fact): the
   * node reconciles and sends again; central applies a resent fact once (its id is its key).
   * Only the facts of a batch are marked acknowledged, never others by their seq alone.
   */
  async function push(): Promise<{ sent: number; acknowledged: number }> {
    const state = await readNodeState(database.db);
    if (!state) return { sent: 0, acknowledged: 0 };
    const tenantId = state.tenant_id;
    try {
      if (!reconciled) await reconcile(tenantId);
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
      // A batch stays under `batchBytes` (captures carry their objects), but always holds the
      // first fact: the rest follow in the next batch, in order. An entry larger than that on its
      // own sends its objects first (`liftObjects`), so no fact outgrows central's body limit.
      let bytes = 0;
      const events: SiteSyncEvent[] = [];
      for (const row of pending) {
        let payload: Record<string, unknown>;
        try {
          payload = await withObjects(row.kind, row.payload, objects);
        } catch (error) {
          throw new SiteSyncError(`events: ${row.kind} ${row.id}: ${(error as Error).message}`);
        }
        let size = JSON.stringify(payload).length;
        if (row.kind === 'entry' && size > batchBytes) {
          payload = await liftObjects(payload);
          size = JSON.stringify(payload).length;
        }
        bytes += size;
        if (events.length > 0 && bytes > batchBytes) break;
        events.push({
          id: row.id,
          gateId: row.gate_id,
          seq: row.seq,
          kind: row.kind,
          siteRecordedAt: new Date(row.site_recorded_at).toISOString(),
          payload,
        });
      }
      const response = await call('/api/site-sync/events', {
        method: 'POST',
        body: JSON.stringify({ events }),
      });
      const body: unknown = await response.json().catch(() => null);
      if (response.status === 409) {
        reconciled = false;
        await reconcile(tenantId, findReused(body));
        throw new SiteSyncError(
          'events: central refused the order of a stream (a gap or a reused seq); resending',
          409,
        );
      }
      if (!response.ok)
        throw new SiteSyncError(`events: central answered ${response.status}`, response.status);
      const ack = SiteSyncAckSchema.safeParse(body);
      if (!ack.success) throw new SiteSyncError('events: the answer does not match the contract');
      const now = clock.now().toISOString();
      let acknowledged = 0;
      const sentIds = events.map((event) => event.id);
      // A fact central names a duplicate is held there, whatever seq it holds it under (a node
      // restored twice around a renumbering sends it under another one): acknowledged.
      const duplicates = ack.data.duplicates.filter((id) => sentIds.includes(id));
      await database.withTenant(tenantId, async (tx) => {
        if (duplicates.length > 0) {
          const marked =
            await tx.execute(sql`update site_outbox set acknowledged_at = ${now}::timestamptz
            where acknowledged_at is null and id = any(${sql.param(duplicates)}::uuid[])`);
          acknowledged += marked.rowCount ?? 0;
        }
        for (const [stream, seq] of Object.entries(ack.data.acknowledged)) {
          const marked =
            await tx.execute(sql`update site_outbox set acknowledged_at = ${now}::timestamptz
            where stream = ${stream} and seq <= ${seq} and acknowledged_at is null
              and id = any(${sql.param(sentIds)}::uuid[])`);
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

  return { pull, push, syncKeys, reconcile };
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
 * The facts a 409's body names as new under a seq central holds for another fact: the error
 * format's `issues` as `{ path: "reused.<stream>", message: "<id>" }` (central's site-sync routes).
 */
function findReused(body: unknown): string[] {
  const issues = (body as { error?: { issues?: unknown } } | null)?.error?.issues;
  if (!Array.isArray(issues)) return [];
  const ids: string[] = [];
  for (const issue of issues as { path?: unknown; message?: unknown }[]) {
    if (typeof issue.path !== 'string' || typeof issue.message !== 'string') continue;
    if (issue.path.startsWith(SITE_SYNC_REUSED_ISSUE_PREFIX) && UUID.test(issue.message))
      ids.push(issue.message);
  }
  return ids;
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type SiteNodeSync = ReturnType<typeof createSiteNodeSync>;
