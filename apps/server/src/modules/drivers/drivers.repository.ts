import { and, desc, eq, inArray } from 'drizzle-orm';

import { type DbExecutor, takeOne } from '@/platform/db';

import { type DriverRow, type NewDriverRow, drivers } from './drivers.table';

export type DriversRepository = ReturnType<typeof createDriversRepository>;

export function createDriversRepository() {
  return {
    list: (tx: DbExecutor, tenantId: string): Promise<DriverRow[]> =>
      tx
        .select()
        .from(drivers)
        .where(eq(drivers.tenantId, tenantId))
        .orderBy(desc(drivers.createdAt), desc(drivers.id)),

    async find(tx: DbExecutor, tenantId: string, id: string): Promise<DriverRow | undefined> {
      const rows = await tx
        .select()
        .from(drivers)
        .where(and(eq(drivers.tenantId, tenantId), eq(drivers.id, id)))
        .limit(1);
      return rows[0];
    },

    /** Which of these ID numbers already belong to a driver of the tenant. */
    async existingIdNumbers(
      tx: DbExecutor,
      tenantId: string,
      idNumbers: readonly string[],
    ): Promise<Set<string>> {
      if (idNumbers.length === 0) return new Set();
      const rows = await tx
        .select({ idNumber: drivers.idNumber })
        .from(drivers)
        .where(and(eq(drivers.tenantId, tenantId), inArray(drivers.idNumber, [...idNumbers])));
      return new Set(rows.map((row) => row.idNumber));
    },

    /** Drops the selfie and its consent; returns the row as it was (for the image key). */
    async clearPhoto(tx: DbExecutor, tenantId: string, id: string, now: Date) {
      const before = await this.find(tx, tenantId, id);
      if (!before) return undefined;
      await tx
        .update(drivers)
        .set({ photoKey: null, biometricsPurgeAfter: null, updatedAt: now })
        .where(and(eq(drivers.tenantId, tenantId), eq(drivers.id, id)));
      return before;
    },

    insert: async (tx: DbExecutor, row: NewDriverRow) =>
      takeOne(await tx.insert(drivers).values(row).returning()),

    /** One statement per 500 rows (PostgreSQL allows 65535 parameters per statement). */
    async insertMany(tx: DbExecutor, rows: readonly NewDriverRow[]): Promise<DriverRow[]> {
      const inserted: DriverRow[] = [];
      for (let start = 0; start < rows.length; start += 500) {
        const batch = rows.slice(start, start + 500);
        inserted.push(...(await tx.insert(drivers).values(batch).returning()));
      }
      return inserted;
    },
  };
}
