import { sql } from 'drizzle-orm';

import type { SealedTable } from '@/modules/keys';
import type { Database, DbExecutor } from '@/platform/db';
import {
  type DataKey,
  type KeyLookup,
  columnContext,
  isSealedObject,
  isSealedValue,
  objectContext,
  openObject,
  openValue,
  readObjectHeader,
  sealObject,
  sealValue,
  sealedValueVersion,
} from '@/platform/sealing';

/** The site's table of each fact kind whose payload is that table's row (audit: see below). */
const KIND_TABLES: Record<string, string> = {
  entry: 'entry_logs',
  exit: 'visits',
  capture: 'captures',
  face_comparison: 'face_comparisons',
  correction: 'reading_corrections',
};

/** Members an entry's payload carries beside its row (not columns of entry_logs). */
const ENTRY_ATTACHMENTS = new Set(['objects', 'documents', 'objects_missing', 'objects_uploaded']);

/** What the walk needs of the keyring: the tenant's active data key and the keys that still open. */
export type OutboxKeys = {
  forTenant(tenantId: string): Promise<{ active: DataKey; lookup: KeyLookup }>;
};

/** `version`: the data key version values should be under (the active one, as the walk is told). */
type Keys = { tenantId: string; version: number; active: DataKey; lookup: KeyLookup };

/**
 * A value or an object is "older" when it is sealed with a data key other than the active one
 * that the node still holds. One sealed with a key already erased cannot be opened by anybody
 * any more: the walk leaves it as it is, and it does not hold up erasing other keys.
 */
const isOlder = (keys: Keys, version: number | undefined) =>
  version !== undefined && version !== keys.version && keys.lookup(version) !== undefined;

/** A sealed value of `table.column`, anywhere inside the column's JSON (readings, read values). */
function resealDeep(keys: Keys, column: string, value: unknown, changed: { n: number }): unknown {
  if (typeof value === 'string') {
    if (!isSealedValue(value) || !isOlder(keys, sealedValueVersion(value))) return value;
    const context = columnContext(keys.tenantId, column);
    changed.n++;
    return sealValue(keys.active, openValue(keys.lookup, value, context), context);
  }
  if (Array.isArray(value)) return value.map((item) => resealDeep(keys, column, item, changed));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, resealDeep(keys, column, item, changed)]),
    );
  return value;
}

/** A row as `to_jsonb` gave it: each column's sealed values are bound to `table.column`. */
function resealRow(
  keys: Keys,
  table: string,
  row: Record<string, unknown>,
  changed: { n: number },
  skip: ReadonlySet<string> = new Set(),
) {
  return Object.fromEntries(
    Object.entries(row).map(([column, value]) => [
      column,
      skip.has(column) ? value : resealDeep(keys, `${table}.${column}`, value, changed),
    ]),
  );
}

/** A stored object's bytes as the payload carries them (base64, sealed), bound to its key. */
function resealObject(keys: Keys, key: unknown, base64: unknown, changed: { n: number }) {
  if (typeof base64 !== 'string' || typeof key !== 'string') return base64; // pruned: a digest
  const bytes = Buffer.from(base64, 'base64');
  if (!isSealedObject(bytes) || !isOlder(keys, readObjectHeader(bytes)?.version)) return base64;
  const context = objectContext(keys.tenantId, key);
  changed.n++;
  return sealObject(keys.active, openObject(keys.lookup, bytes, context), context).toString(
    'base64',
  );
}

/**
 * Issue 28 (ADR 0009, "Outbox payloads re-sealed"): a fact's payload as `recordSiteFact` wrote
 * it, with every sealed value and object sealed by an older data key the node still holds sealed
 * again with the active one. Everything else (members, key order of the row, ids) stays.
 * An audit fact is left as it is: its details are sealed under the audit key, which a data key
 * rotation does not touch. Returns the payload and how many values and objects changed.
 */
