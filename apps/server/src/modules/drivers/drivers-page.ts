import { and, desc, eq, sql } from 'drizzle-orm';

import type { DbExecutor } from '@/platform/db';
import { type PageCursor, toPage } from '@/platform/page-cursor';

import type { DriversRepository } from './drivers.repository';
import { type DriverRow, drivers } from './drivers.table';

/**
 * GET /api/drivers a page at a time (issue 26): newest first, keyset on (created_at, id) over
 * drivers_tenant_created_idx. One row more than the page is read to know whether a next page
 * exists; only the page's sealed ID numbers are opened, never every driver's.
 */
export async function listDriversPage(
  tx: DbExecutor,
  repository: Pick<DriversRepository, 'open'>,
  tenantId: string,
  limit: number,
  after?: PageCursor,
): Promise<{ rows: DriverRow[]; nextCursor: string | null }> {
  const rows = await tx
    .select()
    .from(drivers)
    .where(
      and(
        eq(drivers.tenantId, tenantId),
        after
          ? sql`(${drivers.createdAt}, ${drivers.id}) < (${after.timestamp.toISOString()}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(drivers.createdAt), desc(drivers.id))
    .limit(limit + 1);
  const page = toPage(
    rows.map((row) => ({ row, timestamp: row.createdAt, id: row.id })),
    limit,
  );
  return {
    rows: await Promise.all(page.rows.map(({ row }) => repository.open(row))),
    nextCursor: page.nextCursor,
  };
}
