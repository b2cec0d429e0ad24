import { sql } from 'drizzle-orm';

import type { SealedTable } from '@/modules/keys';
import type { Database } from '@/platform/db';

import { type AuditSealer, sealStoredDetails } from './audit-details';

/**
 * Issue 26: audit rows written before the tenant's audit key existed keep personal values in plain
 * text in their details. keys.seal-stored-data walks them with the sealed tables (the lookup and
 * the walk's condition are the migration's audit_details_unsealed(), over a partial index) and
 * seals those values under the audit key; the append-only trigger accepts exactly that change.
 * The audit key survives data-key rotations, so a rotation has nothing to re-seal here.
 */
export function auditSealedTable(
  database: Pick<Database, 'withTenant' | 'db'>,
  sealer: AuditSealer,
): SealedTable {
  return {
    name: 'audit_events',
    unsealedTenants: async (limit) =>
      (
        await database.db.execute<{ tenant_id: string }>(
          sql`select tenant_id from audit_events_unsealed_tenants(${limit}::int)`,
        )
      ).rows.map((row) => row.tenant_id),
    async sealStored(tenantId, batch) {
      let after: string | null = null;
      let total = 0;
      for (;;) {
        const rows = await database.withTenant(tenantId, async (tx) => {
          const found = (
            await tx.execute<{ id: string; details: Record<string, unknown> }>(
              sql`select id::text as id, details from audit_events
                  where tenant_id = ${tenantId}::uuid and audit_details_unsealed(details, false)
                    ${after === null ? sql`` : sql`and id > ${after}::uuid`}
                  order by id limit ${batch}::int`,
            )
          ).rows;
          for (const row of found) {
            const sealed = await sealStoredDetails(sealer, tenantId, row.details);
            const written = JSON.stringify(sealed);
            // The trigger refuses an UPDATE that changes nothing; the lookup and the walk agree,
            // so this only guards against a row they ever disagree on.
            if (written === JSON.stringify(row.details)) continue;
            await tx.execute(
              sql`update audit_events set details = ${written}::jsonb
                  where tenant_id = ${tenantId}::uuid and id = ${row.id}::uuid`,
            );
            total++;
          }
          return found;
        });
        if (rows.length < batch) return total;
        after = rows[rows.length - 1]!.id;
      }
    },
    resealOlder: async () => 0,
    // Sealed under the audit key, never under a data key: nothing here holds up a data key's erasure.
    countOlder: async () => 0,
  };
}
