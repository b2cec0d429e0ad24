import { sql } from 'drizzle-orm';

import type { DbExecutor } from '@/platform/db';

/**
 * Issue 28 (ADR 0009): an entry a site node recorded, stored centrally as the fact it is. The row
 * comes as the site's own entry_logs row (snake_case columns, as to_jsonb gives them) already
 * placed by the site-sync module (tenant, the site's id, its time, provenance warnings); columns
 * it lacks take their defaults. Once per id: a second insert of the same id changes nothing.
 */
export async function insertSiteEntry(
  tx: DbExecutor,
  row: Record<string, unknown>,
): Promise<boolean> {
  const withDefaults = {
    category: 'visitor',
    permit_image_keys: [],
    warnings: [],
    trailer_plates: [],
    trailer_licence_disc_ids: [],
    ...row,
  };
  const result = await tx.execute<{ id: string }>(
    sql`insert into entry_logs select * from jsonb_populate_record(null::entry_logs, ${JSON.stringify(withDefaults)}::jsonb) on conflict do nothing returning id`,
  );
  return result.rows.length === 1;
}
