import { isValid, parse, parseISO, startOfDay } from 'date-fns';

import { formatDate } from '@/lib/format';
import { formatPlate, normalisePlate } from '@/lib/plates';

import type { Disc, Identity, Licence, Passport } from './document-readings';

const DATE_FORMATS = [
  'yyyy/MM/dd',
  'dd/MM/yyyy',
  'dd-MM-yyyy',
  'dd.MM.yyyy',
  'yyyyMMdd',
  'dd MMM yyyy',
];

/**
 * A date printed on or encoded in a document: ISO (YYYY-MM-DD, what the engine returns) or one of
 * the day-first forms South African documents print. Null when it is not a date.
 */
export function parseDocumentDate(value: string | null | undefined): Date | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^\d{4}-\d{2}-\d{2}/.test(text)) {
    const iso = parseISO(text.slice(0, 10));
    return isValid(iso) ? iso : null;
  }
  for (const pattern of DATE_FORMATS) {
    const date = parse(text, pattern, new Date(0));
    if (isValid(date) && date.getFullYear() > 1900) return date;
  }
  return null;
}

/** A document is valid through its expiry date; it has expired once that day has passed. */
export function hasExpired(value: string | null | undefined, today: Date): Date | null {
  const date = parseDocumentDate(value);
  return date && date < startOfDay(today) ? date : null;
}

export type CrossCheckInput = {
  plateNumber: string | null;
  disc: Disc | null;
  identity: Identity | null;
  licence: Licence | null;
  passport: Passport | null;
};

/**
 * Checks a guard needs that no single document can make (warnings, never blockers):
 * - the licence disc is for the scanned vehicle (its licence number is the vehicle's registration);
 * - the licence disc, driving licence, PrDP and passport have not expired;
 * - the ID number on the driving licence matches the ID document.
 */
export function crossCheckWarnings(input: CrossCheckInput, today: Date = new Date()): string[] {
  const warnings: string[] = [];
  const { plateNumber, disc, identity, licence, passport } = input;

  const discPlate = disc?.licenceNumber ? normalisePlate(disc.licenceNumber) : '';
  const scannedPlate = plateNumber ? normalisePlate(plateNumber) : '';
  if (discPlate && scannedPlate && discPlate !== scannedPlate) {
    warnings.push(
      `Licence disc is for ${formatPlate(discPlate)}, but the plate reads ${formatPlate(scannedPlate)}.`,
    );
  }

  const discExpiry = hasExpired(disc?.dateOfExpiry, today);
  if (discExpiry) warnings.push(`Licence disc expired on ${formatDate(discExpiry)}.`);

  const licenceExpiry = hasExpired(licence?.validTo, today);
  if (licenceExpiry) warnings.push(`Driving licence expired on ${formatDate(licenceExpiry)}.`);

  const prdpExpiry = hasExpired(licence?.prdpExpiry, today);
  if (prdpExpiry) {
    warnings.push(`Professional driving permit (PrDP) expired on ${formatDate(prdpExpiry)}.`);
  }

  const passportExpiry = hasExpired(passport?.expiryDate, today);
  if (passportExpiry) warnings.push(`Passport expired on ${formatDate(passportExpiry)}.`);

  const licenceId = licence?.idNumber?.replace(/\s/g, '');
  const documentId = identity?.identityNumber?.replace(/\s/g, '');
  if (licenceId && documentId && licenceId !== documentId) {
    warnings.push(
      `ID number on the driving licence (${licenceId}) does not match the ID document (${documentId}).`,
    );
  }

  return warnings;
}
