import { sql } from 'drizzle-orm';

import { storedCapturePayload, storedEntryPayload } from '@/modules/site-sync';
import type { Database } from '@/platform/db';

import type { StoredObjects } from './site-facts';

/** Set on a fact whose objects' bytes were pruned from its payload (their digests kept). */
export const OBJECTS_PRUNED_AT = 'objects_pruned_at';

const BATCH = 100;

/**
 * Issue 28 (ADR 0009, "Outbox retention"): a capture's or an entry's objects (sealed, base64)
 * stay in its fact's payload only until central has acknowledged the fact and `retentionDays`
 * have passed since. Then the bytes are replaced by their SHA-256 and length, as central stores
 * the fact, and `objects_pruned_at` is set: the fact's row, kind, seq and every other member
 * stay. The objects themselves are still in the node's storage, so a fact sent again (a central
 * restored from a backup asks for it) carries them again (`withObjects`). Returns the facts pruned.
 */
export async function pruneOutboxObjects(
  database: Pick<Database, 'db' | 'withTenant'>,
  { now, retentionDays }: { now: Date; retentionDays: number },
): Promise<number> {
  const state = (
    await database.db.execute<{ tenant_id: string }>(
      sql`select tenant_id from site_node_state limit 1`,
    )
  ).rows[0];
  if (!state) return 0;
  const before = new Date(now.getTime() - retentionDays * 86_400_000).toISOString();
  let pruned = 0;
  for (;;) {
    const done = await database.withTenant(state.tenant_id, async (tx) => {
      const rows = await tx.execute<{
        id: string;
        kind: string;
        payload: Record<string, unknown>;
      }>(sql`
        select id, kind, payload from site_outbox
        where acknowledged_at is not null and acknowledged_at < ${before}::timestamptz
          and not (payload ? ${OBJECTS_PRUNED_AT})
          and ((kind = 'capture' and payload ? 'object')
            or (kind = 'entry' and (payload ? 'objects' or payload ? 'documents')))
        order by acknowledged_at limit ${BATCH} for update skip locked`);
      for (const row of rows.rows) {
        const digested =
          row.kind === 'capture'
            ? storedCapturePayload(row.payload, Buffer.from(String(row.payload.object), 'base64'))
            : storedEntryPayload(row.payload);
        await tx.execute(sql`update site_outbox
          set payload = ${JSON.stringify({ ...digested, [OBJECTS_PRUNED_AT]: now.toISOString() })}::jsonb
          where id = ${row.id}::uuid`);
      }
      return rows.rows.length;
    });
    pruned += done;
    if (done < BATCH) return pruned;
  }
}

/**
 * A pruned fact as it is sent again: its objects read back from the node's storage (sealed as
 * stored). An object the node no longer holds (an uncited capture is purged after a day) is
 * listed in `objects_missing`, for an entry as for a capture (whose `object` is then absent):
 * central keeps the fact, flags it and says the image is gone. Never a failure: one fact whose
 * image is gone must not stop every stream of the batch behind it.
 */
export async function withObjects(
  kind: string,
  payload: Record<string, unknown>,
  objects: StoredObjects | undefined,
): Promise<Record<string, unknown>> {
  if (!(OBJECTS_PRUNED_AT in payload)) return payload;
  const { [OBJECTS_PRUNED_AT]: _pruned, ...rest } = payload;
  const read = async (key: unknown) =>
    typeof key === 'string' ? (await objects?.get(key))?.toString('base64') : undefined;
  if (kind === 'capture') {
    const { object_sha256: _sha, object_bytes: _bytes, ...row } = rest;
    const object = await read(row.image_key);
    if (object === undefined) return { ...row, objects_missing: [row.image_key] };
    return { ...row, object };
  }
  const missing = new Set(Array.isArray(rest.objects_missing) ? rest.objects_missing : []);
  const found: Record<string, string> = {};
  for (const key of Object.keys(rest.objects ?? {})) {
    const object = await read(key);
    if (object === undefined) missing.add(key);
    else found[key] = object;
  }
  const documents = Array.isArray(rest.documents)
    ? await Promise.all(
        (rest.documents as { row: { image_key?: unknown }; object?: unknown }[]).map(
          async ({ object: digest, ...document }) => {
            if (digest === undefined) return document;
            const object = await read(document.row.image_key);
            if (object === undefined) missing.add(String(document.row.image_key));
            return object === undefined ? document : { ...document, object };
          },
        ),
      )
    : undefined;
  return {
    ...rest,
    ...(rest.objects !== undefined ? { objects: found } : {}),
    ...(documents ? { documents } : {}),
    ...(missing.size > 0 ? { objects_missing: [...missing] } : {}),
  };
}
