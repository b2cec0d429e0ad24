import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';

import type { DbExecutor } from '@/platform/db';
import type { PageCursor } from '@/platform/page-cursor';

import { type VisitRow, visitOpenCounts, visits } from './visits.table';

export type VisitsRepository = ReturnType<typeof createVisitsRepository>;

export type VisitExit = Pick<
  VisitRow,
  | 'exitedAt'
  | 'exitRecordedAt'
  | 'exitGateId'
  | 'exitSource'
  | 'exitedBy'
  | 'exitedByName'
  | 'exitTicketNumber'
  | 'exitSealNumbers'
>;

export function createVisitsRepository() {
  return {
    /**
     * How many are inside now, as a scalar subquery for another statement (the dashboard): the
     * per-site counts the visits triggers keep (migration 0040), not a count of open visits.
     */
    openCountSql: (tenantId: string, siteIds: readonly string[] | null) =>
      sql<number>`(select coalesce(sum(${visitOpenCounts.open}), 0)::int from ${visitOpenCounts} where ${visitOpenCounts.tenantId} = ${tenantId}::uuid${
        siteIds === null
          ? sql``
          : siteIds.length === 0
            ? sql` and false`
            : sql` and ${visitOpenCounts.siteId} in (${sql.join(
                siteIds.map((id) => sql`${id}::uuid`),
                sql`, `,
              )})`
      })`,

    insert: async (tx: DbExecutor, row: typeof visits.$inferInsert): Promise<VisitRow> =>
      (await tx.insert(visits).values(row).returning())[0]!,

    find: async (tx: DbExecutor, tenantId: string, id: string) =>
      (
        await tx
          .select()
          .from(visits)
          .where(and(eq(visits.tenantId, tenantId), eq(visits.id, id)))
      )[0] ?? null,

    findByEntry: async (tx: DbExecutor, tenantId: string, entryLogId: string) =>
      (
        await tx
          .select()
          .from(visits)
          .where(and(eq(visits.tenantId, tenantId), eq(visits.entryLogId, entryLogId)))
      )[0] ?? null,

    /** Whether the plate is on site now (an open visit anywhere in the tenant). */
    async isPlateInside(tx: DbExecutor, tenantId: string, plateNumber: string) {
      const [row] = await tx
        .select({ id: visits.id })
        .from(visits)
        .where(
          and(
            eq(visits.tenantId, tenantId),
            eq(visits.plateNumber, plateNumber),
            isNull(visits.exitedAt),
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    /** The plate's open visit (the oldest, if a re-entry left two), or null. */
    findOpenByPlate: async (tx: DbExecutor, tenantId: string, plateNumber: string) =>
      (
        await tx
          .select()
          .from(visits)
          .where(
            and(
              eq(visits.tenantId, tenantId),
              eq(visits.plateNumber, plateNumber),
              isNull(visits.exitedAt),
            ),
          )
          .orderBy(visits.enteredAt)
          .limit(1)
      )[0] ?? null,

    /** Whether a person with this ID number is on site now. */
    async isPersonInside(tx: DbExecutor, tenantId: string, idNumber: string) {
      const [row] = await tx
        .select({ id: visits.id })
        .from(visits)
        .where(
          and(
            eq(visits.tenantId, tenantId),
            eq(visits.personIdNumber, idNumber),
            eq(visits.kind, 'person'),
            isNull(visits.exitedAt),
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    /** Closes the visit if still open; null when it had already exited. */
    close: async (tx: DbExecutor, tenantId: string, id: string, exit: VisitExit) =>
      (
        await tx
          .update(visits)
          .set(exit)
          .where(and(eq(visits.tenantId, tenantId), eq(visits.id, id), isNull(visits.exitedAt)))
          .returning()
      )[0] ?? null,

    /**
     * Who is inside, newest first, keyset-paged on (entered_at, id): a range scan of the partial
     * index of open visits (one site, or every site of the tenant).
     */
    listOpen: (
      tx: DbExecutor,
      tenantId: string,
      siteIds: readonly string[] | null,
      limit: number,
      after?: PageCursor,
    ) =>
      tx
        .select()
        .from(visits)
        .where(
          and(
            eq(visits.tenantId, tenantId),
            siteIds === null
              ? undefined
              : siteIds.length === 1
                ? eq(visits.siteId, siteIds[0]!)
                : inArray(visits.siteId, [...siteIds]),
            isNull(visits.exitedAt),
            after
              ? sql`(${visits.enteredAt}, ${visits.id}) < (${after.timestamp.toISOString()}::timestamptz, ${after.id}::uuid)`
              : undefined,
          ),
        )
        .orderBy(desc(visits.enteredAt), desc(visits.id))
        .limit(limit),

    /** Open visits that began before `enteredBefore` at the site (overstays), oldest first. */
    listOpenSince: (
      tx: DbExecutor,
      tenantId: string,
      siteId: string,
      enteredBefore: Date,
      limit: number,
    ) =>
      tx
        .select()
        .from(visits)
        .where(
          and(
            eq(visits.tenantId, tenantId),
            eq(visits.siteId, siteId),
            isNull(visits.exitedAt),
            sql`${visits.enteredAt} < ${enteredBefore.toISOString()}::timestamptz`,
          ),
        )
        .orderBy(visits.enteredAt, visits.id)
        .limit(limit),
  };
}
