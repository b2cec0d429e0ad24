import { type SQL, and, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';

import { type CompiledSelect, compileSelect } from '@/platform/compiled-select';
import { type DbExecutor, takeOne } from '@/platform/db';
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
/** Which statement a page needs: by the caller's sites (every site, one, several), after a cursor or not. */
type EntryListShape = { sites: 'every' | 'one' | 'several'; isAfter: boolean };
type EntryListValues = {
  tenantId: string;
  limit: number;
  siteId?: string;
  siteIds?: string[];
  afterTimestamp?: string;
  afterId?: string;
};
type ValueOf = (name: keyof EntryListValues) => unknown;

/**
 * Newest first, keyset-paginated on (timestamp, id) so deep pages stay index scans, each entry
 * with its supervisor's override (issue 21; at most one per entry: the join adds no rows).
 * `value` gives the statement's values: the values themselves, or placeholders (compiled).
 */
function entryListStatement(tx: DbExecutor, shape: EntryListShape, value: ValueOf) {
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
      and(
        eq(entryLogs.tenantId, value('tenantId') as string),
        shape.sites === 'one' ? eq(entryLogs.siteId, value('siteId') as string) : undefined,
        shape.sites === 'several'
          ? sql`${entryLogs.siteId} = any(${value('siteIds')}::uuid[])`
          : undefined,
        shape.isAfter
          ? sql`(${entryLogs.timestamp}, ${entryLogs.id}) < (${value('afterTimestamp')}::timestamptz, ${value('afterId')}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(entryLogs.timestamp), desc(entryLogs.id))
    .limit(value('limit') as number);
}

function entryListShape(after: PageCursor | undefined, siteIds: readonly string[] | null) {
  const sites = siteIds === null ? 'every' : siteIds.length === 1 ? 'one' : 'several';
  return { sites, isAfter: after !== undefined } as const;
}

function entryListValues(
  tenantId: string,
  limit: number,
  after: PageCursor | undefined,
  siteIds: readonly string[] | null,
): EntryListValues {
  return {
    tenantId,
    limit,
    ...(siteIds?.length === 1 ? { siteId: siteIds[0] } : siteIds ? { siteIds: [...siteIds] } : {}),
    ...(after ? { afterTimestamp: after.timestamp.toISOString(), afterId: after.id } : {}),
  };
}

/**
 * The entry list's SQL as it is sent (`npm run bench:scale-plans` explains this very query; the
 * list runs the same statement compiled).
 */
export function entryListQuery(
  tx: DbExecutor,
  tenantId: string,
  limit: number,
  after?: PageCursor,
  siteIds: readonly string[] | null = null,
) {
  const values = entryListValues(tenantId, limit, after, siteIds);
  return entryListStatement(tx, entryListShape(after, siteIds), (name) => values[name]);
}

/** One compiled statement per shape (issue 27: built once, not per request). */
const compiledEntryLists = new Map<string, CompiledSelect<EntryListValues, EntryWithOverride>>();
function compiledEntryList(shape: EntryListShape) {
  const key = `${shape.sites}:${shape.isAfter}`;
  let compiled = compiledEntryLists.get(key);
  if (!compiled) {
    compiled = compileSelect<EntryListValues, EntryWithOverride>((tx, placeholder) =>
      entryListStatement(tx, shape, placeholder),
    );
    compiledEntryLists.set(key, compiled);
  }
  return compiled;
}

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
      sealing.openAll(
        tenantId,
        await compiledEntryList(entryListShape(after, siteIds)).run(
          tx,
          entryListValues(tenantId, limit, after, siteIds),
        ),
      ),

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
