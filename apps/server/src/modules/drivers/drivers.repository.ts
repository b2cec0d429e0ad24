import { type SQL, and, desc, eq, inArray, isNull, or } from 'drizzle-orm';

import { type DbExecutor, takeOne } from '@/platform/db';
import { type ColumnSealer, SA_ID_NUMBER } from '@/platform/sealing';

import { type DriverRow, type NewDriverRow, drivers } from './drivers.table';

export type DriversRepository = ReturnType<typeof createDriversRepository>;
/** A driver to insert: the ID number in the clear; the repository seals it and adds its hash. */
export type DriverInput = Omit<NewDriverRow, 'idNumberHash'>;

const ID_NUMBER = 'drivers.id_number';

/**
 * Issue 26: the ID number is sealed on its way in and opened on its way out; equality goes by
 * its keyed hash, never by decrypting in SQL. Rows stored before sealing (no hash yet) still
 * match by their plain number until the sealing job (keys.seal-stored-data) has sealed them.
 */
export function createDriversRepository(sealer: ColumnSealer) {
  const open = async (row: DriverRow): Promise<DriverRow> => ({
    ...row,
    idNumber: await sealer.open(row.tenantId, ID_NUMBER, row.idNumber),
  });
  const seal = async (row: DriverInput): Promise<NewDriverRow> => ({
    ...row,
    idNumber: await sealer.seal(row.tenantId, ID_NUMBER, row.idNumber),
    idNumberHash: await sealer.index(row.tenantId, SA_ID_NUMBER, row.idNumber),
  });

  /** Rows of the tenant holding one of these ID numbers. */
  async function whereIdNumbers(tenantId: string, idNumbers: readonly string[]): Promise<SQL> {
    const hashes = await Promise.all(
      idNumbers.map((idNumber) => sealer.index(tenantId, SA_ID_NUMBER, idNumber)),
    );
    return and(
      eq(drivers.tenantId, tenantId),
      or(
        inArray(drivers.idNumberHash, hashes),
        and(isNull(drivers.idNumberHash), inArray(drivers.idNumber, [...idNumbers])),
      ),
    ) as SQL;
  }

  return {
    open,
    whereIdNumber: (tenantId: string, idNumber: string) => whereIdNumbers(tenantId, [idNumber]),

    list: async (tx: DbExecutor, tenantId: string): Promise<DriverRow[]> =>
      Promise.all(
        (
          await tx
            .select()
            .from(drivers)
            .where(eq(drivers.tenantId, tenantId))
            .orderBy(desc(drivers.createdAt), desc(drivers.id))
        ).map(open),
      ),

    async find(tx: DbExecutor, tenantId: string, id: string): Promise<DriverRow | undefined> {
      const rows = await tx
        .select()
        .from(drivers)
        .where(and(eq(drivers.tenantId, tenantId), eq(drivers.id, id)))
        .limit(1);
      return rows[0] && open(rows[0]);
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
        .where(await whereIdNumbers(tenantId, idNumbers));
      return new Set(
        await Promise.all(rows.map((row) => sealer.open(tenantId, ID_NUMBER, row.idNumber))),
      );
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

    insert: async (tx: DbExecutor, row: DriverInput) =>
      open(
        takeOne(
          await tx
            .insert(drivers)
            .values(await seal(row))
            .returning(),
        ),
      ),

    /** One statement per 500 rows (PostgreSQL allows 65535 parameters per statement). */
    async insertMany(tx: DbExecutor, rows: readonly DriverInput[]): Promise<DriverRow[]> {
      const inserted: DriverRow[] = [];
      for (let start = 0; start < rows.length; start += 500) {
        const batch = await Promise.all(rows.slice(start, start + 500).map(seal));
        const stored = await tx.insert(drivers).values(batch).returning();
        inserted.push(...(await Promise.all(stored.map(open))));
      }
      return inserted;
    },
  };
}
