import { readObjectHeader, sealedValueVersion } from '@/platform/sealing';

/** A base64 object's data key version (undefined: not a sealed object, or a digest). */
function objectVersion(base64: unknown) {
  if (typeof base64 !== 'string') return undefined;
  // The header is the first 20 bytes: 28 characters of base64 hold them whole.
  return readObjectHeader(Buffer.from(base64.slice(0, 28), 'base64'))?.version;
}

function valueVersions(value: unknown, found: Set<number>) {
  if (typeof value === 'string') {
    const version = sealedValueVersion(value);
    if (version !== undefined) found.add(version);
  } else if (Array.isArray(value)) for (const item of value) valueVersions(item, found);
  else if (value !== null && typeof value === 'object')
    for (const item of Object.values(value)) valueVersions(item, found);
}

/**
 * Issue 28 (ADR 0009, "Outbox payloads re-sealed"): the tenant data key versions a site fact's
 * payload was sealed with: its sealed values (anywhere in the row and its documents) and its
 * objects (a capture's `object`, an entry's `objects` and its documents' `object`). An audit
 * fact's values are sealed with the audit key, which has versions of its own: none are named.
 */
export function dataKeyVersionsOf(kind: string, payload: Record<string, unknown>): Set<number> {
  const found = new Set<number>();
  if (kind === 'audit') return found;
  const { object, objects, documents, ...row } = payload;
  valueVersions(row, found);
  const add = (version: number | undefined) => version !== undefined && found.add(version);
  if (kind === 'capture') add(objectVersion(object));
  if (objects && typeof objects === 'object')
    for (const base64 of Object.values(objects)) add(objectVersion(base64));
  if (Array.isArray(documents))
    for (const document of documents as { row?: unknown; object?: unknown }[]) {
      valueVersions(document.row, found);
      add(objectVersion(document.object));
    }
  return found;
}
