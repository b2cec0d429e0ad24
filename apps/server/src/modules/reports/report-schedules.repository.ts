import { and, eq, lte, sql } from 'drizzle-orm';

import type { DbExecutor } from '@/platform/db';

import { reportSchedules } from './reports.table';

export type ReportScheduleRow = typeof reportSchedules.$inferSelect;

export function createReportSchedulesRepository() {
  return {
    async find(tx: DbExecutor, tenantId: string): Promise<ReportScheduleRow | undefined> {
      const rows = await tx
        .select()
        .from(reportSchedules)
        .where(eq(reportSchedules.tenantId, tenantId));
      return rows[0];
    },
    async upsert(tx: DbExecutor, row: ReportScheduleRow): Promise<void> {
      const { tenantId, ...set } = row;
      await tx
        .insert(reportSchedules)
        .values(row)
        .onConflictDoUpdate({ target: reportSchedules.tenantId, set: { ...set, tenantId } });
    },
    async delete(tx: DbExecutor, tenantId: string): Promise<void> {
      await tx.delete(reportSchedules).where(eq(reportSchedules.tenantId, tenantId));
    },
    /** Across tenants (no tenant set): which schedules are due, by the job role's lookup. */
    async listDueTenants(tx: DbExecutor, now: Date, limit: number): Promise<string[]> {
      const result = await tx.execute<{ tenant_id: string }>(
        sql`select tenant_id from reports_due_schedules(${now.toISOString()}::timestamptz, ${limit}::int)`,
      );
      return result.rows.map((row) => row.tenant_id);
    },
    /** The tenant's schedule if it is due, locked so two workers never queue it twice. */
    async lockDue(
      tx: DbExecutor,
      tenantId: string,
      now: Date,
    ): Promise<ReportScheduleRow | undefined> {
      const rows = await tx
        .select()
        .from(reportSchedules)
        .where(and(eq(reportSchedules.tenantId, tenantId), lte(reportSchedules.nextSendAt, now)))
        .for('update', { skipLocked: true });
      return rows[0];
    },
    async setNextSendAt(tx: DbExecutor, tenantId: string, nextSendAt: Date): Promise<void> {
      await tx
        .update(reportSchedules)
        .set({ nextSendAt })
        .where(eq(reportSchedules.tenantId, tenantId));
    },
  };
}

export type ReportSchedulesRepository = ReturnType<typeof createReportSchedulesRepository>;
