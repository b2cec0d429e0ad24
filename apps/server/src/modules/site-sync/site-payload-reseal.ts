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

/** What a walk needs of the keyring: the tenant's active data key and the keys that still open. */
export type PayloadKeyring = {
  forTenant(tenantId: string): Promise<{ active: DataKey; lookup: KeyLookup }>;
};

/** `version`: the data key version values should be under (the active one, as the walk is told). */
export type PayloadKeys = { tenantId: string; version: number; active: DataKey; lookup: KeyLookup };

/**
 * A value or an object is "older" when it is sealed with a data key other than the active one
 * that the node still holds. One sealed with a key already erased cannot be opened by anybody
 * any more: the walk leaves it as it is, and it does not hold up erasing other keys.
 */
const isOlder = (keys: PayloadKeys, version: number | undefined) =>
  version !== undefined && version !== keys.version && keys.lookup(version) !== undefined;

/** A sealed value of `table.column`, anywhere inside the column's JSON (readings, read values). */
function resealDeep(
  keys: PayloadKeys,
  column: string,
  value: unknown,
  changed: { n: number },
): unknown {
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
  keys: PayloadKeys,
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
function resealObject(keys: PayloadKeys, key: unknown, base64: unknown, changed: { n: number }) {
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
 * it (the node's outbox) or as central stores it (`site_sync_events`, objects as digests, which
 * are left as they are), with every sealed value and object sealed by an older data key still
 * held sealed again with the active one. Everything else (members, key order of the row, ids) stays.
 * An audit fact is left as it is: its details are sealed under the audit key, which a data key
 * rotation does not touch. Returns the payload and how many values and objects changed.
 */
export function resealPayload(
  keys: PayloadKeys,
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
