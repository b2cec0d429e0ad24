import { isValid, parse, parseISO, startOfDay } from 'date-fns';

import { formatDate } from '@/lib/format';
import { i18next, type TFunction } from '@/lib/i18n';
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

/** One cross-check's finding, in no language yet (`realGate:crossChecks.<code>`). */
export type CrossCheck =
  | { code: 'discPlate'; discPlate: string; scannedPlate: string }
  | { code: 'discExpired' | 'licenceExpired' | 'prdpExpired' | 'passportExpired'; date: Date }
  | { code: 'idMismatch'; licenceId: string; documentId: string };

/**
 * Checks a guard needs that no single document can make (warnings, never blockers):
 * - the licence disc is for the scanned vehicle (its licence number is the vehicle's registration);
 * - the licence disc, driving licence, PrDP and passport have not expired;
 * - the ID number on the driving licence matches the ID document.
 */
export function crossChecks(input: CrossCheckInput, today: Date = new Date()): CrossCheck[] {
  const checks: CrossCheck[] = [];
  const { plateNumber, disc, identity, licence, passport } = input;

  const discPlate = disc?.licenceNumber ? normalisePlate(disc.licenceNumber) : '';
  const scannedPlate = plateNumber ? normalisePlate(plateNumber) : '';
  if (discPlate && scannedPlate && discPlate !== scannedPlate) {
    checks.push({ code: 'discPlate', discPlate, scannedPlate });
  }

  const expiries = [
    ['discExpired', disc?.dateOfExpiry],
    ['licenceExpired', licence?.validTo],
    ['prdpExpired', licence?.prdpExpiry],
    ['passportExpired', passport?.expiryDate],
  ] as const;
  for (const [code, value] of expiries) {
    const date = hasExpired(value, today);
    if (date) checks.push({ code, date });
  }

  const licenceId = licence?.idNumber?.replace(/\s/g, '');
  const documentId = identity?.identityNumber?.replace(/\s/g, '');
  if (licenceId && documentId && licenceId !== documentId) {
    checks.push({ code: 'idMismatch', licenceId, documentId });
  }

  return checks;
}

/** A cross-check's sentence in the language of `t` (the `realGate` namespace's). */
export function crossCheckText(t: TFunction<'realGate'>, check: CrossCheck): string {
  switch (check.code) {
    case 'discPlate':
      return t('crossChecks.discPlate', {
        disc: formatPlate(check.discPlate),
        plate: formatPlate(check.scannedPlate),
      });
    case 'idMismatch':
      return t('crossChecks.idMismatch', {
        licenceId: check.licenceId,
        documentId: check.documentId,
      });
    case 'discExpired':
    case 'licenceExpired':
    case 'prdpExpired':
    case 'passportExpired':
      return t(`crossChecks.${check.code}`, { date: formatDate(check.date) });
  }
}

/**
 * The cross-checks as the guard reads them (issue 19: in the chosen language, the spec's English
 * otherwise; dates as `formatDate` gives them in that language).
 */
export function crossCheckWarnings(
  input: CrossCheckInput,
  today: Date = new Date(),
  t: TFunction<'realGate'> = i18next.getFixedT(null, 'realGate'),
): string[] {
  return crossChecks(input, today).map((check) => crossCheckText(t, check));
}
