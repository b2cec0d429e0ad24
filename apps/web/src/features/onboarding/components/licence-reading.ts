import type { OcrResponse } from '@boomgate/contracts/ocr';

import { hasExtractedData, ocrFields, textField } from '@/lib/api/ocr';

import type { PersonalInfo } from './personal-info';
import { cleanReadIdNumber } from '@boomgate/contracts/sa-id-number';

/** What a licence read gave us for onboarding; null where nothing was read. */
export type LicenceReading = {
  /** Given names; most licences carry only initials (then null, and see `nameOnCard`). */
  name: string | null;
  surname: string | null;
  nameOnCard: string | null;
  idNumber: string | null;
  licenceNumber: string | null;
  validTo: string | null;
};

/**
 * The onboarding fields of a `POST /api/ocr {type:'license'}` answer (the SADL barcode or the
 * card's printed text), or null when nothing usable was read.
 */
export function licenceReadingFromOcr(
  response: Pick<OcrResponse, 'ok' | 'fields' | 'extractedText'>,
): LicenceReading | null {
  if (!response.ok) return null;
  let fields: Record<string, unknown>;
  try {
    fields = ocrFields(response);
  } catch {
    return null;
  }
  if (!hasExtractedData(fields)) return null;
  const rawId = textField(fields, 'idNumber', 'identityNumber');
  const reading: LicenceReading = {
    name: textField(fields, 'givenNames', 'firstNames'),
    surname: textField(fields, 'surname'),
    nameOnCard: textField(fields, 'nameOnCard'),
    idNumber: rawId ? cleanReadIdNumber(rawId) : null,
    licenceNumber: textField(fields, 'licenceNumber'),
    validTo: textField(fields, 'validTo'),
  };
  return Object.values(reading).some((value) => value !== null) ? reading : null;
}

export type PersonalField = 'name' | 'surname' | 'idNumber';

// Field names on screen come from the `onboarding` catalogue (`licence.fields.<field>`).
export type FieldConflict = { field: PersonalField; entered: string; read: string };

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Prefills personal info from a licence reading: blank fields take the value read. A field the
 * driver already filled keeps their value; when the licence says otherwise it is a conflict for
 * them to resolve.
 */
export function prefillFromLicence(
  info: PersonalInfo,
  reading: LicenceReading,
): { info: PersonalInfo; conflicts: FieldConflict[] } {
  const next = { ...info };
  const conflicts: FieldConflict[] = [];
  for (const field of ['name', 'surname', 'idNumber'] as const) {
    const read = reading[field];
    if (!read) continue;
    const entered = info[field];
    if (entered.trim() === '') {
      next[field] = read;
      continue;
    }
    if (!same(entered, read)) conflicts.push({ field, entered, read });
  }
  return { info: next, conflicts };
}

/** The licence's values over the driver's, for the conflicting fields. */
export function acceptLicenceValues(info: PersonalInfo, conflicts: FieldConflict[]): PersonalInfo {
  const next = { ...info };
  for (const conflict of conflicts) next[conflict.field] = conflict.read;
  return next;
}

/** True when `validTo` (YYYY-MM-DD) is a date before `today`. */
export function isExpired(validTo: string | null, today: Date = new Date()): boolean {
  if (!validTo || !/^\d{4}-\d{2}-\d{2}/.test(validTo)) return false;
  const todayIso = [
    today.getFullYear(),
    String(today.getMonth() + 1).padStart(2, '0'),
    String(today.getDate()).padStart(2, '0'),
  ].join('-');
  return validTo.slice(0, 10) < todayIso;
}
