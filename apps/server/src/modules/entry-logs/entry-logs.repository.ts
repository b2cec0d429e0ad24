import { type SQL, and, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';

import { type DbExecutor, takeOne } from '@/platform/db';
import { type PageShape, type PageValue, compiledPages, pageWhere } from '@/platform/keyset-page';
import type { PageCursor } from '@/platform/page-cursor';

import type { EntrySealing } from './entry-sealing';
import type { EntryWithOverride } from './entry-overrides';
import { entryOverrides } from './entry-overrides.table';
import {
  type EntryLogRow,
  type NewEntryLogRow,
  entryLogDailyCounts,
  entryLogs,
} from './entry-logs.table';

export type EntryLogsRepository = ReturnType<typeof createEntryLogsRepository>;

/**
 * Issue 26: numbers are sealed on the way in and opened on the way out, only for the rows a call
 * returns (a page of the list, one entry), never in SQL.
 */
/**
 * Newest first, keyset-paginated on (timestamp, id) so deep pages stay index scans, each entry
 * with its supervisor's override (issue 21; at most one per entry: the join adds no rows).
 */
function entryListStatement(tx: DbExecutor, shape: PageShape, value: PageValue) {
  return tx
    .select({ ...getTableColumns(entryLogs), override: getTableColumns(entryOverrides) })
    .from(entryLogs)
    .leftJoin(
      entryOverrides,
      and(
        eq(entryOverrides.tenantId, entryLogs.tenantId),
        eq(entryOverrides.entryId, entryLogs.id),
      ),
    )
    .where(
      pageWhere(
        {
          tenantId: entryLogs.tenantId,
          siteId: entryLogs.siteId,
          key: entryLogs.timestamp,
          id: entryLogs.id,
        },
        shape,
        value,
      ),
    )
    .orderBy(desc(entryLogs.timestamp), desc(entryLogs.id))
    .limit(value('limit') as number);
}

const entryPages = compiledPages<EntryWithOverride, ReturnType<typeof entryListStatement>>(
  entryListStatement,
);

/**
 * The entry list's SQL as it is sent (`npm run bench:scale-plans` explains this very query; the
 * list sends the same statement compiled).
 */
export const entryListQuery = (
  tx: DbExecutor,
  tenantId: string,
  limit: number,
  after?: PageCursor,
  siteIds: readonly string[] | null = null,
) => entryPages.built(tx, tenantId, limit, after, siteIds);

export function createEntryLogsRepository(sealing: EntrySealing) {
  return {
    async insert(tx: DbExecutor, row: NewEntryLogRow): Promise<EntryLogRow> {
      const stored = takeOne(
        await tx
          .insert(entryLogs)
          .values(await sealing.seal(row))
          .returning(),
      );
      return sealing.open(row.tenantId, stored);
    },

    async findById(tx: DbExecutor, tenantId: string, id: string) {
      const rows = await tx
        .select()
        .from(entryLogs)
        .where(and(eq(entryLogs.tenantId, tenantId), eq(entryLogs.id, id)))
        .limit(1);
      return rows[0] && sealing.open(tenantId, rows[0]);
    },

    async findByIdempotencyKey(tx: DbExecutor, tenantId: string, key: string) {
      const rows = await tx
        .select()
        .from(entryLogs)
        .where(and(eq(entryLogs.tenantId, tenantId), eq(entryLogs.idempotencyKey, key)))
        .limit(1);
      return rows[0] && sealing.open(tenantId, rows[0]);
    },

    /**
     * A page of entries with their overrides (entryListStatement); `siteIds` limits it to those
     * sites (issue 16; null: every site). Only the page's rows are opened.
     */
    list: async (
      tx: DbExecutor,
      tenantId: string,
      limit: number,
      after?: PageCursor,
      siteIds: readonly string[] | null = null,
    ): Promise<EntryWithOverride[]> =>
      sealing.openAll(tenantId, await entryPages.run(tx, tenantId, limit, after, siteIds)),

    /**
     * All-time and today's counts from the per-day counters the entry_logs triggers keep (one row
     * per site day), so the dashboard reads a few hundred rows, not every entry. `today` is the
     * site's calendar day (YYYY-MM-DD); later days count as today, as entries "since midnight" did.
     * `extra`: other modules' totals as scalar subqueries, read in the same statement (one round
     * trip for the whole dashboard's numbers).
     */
    async counts<Extra extends Record<string, SQL<number>>>(
      tx: DbExecutor,
      tenantId: string,
      today: string,
      extra: Extra,
    ) {
      const c = entryLogDailyCounts;
      // An aggregate without GROUP BY answers exactly one row.
      return takeOne(
        await tx
          .select({
            total: sql<number>`coalesce(sum(${c.total}), 0)::int`,
            today: sql<number>`coalesce(sum(${c.total}) filter (where ${c.day} >= ${today}::date), 0)::int`,
            approved: sql<number>`coalesce(sum(${c.approved}), 0)::int`,
            faceVerified: sql<number>`coalesce(sum(${c.faceVerified}), 0)::int`,
            granted: sql<number>`coalesce(sum(${c.granted}), 0)::int`,
            ...extra,
          })
          .from(c)
          .where(eq(c.tenantId, tenantId)),
      );
    },

    /**
     * Issue 16: the dashboard's counts for some sites, counted from their entries (the per-day
     * counters have no site). `today` as in counts().
     */
    async countsForSites<Extra extends Record<string, SQL<number>>>(
      tx: DbExecutor,
      tenantId: string,
      siteIds: readonly string[],
      today: string,
      extra: Extra,
    ) {
      const e = entryLogs;
      return takeOne(
        await tx
          .select({
            total: sql<number>`count(*)::int`,
            today: sql<number>`(count(*) filter (where (${e.timestamp} at time zone 'Africa/Johannesburg')::date >= ${today}::date))::int`,
            approved: sql<number>`(count(*) filter (where ${e.vehicleApproved}))::int`,
            faceVerified: sql<number>`(count(*) filter (where ${e.faceVerified}))::int`,
            granted: sql<number>`(count(*) filter (where ${e.entryGranted}))::int`,
            ...extra,
          })
          .from(e)
          .where(
            and(
              eq(e.tenantId, tenantId),
              siteIds.length === 0 ? sql`false` : inArray(e.siteId, [...siteIds]),
            ),
          ),
      );
    },
  };
}
