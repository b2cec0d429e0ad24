import { sql } from 'drizzle-orm';

import { type SiteSyncEventKind, siteSyncStreamKey } from '@boomgate/contracts/site-sync';

import { isCaptureKey } from '@/modules/images';
import { ENTRY_DOCUMENT_COLUMNS, entryImageKeys } from '@/modules/site-sync';
import type { DbExecutor } from '@/platform/db';
import { newUuidV7 } from '@/platform/ids';

/**
 * Issue 28 (ADR 0009): a fact recorded at a site node. Its payload is the site's own row as
 * stored (`to_jsonb`: snake_case columns, as the down-sync's `row`), read in the fact's own
 * transaction so it is exactly what commits, in the shape central reads (site-sync/site-facts.ts
 * on central's side):
 *
 *   entry: the entry_logs row, plus `site_sync_version` (the down-sync version the node had
 *          applied when it decided); the fact's id IS the entry's id (a UUIDv7 made here)
 *   exit:  the visits row once closed (a vehicle's visit: central closes the visit of its entry)
 *   entry also carries `face_comparison_id`: the comparison it claimed (central links the two)
 *   capture: the captures row, plus `object`: the stored object's bytes as they are in storage
 *          (sealed with the tenant's data key, which central shares), base64
 *   face_comparison, correction, audit: the face_comparisons, reading_corrections and
 *          audit_events row (sealed values stay sealed)
 * The fact's id is the row's own id for every kind but exit (a visit closes once, but its id
 * is the entry's), so central applies each row exactly once by its id.
 */
export type SiteFact = {
  tenantId: string;
  /** The gate it happened at; null: the site's own stream. */
  gateId: string | null;
  kind: SiteSyncEventKind;
  /** The site's clock when the fact was recorded. */
  recordedAt: Date;
} & (
  | { entryLogId: string; visitId?: undefined; rowId?: undefined }
  | { entryLogId?: undefined; visitId: string; rowId?: undefined }
  /** capture, face_comparison, correction, audit: the row's id (its table is the kind's). */
  | { entryLogId?: undefined; visitId?: undefined; rowId: string }
);

/** What modules call with a fact in their transaction; absent unless SITE_NODE=1. */
export type SiteFacts = { record(tx: DbExecutor, fact: SiteFact): Promise<{ id: string }> };

/** The site's table of each kind recorded by its row id. */
const ROW_TABLES = {
  capture: 'captures',
  face_comparison: 'face_comparisons',
  correction: 'reading_corrections',
  audit: 'audit_events',
} as const;

/** The stored objects as they are (sealed), to carry a capture's object to central. */
export type StoredObjects = { get(key: string): Promise<Buffer | undefined> };

async function rowJson(tx: DbExecutor, query: ReturnType<typeof sql>) {
  const result = await tx.execute<{ row: Record<string, unknown> }>(query);
  return result.rows[0]?.row ?? null;
}

/**
 * What an entry carries beside its row, so central holds every image and document it names:
 * `objects`, the stored objects (sealed, base64) of its image fields that are not captures (a
 * capture travels as its own fact); `documents`, the rows of the documents it cites with their
 * images; `objects_missing`, keys the site could not read (said, never hidden; the entry is
 * never refused at the gate for it).
 */
async function entryAttachments(
  tx: DbExecutor,
  tenantId: string,
  entry: Record<string, unknown>,
  objects: StoredObjects | undefined,
) {
  const found: Record<string, string> = {};
  const missing: string[] = [];
  const read = async (key: unknown) => {
    if (typeof key !== 'string' || key.length === 0 || isCaptureKey(key)) return undefined;
    const bytes = await objects?.get(key);
    if (!bytes) missing.push(key);
    return bytes?.toString('base64');
  };
  for (const key of entryImageKeys(entry)) {
    const base64 = await read(key);
    if (base64 !== undefined) found[key] = base64;
  }
  const documents: { table: string; row: Record<string, unknown>; object?: string }[] = [];
  const cite = async (table: string, ids: unknown[]) => {
    const wanted = ids.filter((id): id is string => typeof id === 'string');
    if (wanted.length === 0) return;
    const rows = await tx.execute<{ row: Record<string, unknown> }>(
      sql`select to_jsonb(d) as row from ${sql.identifier(table)} d
          where d.tenant_id = ${tenantId} and d.id = any(${sql.param(wanted)}::uuid[])`,
    );
    for (const { row } of rows.rows) {
      const object = await read(row.image_key);
      documents.push({ table, row, ...(object !== undefined ? { object } : {}) });
    }
  };
  for (const [column, table] of ENTRY_DOCUMENT_COLUMNS) await cite(table, [entry[column]]);
  const trailers = entry.trailer_licence_disc_ids;
  await cite('licence_discs', Array.isArray(trailers) ? trailers : []);
  return {
    objects: found,
    documents,
    ...(missing.length > 0 ? { objects_missing: missing } : {}),
  };
}

