import {
  type AnyColumn,
  type SQL,
  and,
  asc,
  count,
  eq,
  gte,
  isNotNull,
  lt,
  sql,
} from 'drizzle-orm';

import { type DbExecutor, takeOne } from '@/platform/db';
import type { PageCursor } from '@/platform/page-cursor';

import { entryLogs } from './entry-logs.table';
import type { EntrySealing } from './entry-sealing';

/**
 * Instants bounding the export (`from` inclusive, `until` exclusive), one site or all, and which
 * entries: all, the refusals, or those citing a weighbridge ticket (issue 23's exports).
 */
export type ExportRange = {
  from: Date;
  until: Date;
  siteId?: string;
  only?: 'refused' | 'weighed';
};

/** What the weighbridge export shows of an entry's ticket (the documents module's JSON). */
export type ExportTicketWeights = {
  ticketNumber: string | null;
  vehicleReg: string | null;
  transporter: string | null;
  tareWeightKg: number | null;
  grossWeightKg: number | null;
  netWeightKg: number | null;
  weightsConsistent: boolean | null;
};

/** Other modules' columns the export shows, as SQL over the entry's own columns. */
export type ExportJoins = {
  ticketNumberSql: (tenantId: AnyColumn, ticketId: AnyColumn) => SQL<string | null>;
  ticketWeightsSql: (tenantId: AnyColumn, ticketId: AnyColumn) => SQL<ExportTicketWeights | null>;
  discGvmSql: (tenantId: AnyColumn, discId: AnyColumn) => SQL<string | null>;
};

export type EntryExportRow = Awaited<
  ReturnType<ReturnType<typeof createEntryExportRepository>['entryBatch']>
>[number];

/** Issue 26: each batch's numbers are opened row by row as the stream reads it. */
export function createEntryExportRepository(joins: ExportJoins, sealing: EntrySealing) {
  const e = entryLogs;
  const inRange = (tenantId: string, range: ExportRange) =>
    and(
      eq(e.tenantId, tenantId),
      gte(e.timestamp, range.from),
      lt(e.timestamp, range.until),
      range.siteId ? eq(e.siteId, range.siteId) : undefined,
      range.only === 'refused' ? eq(e.entryGranted, false) : undefined,
      range.only === 'weighed' ? isNotNull(e.weighbridgeTicketId) : undefined,
    );

  return {
    async countEntries(tx: DbExecutor, tenantId: string, range: ExportRange): Promise<number> {
      return takeOne(await tx.select({ n: count() }).from(e).where(inRange(tenantId, range))).n;
    },

    /** Oldest first, keyset on (timestamp, id): each batch is one range scan of the index. */
    entryBatch: async (
      tx: DbExecutor,
      tenantId: string,
      range: ExportRange,
      limit: number,
      after?: PageCursor,
    ) =>
      sealing.openAll(
        tenantId,
        await tx
          .select({
            id: e.id,
            timestamp: e.timestamp,
            plateNumber: e.plateNumber,
            extractedPlate: e.extractedPlate,
            category: e.category,
            driverName: e.driverName,
            driverSurname: e.driverSurname,
            driverIdNumber: e.driverIdNumber,
            driverPassportNumber: e.driverPassportNumber,
            transportName: e.transportName,
            reference: joins.ticketNumberSql(e.tenantId, e.weighbridgeTicketId),
            vehicleApproved: e.vehicleApproved,
            faceVerified: e.faceVerified,
            entryGranted: e.entryGranted,
            refusalReason: e.refusalReason,
            warnings: e.warnings,
            trailerPlates: e.trailerPlates,
            trailerLicenceDiscIds: e.trailerLicenceDiscIds,
            ticket: joins.ticketWeightsSql(e.tenantId, e.weighbridgeTicketId),
            gvm: joins.discGvmSql(e.tenantId, e.vehicleLicenceDiscId),
            // Columns spelled with their table: inside a subquery Drizzle's bare "id" would be the visit's.
            // Issue 16's gate and visit (one row per entry, by visits_one_per_entry): the gate the
            // entry was attempted at, when its visit ended, and the minutes on site.
            gateName: sql<string | null>`(select g.name from gates g
            where g.tenant_id = "entry_logs"."tenant_id" and g.id = "entry_logs"."gate_id")`,
            exitedAtMs: sql<
              string | null
            >`(select extract(epoch from v.exited_at) * 1000 from visits v
            where v.tenant_id = "entry_logs"."tenant_id" and v.entry_log_id = "entry_logs"."id")`,
            turnaroundMinutes: sql<
              string | null
            >`(select round(extract(epoch from v.exited_at - v.entered_at) / 60)
            from visits v where v.tenant_id = "entry_logs"."tenant_id" and v.entry_log_id = "entry_logs"."id")`,
          })
          .from(e)
          .where(
            and(
              inRange(tenantId, range),
              after
                ? sql`(${e.timestamp}, ${e.id}) > (${after.timestamp.toISOString()}::timestamptz, ${after.id}::uuid)`
                : undefined,
            ),
          )
          .orderBy(asc(e.timestamp), asc(e.id))
          .limit(limit),
      ),
  };
}
