import type { SealedColumns } from '@/modules/keys';
import { type ColumnSealer, PASSPORT_NUMBER, SA_ID_NUMBER } from '@/platform/sealing';

import type { NewEntryLogRow } from './entry-logs.table';

/**
 * Issue 26: an entry's ID and passport numbers are sealed at rest, with their keyed hashes beside
 * them for equality (a driver's entries for privacy export and erasure, visits and corrections
 * about a driver). The keys module's jobs seal entries stored before (migration 0093 lets the
 * erase-only trigger accept exactly that change) and re-seal them on a rotation.
 */
export const ENTRY_SEALED_COLUMNS: SealedColumns = {
  table: 'entry_logs',
  id: 'id',
  tenant: 'tenant_id',
  columns: [
    { column: 'driver_id_number', hash: { column: 'driver_id_number_hash', domain: SA_ID_NUMBER } },
    {
      column: 'driver_passport_number',
      hash: { column: 'driver_passport_number_hash', domain: PASSPORT_NUMBER },
    },
  ],
  unsealedTenants: 'entry_logs_unsealed_tenants',
};

const ID_NUMBER = 'entry_logs.driver_id_number';
const PASSPORT = 'entry_logs.driver_passport_number';

type Numbers = { driverIdNumber?: string | null; driverPassportNumber?: string | null };

export type EntrySealing = ReturnType<typeof createEntrySealing>;

export function createEntrySealing(sealer: ColumnSealer) {
  const openOne = (tenantId: string, column: string, stored: string | null | undefined) =>
    stored ? sealer.open(tenantId, column, stored) : stored;
  /** A row read back with its numbers opened (a row stored before sealing passes as it is). */
  async function open<Row extends Numbers>(tenantId: string, row: Row): Promise<Row> {
    if (!row.driverIdNumber && !row.driverPassportNumber) return row;
    return {
      ...row,
      driverIdNumber: await openOne(tenantId, ID_NUMBER, row.driverIdNumber),
      driverPassportNumber: await openOne(tenantId, PASSPORT, row.driverPassportNumber),
    };
  }
  return {
    open,
    /**
     * Only the rows a page returns are opened, never in SQL. The rows a query has just returned
     * are opened in place (issue 27c): a copy of each wide row per listed entry was a seventh of
     * a page's garbage. Callers pass rows nothing else holds.
     */
    async openAll<Row extends Numbers>(tenantId: string, rows: Row[]): Promise<Row[]> {
      await Promise.all(
        rows.map(async (row) => {
          if (row.driverIdNumber)
            row.driverIdNumber = await openOne(tenantId, ID_NUMBER, row.driverIdNumber);
          if (row.driverPassportNumber)
            row.driverPassportNumber = await openOne(tenantId, PASSPORT, row.driverPassportNumber);
        }),
      );
      return rows;
    },
    /** The keyed hashes equality goes by (never decrypting in SQL). */
    idNumberHash: (tenantId: string, idNumber: string) =>
      sealer.index(tenantId, SA_ID_NUMBER, idNumber),
    passportNumberHash: (tenantId: string, passportNumber: string) =>
      sealer.index(tenantId, PASSPORT_NUMBER, passportNumber),
    /** The row as stored: numbers sealed, their hashes beside them. */
    async seal(row: NewEntryLogRow): Promise<NewEntryLogRow> {
      const { tenantId, driverIdNumber: id, driverPassportNumber: passport } = row;
      return {
        ...row,
        driverIdNumber: id ? await sealer.seal(tenantId, ID_NUMBER, id) : id,
        driverIdNumberHash: id ? await sealer.index(tenantId, SA_ID_NUMBER, id) : null,
        driverPassportNumber: passport ? await sealer.seal(tenantId, PASSPORT, passport) : passport,
        driverPassportNumberHash: passport
          ? await sealer.index(tenantId, PASSPORT_NUMBER, passport)
          : null,
      };
    },
  };
}