/**
 * Writes the fact into `site_outbox` in the caller's transaction (so it commits or rolls back
 * with the entry or exit), with a UUIDv7 id and the next seq of its gate's stream. Taking the seq
 * locks the stream's counter row until the transaction ends, so a gate's facts commit in seq
 * order and a rolled-back fact leaves no gap.
 */
export async function recordSiteFact(
  tx: DbExecutor,
  fact: SiteFact,
  objects?: StoredObjects,
): Promise<{ id: string }> {
  const { tenantId } = fact;
  let payload: Record<string, unknown> | null;
  let id: string;
  if (fact.entryLogId !== undefined) {
    const entry = await rowJson(
      tx,
      sql`select to_jsonb(e) || jsonb_build_object('site_sync_version',
            (select coalesce(max(since_version), 0) from site_node_state),
            'face_comparison_id', (select f.id from face_comparisons f
              where f.tenant_id = e.tenant_id and f.used_by_entry_id = e.id)) as row
          from entry_logs e where e.tenant_id = ${tenantId} and e.id = ${fact.entryLogId}`,
    );
    if (entry === null) throw new Error('recordSiteFact: the entry is not in this transaction');
    payload = { ...entry, ...(await entryAttachments(tx, tenantId, entry, objects)) };
    id = fact.entryLogId;
  } else if (fact.rowId !== undefined) {
    const kind = fact.kind as keyof typeof ROW_TABLES;
    const table = ROW_TABLES[kind];
    if (!table) throw new Error(`recordSiteFact: no table for a ${fact.kind} fact`);
    payload = await rowJson(
      tx,
      sql`select to_jsonb(r) as row from ${sql.identifier(table)} r
          where r.tenant_id = ${tenantId} and r.id = ${fact.rowId}`,
    );
    if (payload === null) throw new Error(`recordSiteFact: the ${kind} is not in this transaction`);
    if (kind === 'capture') {
      const key = String(payload.image_key);
      const bytes = await objects?.get(key);
      if (!bytes) throw new Error(`recordSiteFact: the capture's object ${key} is not stored`);
      payload = { ...payload, object: bytes.toString('base64') };
    }
    id = fact.rowId;
  } else {
    payload = await rowJson(
      tx,
      sql`select to_jsonb(v) as row from visits v
          where v.tenant_id = ${tenantId} and v.id = ${fact.visitId}`,
    );
    if (payload === null) throw new Error('recordSiteFact: the visit is not in this transaction');
    id = newUuidV7(fact.recordedAt.getTime());
  }
  const stream = siteSyncStreamKey(fact.gateId);
  if (fact.gateId !== null) {
    // Streams are locked in one order, the site's first: a transaction that records a gate's fact
    // and an audit event (the site's stream) in either order never deadlocks with another.
    await tx.execute(sql`
      insert into site_outbox_streams (tenant_id, stream, last_seq) values (${tenantId}, 'site', 0)
      on conflict (tenant_id, stream) do update set last_seq = site_outbox_streams.last_seq`);
  }
  const next = await tx.execute<{ seq: number }>(sql`
    insert into site_outbox_streams (tenant_id, stream, last_seq)
    values (${tenantId}, ${stream}, 1)
    on conflict (tenant_id, stream) do update set last_seq = site_outbox_streams.last_seq + 1
    returning last_seq as seq`);
  const seq = next.rows[0]?.seq;
  if (seq === undefined) throw new Error('recordSiteFact: no seq');
  await tx.execute(sql`
    insert into site_outbox (tenant_id, id, gate_id, stream, seq, kind, site_recorded_at, payload)
    values (${tenantId}, ${id}, ${fact.gateId}, ${stream}, ${seq}, ${fact.kind},
            ${fact.recordedAt.toISOString()}::timestamptz, ${JSON.stringify(payload)}::jsonb)`);
  return { id };
}

/** The node's facts; `objects` is the storage as it is (not the sealing wrapper). */
export const createSiteFacts = (objects: StoredObjects): SiteFacts => ({
  record: (tx, fact) => recordSiteFact(tx, fact, objects),
});