export function resealPayload(
  keys: Keys,
  kind: string,
  payload: Record<string, unknown>,
): { payload: Record<string, unknown>; changed: number } {
  const changed = { n: 0 };
  const table = KIND_TABLES[kind];
  if (!table) return { payload, changed: 0 };
  const next: Record<string, unknown> = resealRow(
    keys,
    table,
    payload,
    changed,
    kind === 'entry' ? ENTRY_ATTACHMENTS : new Set(['object']),
  );
  if (kind === 'capture' && 'object' in payload)
    next.object = resealObject(keys, payload.image_key, payload.object, changed);
  if (kind === 'entry') {
    const objects = payload.objects;
    if (objects && typeof objects === 'object' && !Array.isArray(objects))
      next.objects = Object.fromEntries(
        Object.entries(objects).map(([key, base64]) => [
          key,
          resealObject(keys, key, base64, changed),
        ]),
      );
    if (Array.isArray(payload.documents))
      next.documents = (
        payload.documents as { table: string; row: Record<string, unknown>; object?: unknown }[]
      ).map((document) => ({
        ...document,
        row: resealRow(keys, document.table, document.row, changed),
        ...('object' in document
          ? { object: resealObject(keys, document.row.image_key, document.object, changed) }
          : {}),
      }));
  }
  return { payload: changed.n > 0 ? next : payload, changed: changed.n };
}

/**
 * Issue 28: the node's outbox as a sealed table of the keys service, so keys.reseal-node walks
 * it with the others and checks it before it erases a retired key. Only facts central has not
 * acknowledged are walked: they are the ones still to be sent, and central may have erased the
 * old key by the time they arrive. A fact's id, stream, seq and kind never change; its payload is
 * re-written with the same values sealed again (central compares a resent fact's payload with
 * what it holds ignoring ciphertexts, see site-sync's `sitePayloadHash`). Acknowledged facts
 * stay as recorded. Nothing is sealed for the first time here (sealStored has nothing to do).
 */
export function outboxSealedTable(
  database: Pick<Database, 'withTenant'>,
  keyring: OutboxKeys,
): SealedTable {
  type Row = { id: string; kind: string; payload: Record<string, unknown> };

  /** Walks the tenant's unacknowledged facts in id order; `visit` may re-write each. */
  async function walk(
    tenantId: string,
    version: number,
    batch: number,
    visit: (tx: DbExecutor, row: Row, keys: Keys) => Promise<number>,
  ) {
    const { active, lookup } = await keyring.forTenant(tenantId);
    const keys: Keys = { tenantId, version, active, lookup };
    let after: string | null = null;
    let total = 0;
    for (;;) {
      const rows = await database.withTenant(tenantId, async (tx) => {
        const found = (
          await tx.execute<Row>(
            sql`select id::text as id, kind, payload from site_outbox
                where tenant_id = ${tenantId}::uuid and acknowledged_at is null
                  ${after === null ? sql`` : sql`and id > ${after}::uuid`}
                order by id limit ${batch}::int for update`,
          )
        ).rows;
        for (const row of found) total += await visit(tx, row, keys);
        return found;
      });
      if (rows.length < batch) return total;
      after = rows[rows.length - 1]!.id;
    }
  }

  return {
    name: 'site_outbox',
    unsealedTenants: async () => [],
    sealStored: async () => 0,
    resealOlder: (tenantId, version, batch) =>
      walk(tenantId, version, batch, async (tx, row, keys) => {
        if (keys.active.version !== version)
          throw new Error(`site_outbox: data key v${version} is not the active key yet`);
        const { payload, changed } = resealPayload(keys, row.kind, row.payload);
        if (changed === 0) return 0;
        // Only while still unacknowledged: an acknowledgement in between keeps the fact as sent.
        await tx.execute(sql`update site_outbox set payload = ${JSON.stringify(payload)}::jsonb
          where tenant_id = ${tenantId}::uuid and id = ${row.id}::uuid
            and acknowledged_at is null`);
        return 1;
      }),
    countOlder: (tenantId, version) =>
      walk(tenantId, version, 500, async (_tx, row, keys) =>
        resealPayload(keys, row.kind, row.payload).changed > 0 ? 1 : 0,
      ),
  };
}
