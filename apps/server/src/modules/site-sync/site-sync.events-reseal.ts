import { sql } from 'drizzle-orm';

import type { SealedTable } from '@/modules/keys';
import type { Database, DbExecutor } from '@/platform/db';

import { type PayloadKeyring, type PayloadKeys, resealPayload } from './site-payload-reseal';

/** A stored payload holding at least one sealed value (`sv1.…`), as its JSON text shows it. */
const HOLDS_SEALED = sql.raw(`payload::text like '%"sv1.%'`);

/**
 * Issue 28 (ADR 0009, "Central's stored facts re-sealed"): central's copies of the facts sites
 * sent (`site_sync_events`) as a sealed table of the keys service, so central's re-seal job walks
 * them with its other tables after a rotation: the sealed values of each stored payload (the
 * row's and its documents' rows') are opened with the key they name and sealed again with the
 * active one, under the same associated data. Objects are digests there (their bytes are in
 * storage, which the job walks on its own) and audit facts are under the audit key: both stay.
 * Only `payload` changes (the stored fact's id, site, stream, seq and kind never do), and the
 * payload hash central compares a resent fact by leaves ciphertexts out (`sitePayloadHash`), so
 * a fact sent again is still a duplicate. A value under a key no longer held is left as it is.
 */
export function siteEventsSealedTable(
  database: Pick<Database, 'withTenant'>,
  keyring: PayloadKeyring,
): SealedTable {
  type Row = { id: string; kind: string; payload: Record<string, unknown> };

  /** Walks the tenant's stored facts holding sealed values in id order; `visit` may re-write each. */
  async function walk(
    tenantId: string,
    version: number,
    batch: number,
    visit: (tx: DbExecutor, row: Row, keys: PayloadKeys) => Promise<number>,
  ) {
    const { active, lookup } = await keyring.forTenant(tenantId);
    const keys: PayloadKeys = { tenantId, version, active, lookup };
    let after: string | null = null;
    let total = 0;
    for (;;) {
      const rows = await database.withTenant(tenantId, async (tx) => {
        const found = (
          await tx.execute<Row>(
            sql`select id::text as id, kind, payload from site_sync_events
                where tenant_id = ${tenantId}::uuid and kind <> 'audit' and ${HOLDS_SEALED}
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
    name: 'site_sync_events',
    unsealedTenants: async () => [],
    sealStored: async () => 0,
    resealOlder: (tenantId, version, batch) =>
      walk(tenantId, version, batch, async (tx, row, keys) => {
        if (keys.active.version !== version)
          throw new Error(`site_sync_events: data key v${version} is not the active key yet`);
        const { payload, changed } = resealPayload(keys, row.kind, row.payload);
        if (changed === 0) return 0;
        await tx.execute(sql`update site_sync_events set payload = ${JSON.stringify(payload)}::jsonb
          where tenant_id = ${tenantId}::uuid and id = ${row.id}::uuid`);
        return 1;
      }),
    countOlder: (tenantId, version) =>
      walk(tenantId, version, 500, async (_tx, row, keys) =>
        resealPayload(keys, row.kind, row.payload).changed > 0 ? 1 : 0,
      ),
  };
}
