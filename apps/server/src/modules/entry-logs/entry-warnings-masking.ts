import { sql } from 'drizzle-orm';

import type { SealedTable } from '@/modules/keys';
import { UNMASKED_WATCHLIST_MESSAGE, maskWatchlistMessage } from '@/modules/watchlist';
import type { Database } from '@/platform/db';

/**
 * Issue 26: a watchlist hit's warning on an entry quoted the watched ID or passport number in
 * full ("Driver ID number 8001015009087 is on the watchlist …"). New warnings quote it masked, as
 * the screens show numbers (watchlist-screening.ts); this walk, run by keys.seal-stored-data with
 * the sealed tables, masks the warnings stored before. Masking does not depend on a key, so a
 * rotation has nothing to do here. The erase-only trigger on entries accepts exactly this change
 * (characters of `warnings` replaced by `*`, nothing else; migration …_masked_entry_warnings_security).
 * The incoming feed keeps the same warnings on its requests (issue 21): the webhooks module
 * registers the same walk over incoming_requests (migration …_masked_feed_warnings_security).
 */
/** A table with a jsonb `warnings` array of `{ message }` objects, keyed by (tenant_id, id). */
export type MaskedWarningsSpec = {
  /** The table (an SQL identifier written by the module, never input). */
  table: string;
  /** The SECURITY DEFINER lookup naming the tenants with a warning still to mask. */
  unmaskedTenants: string;
};

const UNMASKED = sql`exists (select 1 from jsonb_array_elements(
    case when jsonb_typeof(warnings) = 'array' then warnings else '[]'::jsonb end) w
  where w ->> 'message' ~ ${UNMASKED_WATCHLIST_MESSAGE})`;

type Warning = { readonly message?: unknown };

/** The warnings with every quoted number masked; the same array when nothing needed masking. */
export function maskWarnings<W extends Warning>(warnings: readonly W[]): readonly W[] {
  let changed = false;
  const masked = warnings.map((warning) => {
    if (typeof warning?.message !== 'string') return warning;
    const message = maskWatchlistMessage(warning.message);
    if (message === warning.message) return warning;
    changed = true;
    return { ...warning, message };
  });
  return changed ? masked : warnings;
}

/** The masking walk over a table's `warnings`, as keys.seal-stored-data runs it per tenant. */
export function createMaskedWarningsTable(
  database: Pick<Database, 'withTenant' | 'db'>,
  spec: MaskedWarningsSpec,
): SealedTable {
  const table = sql.identifier(spec.table);
  const lookup = sql.identifier(spec.unmaskedTenants);
  return {
    name: `${spec.table}.warnings`,
    unsealedTenants: async (limit) =>
      (
        await database.db.execute<{ tenant_id: string }>(
          sql`select tenant_id from ${lookup}(${limit}::int)`,
        )
      ).rows.map((row) => row.tenant_id),
    async sealStored(tenantId, batch) {
      let after: string | null = null;
      let total = 0;
      for (;;) {
        const rows = await database.withTenant(tenantId, async (tx) => {
          const found = (
            await tx.execute<{ id: string; warnings: Warning[] }>(
              sql`select id::text as id, warnings from ${table}
                  where tenant_id = ${tenantId}::uuid and ${UNMASKED}
                    ${after === null ? sql`` : sql`and id > ${after}::uuid`}
                  order by id limit ${batch}::int`,
            )
          ).rows;
          for (const row of found) {
            const masked = maskWarnings(row.warnings);
            if (masked === row.warnings) continue;
            await tx.execute(
              sql`update ${table} set warnings = ${JSON.stringify(masked)}::jsonb
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
    // Masked, never sealed: nothing here holds up a data key's erasure.
    countOlder: async () => 0,
  };
}

export function maskedWarningsTable(database: Pick<Database, 'withTenant' | 'db'>): SealedTable {
  return createMaskedWarningsTable(database, {
    table: 'entry_logs',
    unmaskedTenants: 'entry_logs_unmasked_warning_tenants',
  });
}
