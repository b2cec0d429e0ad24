import { type DriverRecord, DriverRecordSchema } from '@boomgate/contracts/drivers';
import type { ImportRowError } from '@boomgate/contracts/onboarding';
import { watchlistMatchKey } from '@boomgate/contracts/watchlist';

import { addMonths } from '@/platform/calendar';

import type { ImportFileRow } from './import-file';

/** Spec §5/§9: an approval lasts three months from today unless the record says otherwise. */
export const DEFAULT_APPROVAL_MONTHS = 3;

export type CheckedRow = ImportFileRow & {
  errors: ImportRowError[];
  /** The normalised record when the row has no error; null otherwise. */
  record: DriverRecord | null;
  /** Issue 21: a plate of the row (vehicle or trailer) is on a `block` watchlist entry. */
  watchlistBlocked: boolean;
};

export type RowContext = {
  /** The site's calendar day, YYYY-MM-DD. */
  today: string;
  /** ID numbers that already belong to a driver of the tenant. */
  existingIdNumbers: ReadonlySet<string>;
  /** Plates (normalised) that are already approved vehicles of the tenant. */
  existingPlates: ReadonlySet<string>;
  /**
   * Issue 21: plates the tenant's watchlist blocks, by their watchlist match key, each with the
   * sentence shown (a covert entry's says only "Manual check required").
   */
  blockedPlates?: ReadonlyMap<string, string>;
};

/**
 * Validates every row on its own (the shared record schema: required fields, SA ID number
 * checksum, phone, dates, plate normalisation), then against the rest of the file (a later row
 * repeating an ID number or plate is refused, naming the first) and against the tenant's records
 * (an existing driver or vehicle is reported, never overwritten). A row with any error is
 * rejected whole, so a driver is never imported without the vehicle the row names.
 */
export function checkRows(rows: readonly ImportFileRow[], context: RowContext): CheckedRow[] {
  const firstRowOfId = new Map<string, number>();
  const firstRowOfPlate = new Map<string, number>();
  return rows.map((row) => {
    const parsed = DriverRecordSchema.safeParse(row.values);
    const errors: ImportRowError[] = parsed.success
      ? []
      : parsed.error.issues.map((issue) => ({
          field: typeof issue.path[0] === 'string' ? issue.path[0] : null,
          message: issue.message,
        }));
    const record = parsed.success ? withDefaultApproval(parsed.data, context.today) : null;
    let watchlistBlocked = false;
    if (record) {
      for (const field of ['plateNumber', 'trailer1Plate', 'trailer2Plate'] as const) {
        const value = record[field];
        const blocked = value
          ? context.blockedPlates?.get(watchlistMatchKey('plate', value))
          : null;
        if (!blocked) continue;
        watchlistBlocked = true;
        errors.push({ field, message: blocked });
      }
      if (record.approvedUntil !== null && record.approvedUntil < context.today) {
        errors.push({ field: 'approvedUntil', message: 'Approved until must be today or later.' });
      }
      const sameId = firstRowOfId.get(record.idNumber);
      if (sameId !== undefined) {
        errors.push({ field: 'idNumber', message: `Same ID number as row ${sameId}.` });
      } else if (context.existingIdNumbers.has(record.idNumber)) {
        errors.push({
          field: 'idNumber',
          message: 'A driver with this ID number is already registered.',
        });
      }
      const plate = record.plateNumber;
      const samePlate = plate === null ? undefined : firstRowOfPlate.get(plate);
      if (samePlate !== undefined) {
        errors.push({ field: 'plateNumber', message: `Same plate number as row ${samePlate}.` });
      } else if (plate !== null && context.existingPlates.has(plate)) {
        errors.push({ field: 'plateNumber', message: `Vehicle ${plate} is already registered.` });
      }
      if (!firstRowOfId.has(record.idNumber)) firstRowOfId.set(record.idNumber, row.rowNumber);
      if (plate !== null && !firstRowOfPlate.has(plate)) firstRowOfPlate.set(plate, row.rowNumber);
    }
    return { ...row, errors, record: errors.length === 0 ? record : null, watchlistBlocked };
  });
}

function withDefaultApproval(record: DriverRecord, today: string): DriverRecord {
  if (record.plateNumber === null || record.approvedUntil !== null) return record;
  return { ...record, approvedUntil: addMonths(today, DEFAULT_APPROVAL_MONTHS) };
}
