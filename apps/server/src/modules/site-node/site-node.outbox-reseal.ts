import { sql } from 'drizzle-orm';

import type { SealedTable } from '@/modules/keys';
import {
  type PayloadKeyring as OutboxKeys,
  type PayloadKeys as Keys,
  resealPayload,
} from '@/modules/site-sync';
import type { Database, DbExecutor } from '@/platform/db';

export { resealPayload };

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
