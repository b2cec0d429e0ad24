import { and, count, desc, eq, sql } from 'drizzle-orm';

import { type DbExecutor, takeOne } from '@/platform/db';

import { type EntryLogRow, type NewEntryLogRow, entryLogs } from './entry-logs.table';

export type EntryLogsRepository = ReturnType<typeof createEntryLogsRepository>;

export type EntryCursor = { timestamp: Date; id: string };

export function createEntryLogsRepository() {
  return {
    async insert(tx: DbExecutor, row: NewEntryLogRow): Promise<EntryLogRow> {
      return takeOne(await tx.insert(entryLogs).values(row).returning());
    },

    async findByIdempotencyKey(tx: DbExecutor, tenantId: string, key: string) {
      const rows = await tx
        .select()
        .from(entryLogs)
        .where(and(eq(entryLogs.tenantId, tenantId), eq(entryLogs.idempotencyKey, key)))
        .limit(1);
      return rows[0];
    },

    /** Newest first, keyset-paginated on (timestamp, id) so deep pages stay index scans. */
    list: (tx: DbExecutor, tenantId: string, limit: number, after?: EntryCursor) =>
      tx
        .select()
        .from(entryLogs)
        .where(
          and(
            eq(entryLogs.tenantId, tenantId),
            after
              ? sql`(${entryLogs.timestamp}, ${entryLogs.id}) < (${after.timestamp.toISOString()}::timestamptz, ${after.id}::uuid)`
              : undefined,
          ),
        )
        .orderBy(desc(entryLogs.timestamp), desc(entryLogs.id))
        .limit(limit),

    async counts(tx: DbExecutor, tenantId: string, since: Date) {
      const [row] = await tx
        .select({
          total: count(),
          today: count(
            sql`case when ${entryLogs.timestamp} >= ${since.toISOString()}::timestamptz then 1 end`,
          ),
          approved: count(sql`case when ${entryLogs.vehicleApproved} then 1 end`),
          faceVerified: count(sql`case when ${entryLogs.faceVerified} then 1 end`),
        })
        .from(entryLogs)
        .where(eq(entryLogs.tenantId, tenantId));
      return row ?? { total: 0, today: 0, approved: 0, faceVerified: 0 };
    },
  };
}
