import { type SQL, and, desc, eq, inArray, sql } from 'drizzle-orm';

import { type Db, type DbExecutor, takeOne } from '@/platform/db';

import {
  type ApprovedVehicleRow,
  type NewApprovedVehicleRow,
  approvedVehicleExpiryCounts,
  approvedVehicles,
} from './approved-vehicles.table';

export type ApprovedVehiclesRepository = ReturnType<typeof createApprovedVehiclesRepository>;

export function createApprovedVehiclesRepository(db: Db) {
  return {
    /**
     * Cross-tenant by design (SECURITY DEFINER, ids only): approvals whose retention has ended, by
     * the stored date or by the tenant's own period (`defaultDays` when it has none), if earlier.
     */
    async listDueBiometricPurges(
      now: Date,
      defaultDays: number,
      limit: number,
    ): Promise<{ tenantId: string; vehicleId: string }[]> {
      const result = await db.execute<{ tenant_id: string; vehicle_id: string }>(
        sql`select * from approved_vehicles_due_biometric_purge(${now.toISOString()}::timestamptz, ${defaultDays}::int, ${limit}::int)`,
      );
      return result.rows.map((row) => ({ tenantId: row.tenant_id, vehicleId: row.vehicle_id }));
    },

    async clearBiometrics(tx: DbExecutor, tenantId: string, id: string) {
      const rows = await tx
        .update(approvedVehicles)
        .set({
          driverPhotoKey: null,
          driverFaceDescriptor: null,
          faceModelVersion: null,
          biometricsPurgeAfter: null,
        })
        .where(and(eq(approvedVehicles.tenantId, tenantId), eq(approvedVehicles.id, id)))
        .returning({ id: approvedVehicles.id });
      return rows.length > 0;
    },

    list: (tx: DbExecutor, tenantId: string): Promise<ApprovedVehicleRow[]> =>
      tx
        .select()
        .from(approvedVehicles)
        .where(eq(approvedVehicles.tenantId, tenantId))
        .orderBy(desc(approvedVehicles.createdAt)),

    async findByPlate(tx: DbExecutor, tenantId: string, plateNumber: string) {
      const rows = await tx
        .select()
        .from(approvedVehicles)
        .where(
          and(
            eq(approvedVehicles.tenantId, tenantId),
            eq(approvedVehicles.plateNumber, plateNumber),
          ),
        )
        .limit(1);
      return rows[0];
    },

    async find(tx: DbExecutor, tenantId: string, id: string) {
      const rows = await tx
        .select()
        .from(approvedVehicles)
        .where(and(eq(approvedVehicles.tenantId, tenantId), eq(approvedVehicles.id, id)))
        .limit(1);
      return rows[0];
    },

    /**
     * The row locked until the transaction ends: two people deciding one proposal at once are
     * served one after the other, so the second sees it already decided (409), never both acting.
     */
    async findForDecision(tx: DbExecutor, tenantId: string, id: string) {
      const rows = await tx
        .select()
        .from(approvedVehicles)
        .where(and(eq(approvedVehicles.tenantId, tenantId), eq(approvedVehicles.id, id)))
        .limit(1)
        .for('update');
      return rows[0];
    },

    /** Which of these (normalised) plates are already registered for the tenant. */
    async existingPlates(
      tx: DbExecutor,
      tenantId: string,
      plates: readonly string[],
    ): Promise<Set<string>> {
      if (plates.length === 0) return new Set();
      const rows = await tx
        .select({ plateNumber: approvedVehicles.plateNumber })
        .from(approvedVehicles)
        .where(
          and(
            eq(approvedVehicles.tenantId, tenantId),
            inArray(approvedVehicles.plateNumber, [...plates]),
          ),
        );
      return new Set(rows.map((row) => row.plateNumber));
    },
    /** One statement per 500 rows (PostgreSQL allows 65535 parameters per statement). */
    async insertMany(tx: DbExecutor, rows: readonly NewApprovedVehicleRow[]) {
      const inserted: ApprovedVehicleRow[] = [];
      for (let start = 0; start < rows.length; start += 500) {
        const batch = rows.slice(start, start + 500);
        inserted.push(...(await tx.insert(approvedVehicles).values(batch).returning()));
      }
      return inserted;
    },
    async insert(tx: DbExecutor, row: NewApprovedVehicleRow) {
      return takeOne(await tx.insert(approvedVehicles).values(row).returning());
    },

    async setProposal(
      tx: DbExecutor,
      tenantId: string,
      id: string,
      proposal: Pick<NewApprovedVehicleRow, 'proposal' | 'proposedBy' | 'proposedAt'>,
    ) {
      const rows = await tx
        .update(approvedVehicles)
        .set(proposal)
        .where(and(eq(approvedVehicles.tenantId, tenantId), eq(approvedVehicles.id, id)))
        .returning();
      return rows[0];
    },

    /** Issue 21: replaces a vehicle's trailers; undefined when there is no such vehicle. */
    async setTrailers(
      tx: DbExecutor,
      tenantId: string,
      id: string,
      trailers: NonNullable<NewApprovedVehicleRow['trailers']>,
    ) {
      const rows = await tx
        .update(approvedVehicles)
        .set({ trailers })
        .where(and(eq(approvedVehicles.tenantId, tenantId), eq(approvedVehicles.id, id)))
        .returning();
      return rows[0];
    },

    /** A confirmed registration: no longer pending, and switched on. */
    async confirmRegistration(tx: DbExecutor, tenantId: string, id: string) {
      const rows = await tx
        .update(approvedVehicles)
        .set({ proposal: null, proposedBy: null, proposedAt: null, isActive: true })
        .where(
          and(
            eq(approvedVehicles.tenantId, tenantId),
            eq(approvedVehicles.id, id),
            eq(approvedVehicles.proposal, 'register'),
          ),
        )
        .returning();
      return rows[0];
    },

    async delete(tx: DbExecutor, tenantId: string, id: string) {
      const rows = await tx
        .delete(approvedVehicles)
        .where(and(eq(approvedVehicles.tenantId, tenantId), eq(approvedVehicles.id, id)))
        .returning();
      return rows[0];
    },

    /** Active and not past approvedUntil on `today` (YYYY-MM-DD, the site's calendar day). */
    /**
     * Active approvals whose last approved day is not past: a sum over the per-day counters the
     * triggers keep (migration 0019; 'infinity' for no end date), not a count of every approval.
     * A scalar subquery, so the dashboard reads it in the same statement as its other totals.
     */
    activeCountSql(tenantId: string, today: string): SQL<number> {
      const c = approvedVehicleExpiryCounts;
      return sql<number>`(select coalesce(sum(${c.active}), 0)::int from ${c}
        where ${c.tenantId} = ${tenantId} and ${c.approvedUntil} >= ${today}::date)`;
    },
  };
}
