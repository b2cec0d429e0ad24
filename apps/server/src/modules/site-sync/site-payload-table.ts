import { type SQL, sql } from 'drizzle-orm';

import type { SealedTable } from '@/modules/keys';
import type { Database, DbExecutor } from '@/platform/db';

import { type PayloadKeyring, type PayloadKeys, resealPayload } from './site-payload-reseal';

/**
 * Issue 28: a table of stored fact payloads (a node's outbox, central's stored facts) as a sealed
 * table of the keys service: after a rotation its payloads' sealed values are opened with the key
 * they name and sealed again with the active one (`resealPayload`); a fact's id, stream, seq and
 * kind never change. `walked` picks the rows walked; `stillWalked` is re-checked by the update
 * (a row that left the walk in between stays as it was).
 */
export function payloadSealedTable(
  database: Pick<Database, 'withTenant'>,
  keyring: PayloadKeyring,
  {
    table,
    walked,
    stillWalked = sql``,
  }: { table: 'site_outbox' | 'site_sync_events'; walked: SQL; stillWalked?: SQL },
): SealedTable {
  type Row = { id: string; kind: string; payload: Record<string, unknown> };
  const name = sql.identifier(table);

  /**
   * Walks the tenant's walked rows in id order; `visit` may re-write each (rows locked then).
   * Each batch in its own tenant transaction, or all of them in `within` when given.
   */
  async function walk(
    tenantId: string,
    version: number,
    batch: number,
    visit: (tx: DbExecutor, row: Row, keys: PayloadKeys) => Promise<number>,
    { lock, within }: { lock: boolean; within?: DbExecutor },
  ) {
    const { active, lookup } = await keyring.forTenant(tenantId);
    const keys: PayloadKeys = { tenantId, version, active, lookup };
    let after: string | null = null;
    let total = 0;
    for (;;) {
      const page = async (tx: DbExecutor) => {
        const found = (
          await tx.execute<Row>(
            sql`select id::text as id, kind, payload from ${name}
                where tenant_id = ${tenantId}::uuid and ${walked}
                  ${after === null ? sql`` : sql`and id > ${after}::uuid`}
                order by id limit ${batch}::int ${lock ? sql`for update` : sql``}`,
          )
        ).rows;
        for (const row of found) total += await visit(tx, row, keys);
        return found;
      };
      const rows = within ? await page(within) : await database.withTenant(tenantId, page);
      if (rows.length < batch) return total;
      after = rows[rows.length - 1]!.id;
    }
  }

  return {
    name: table,
    unsealedTenants: async () => [],
    sealStored: async () => 0,
    resealOlder: (tenantId, version, batch) =>
      walk(
        tenantId,
        version,
        batch,
        async (tx, row, keys) => {
          if (keys.active.version !== version)
            throw new Error(`${table}: data key v${version} is not the active key yet`);
          const { payload, changed } = resealPayload(keys, row.kind, row.payload);
          if (changed === 0) return 0;
          await tx.execute(sql`update ${name} set payload = ${JSON.stringify(payload)}::jsonb
            where tenant_id = ${tenantId}::uuid and id = ${row.id}::uuid ${stillWalked}`);
          return 1;
        },
        { lock: true },
      ),
    countOlder: (tx, tenantId, version) =>
      walk(
        tenantId,
        version,
        500,
        async (_tx, row, keys) => (resealPayload(keys, row.kind, row.payload).changed > 0 ? 1 : 0),
        { lock: false, within: tx },
      ),
  };
}
