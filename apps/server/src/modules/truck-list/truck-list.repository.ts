import { desc, eq, sql } from 'drizzle-orm';

import { TRUCK_ENTRY_LINK_WINDOW_MS } from '@boomgate/contracts/truck-list';

import type { DbExecutor } from '@/platform/db';
import { type PageShape, type PageValue, compiledPages, pageWhere } from '@/platform/keyset-page';
import type { PageCursor } from '@/platform/page-cursor';

import { truckListDailyCounts, truckListEntries } from './truck-list.table';

/**
 * Newest first, keyset-paginated on (timestamp, id); only the columns the list shows. The SQL as
 * it is sent (`npm run bench:scale-plans` explains it; the list sends it compiled).
 */
function truckListStatement(tx: DbExecutor, shape: PageShape, value: PageValue) {
  return tx
    .select({
      id: truckListEntries.id,
      timestamp: truckListEntries.timestamp,
      truckNumber: truckListEntries.truckNumber,
      plateNumber: truckListEntries.plateNumber,
      category: truckListEntries.category,
      transportName: truckListEntries.transportName,
      // Issue 15: the entry the read led to, so the list opens its detail, and (issue 21)
      // the combination that entry recorded. A camera read and a gate entry share no key:
      // the camera sees the truck arrive and the guard records the entry after, so it is the
      // plate's first entry at or after the read within the window (the tenant's plate
      // index, in order: no sort per listed read). One probe per listed read for both
      // (issue 27: two subqueries walked the index twice, 600 buffers a page). By table
      // name, qualified: modules read each other's tables only in SQL, and drizzle leaves
      // the outer columns unqualified, which inside the subquery would mean the entry's.
      entryLink: sql<{ id: string; trailerPlates: string[] | null } | null>`(
        select json_build_object('id', e.id, 'trailerPlates', e.trailer_plates)
        from entry_logs e
        where e.tenant_id = truck_list_entries.tenant_id
          and e."timestamp" >= truck_list_entries."timestamp"
          and e."timestamp" <= truck_list_entries."timestamp" + ${`${TRUCK_ENTRY_LINK_WINDOW_MS} milliseconds`}::interval
          and e.plate_number = truck_list_entries.plate_number
        order by e."timestamp", e.id
        limit 1)`,
    })
    .from(truckListEntries)
    .where(
      pageWhere(
        {
          tenantId: truckListEntries.tenantId,
          siteId: truckListEntries.siteId,
          key: truckListEntries.timestamp,
          id: truckListEntries.id,
        },
        shape,
        value,
      ),
    )
    .orderBy(desc(truckListEntries.timestamp), desc(truckListEntries.id))
    .limit(value('limit') as number);
}

export type TruckListRow = Awaited<ReturnType<typeof truckListStatement>>[number];

const truckPages = compiledPages<TruckListRow, ReturnType<typeof truckListStatement>>(
  truckListStatement,
);

export const truckListQuery = (
  tx: DbExecutor,
  tenantId: string,
  siteIds: readonly string[] | null,
  limit: number,
  after?: PageCursor,
) => truckPages.built(tx, tenantId, limit, after, siteIds);

export type TruckListRepository = ReturnType<typeof createTruckListRepository>;

export function createTruckListRepository() {
  return {
    /** A page of the list (truckListStatement), its statement compiled once. */
    list: (
      tx: DbExecutor,
      tenantId: string,
      siteIds: readonly string[] | null,
      limit: number,
      after?: PageCursor,
    ) => truckPages.run(tx, tenantId, limit, after, siteIds),

    /**
     * The summary cards from the per-day counters the triggers keep (migration 0019). `today` is
     * the site's calendar day (YYYY-MM-DD); later days count as today, as for the dashboard.
     */
    async summary(tx: DbExecutor, tenantId: string, today: string) {
      const c = truckListDailyCounts;
      const [row] = await tx
        .select({
          total: sql<number>`coalesce(sum(${c.total}), 0)::int`,
          withOrderNumber: sql<number>`coalesce(sum(${c.withTruckNumber}), 0)::int`,
          todaysArrivals: sql<number>`coalesce(sum(${c.total}) filter (where ${c.day} >= ${today}::date), 0)::int`,
        })
        .from(c)
        .where(eq(c.tenantId, tenantId));
      return row ?? { total: 0, withOrderNumber: 0, todaysArrivals: 0 };
    },

    insert: async (tx: DbExecutor, row: typeof truckListEntries.$inferInsert) =>
      (await tx.insert(truckListEntries).values(row).returning())[0]!,
  };
}
