import type { EntryWarning } from '@boomgate/contracts/entry-checks';
import { normalisePlate } from '@boomgate/contracts/plates';
import { cleanReadIdNumber } from '@boomgate/contracts/sa-id-number';

import type { CitedReadings } from '@/modules/documents';

/**
 * The rules an entry is checked against when it is saved (issue 14): cross-checks between the
 * cited documents, the plate and the register, each answered as a typed warning. Pure functions
 * of what the server holds; grant-entry calls them in the entry's transaction.
 */

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

const isoDay = (year: number, month: number, day: number): string | null => {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1900 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
};

/**
 * A date printed on or encoded in a document, as YYYY-MM-DD: ISO (what the engine returns),
 * YYYY/MM/DD, YYYYMMDD, or the day-first forms South African documents print (DD/MM/YYYY,
 * DD-MM-YYYY, DD.MM.YYYY, DD MMM YYYY). Null when it is not a date.
 */
export function parseDocumentDate(value: string | null): string | null {
  const text = value?.trim().toUpperCase();
  if (!text) return null;
  let m = /^(\d{4})[-/.]?(\d{2})[-/.]?(\d{2})(?:\b|T)/.exec(text);
  if (m) return isoDay(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/.exec(text);
  if (m) return isoDay(Number(m[3]), Number(m[2]), Number(m[1]));
  m = /^(\d{1,2})[\s-]([A-Z]{3})[A-Z]*[\s-](\d{4})$/.exec(text);
  if (m && MONTHS.includes(m[2] ?? ''))
    return isoDay(Number(m[3]), MONTHS.indexOf(m[2] ?? '') + 1, Number(m[1]));
  return null;
}

/** Name words, upper-case letters only: "van der Merwe, J." → ["VAN", "DER", "MERWE", "J"]. */
const nameWords = (...parts: (string | null | undefined)[]) =>
  parts
    .join(' ')
    .toUpperCase()
    .normalize('NFD')
    // Accents go before the letters are kept: "MÜLLER" is "MULLER", as the MRZ writes it.
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Z\s]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);

type NamedSource = { label: string; field: string; words: string[]; surname: string[] | null };

/**
 * Two names agree when the surname of the one that states it (ID, passport) appears among the
 * other's words; two free-form names (licence "INITIALS SURNAME", the registered driver) agree
 * when they share a word of two letters or more. Initials and word order differ between
 * documents; a different surname does not.
 */
function namesAgree(a: NamedSource, b: NamedSource): boolean {
  const contains = (words: string[], surname: string[]) => surname.every((w) => words.includes(w));
  if (a.surname && b.surname) return a.surname.join(' ') === b.surname.join(' ');
  if (a.surname) return contains(b.words, a.surname);
  if (b.surname) return contains(a.words, b.surname);
  return a.words.some((word) => word.length > 1 && b.words.includes(word));
}

/**
 * The heaviest vehicle (GVM, kg) a South African licence code allows: B/EB up to 3 500 kg, C1/EC1
 * up to 16 000 kg, C/EC above; A/A1 are motorcycles. A licence lists several codes.
 */
const CODE_MAX_GVM_KG: Record<string, number> = {
  A1: 0,
  A: 0,
  B: 3_500,
  EB: 3_500,
  C1: 16_000,
  EC1: 16_000,
  C: Number.POSITIVE_INFINITY,
  EC: Number.POSITIVE_INFINITY,
};

export function licenceMaxGvmKg(vehicleCode: string | null): number | null {
  const codes = (vehicleCode?.toUpperCase().match(/\b(?:EC1|EC|EB|C1|A1|A|B|C)\b/g) ?? []).map(
    (code) => CODE_MAX_GVM_KG[code] ?? 0,
  );
  return codes.length > 0 ? Math.max(...codes) : null;
}

/** Kilograms from a printed mass ("16 500", "16500 kg"); null when unreadable. */
const kilograms = (text: string | null) => {
  const digits = text?.replace(/[\s,]/g, '').match(/^\d{3,6}/)?.[0];
  return digits ? Number(digits) : null;
};

export type CrossCheckInput = {
  plateNumber: string;
  readings: CitedReadings;
  /** The registered driver of the approved vehicle, when the plate is on the register. */
  registeredDriverName: string | null;
  /** The site's calendar day, YYYY-MM-DD: a document is valid through its expiry day. */
  today: string;
};

export function crossCheckWarnings({
  plateNumber,
  readings,
  registeredDriverName,
  today,
}: CrossCheckInput): EntryWarning[] {
  const warnings: EntryWarning[] = [];
  const { disc, identity, licence, passport, ticket } = readings;

  // Plate = disc registration = ticket vehicle.
  const plates = [
    { label: 'plate', field: 'plateNumber', value: plateNumber },
    { label: 'licence disc', field: 'licenceDisc.licenceNumber', value: disc?.plate ?? null },
    {
      label: 'weighbridge ticket',
      field: 'weighbridgeTicket.vehicleReg',
      value: ticket?.vehicleReg ?? null,
    },
  ]
    .map((source) => ({ ...source, plate: source.value ? normalisePlate(source.value) : '' }))
    .filter((source) => source.plate !== '');
  const scanned = plates[0];
  for (const other of plates.slice(1)) {
    if (scanned && other.plate !== scanned.plate)
      warnings.push({
        code: 'plate_mismatch',
        severity: 'warning',
        message: `The ${other.label} is for ${other.plate}, but the plate reads ${scanned.plate}.`,
        fields: [scanned.field, other.field],
      });
  }

  // Names on licence = ID = passport = registered driver.
  const named: NamedSource[] = [
    licence?.nameOnCard && {
      label: 'driving licence',
      field: 'driversLicence.nameOnCard',
      words: nameWords(licence.nameOnCard),
      surname: null,
    },
    identity?.surname && {
      label: 'ID document',
      field: 'identityDocument.surname',
      words: nameWords(identity.givenNames, identity.surname),
      surname: nameWords(identity.surname),
    },
    passport?.surname && {
      label: 'passport',
      field: 'passport.surname',
      words: nameWords(passport.givenNames, passport.surname),
      surname: nameWords(passport.surname),
    },
    registeredDriverName && {
      label: 'registered driver',
      field: 'approvedVehicle.driverName',
      words: nameWords(registeredDriverName),
      surname: null,
    },
  ].filter((source): source is NamedSource => Boolean(source) && source !== '');
  for (let i = 0; i < named.length; i++) {
    for (let j = i + 1; j < named.length; j++) {
      const [a, b] = [named[i], named[j]];
      if (a && b && !namesAgree(a, b))
        warnings.push({
          code: 'name_mismatch',
          severity: 'warning',
          message: `The name on the ${a.label} (${a.words.join(' ')}) does not match the ${b.label} (${b.words.join(' ')}).`,
          fields: [a.field, b.field],
        });
    }
  }
  // Licence cards print the ID number after a two-digit country code ("02/8001015009087").
  const licenceId = licence?.idNumber && cleanReadIdNumber(licence.idNumber);
  const documentId = identity?.identityNumber && cleanReadIdNumber(identity.identityNumber);
  if (licenceId && documentId && licenceId !== documentId)
    warnings.push({
      code: 'name_mismatch',
      severity: 'warning',
      message: `The ID number on the driving licence (${licenceId}) does not match the ID document (${documentId}).`,
      fields: ['driversLicence.idNumber', 'identityDocument.identityNumber'],
    });

  // Document expiry: valid through the printed day.
  const expiries = [
    { label: 'Licence disc', field: 'licenceDisc.dateOfExpiry', value: disc?.dateOfExpiry },
    { label: 'Driving licence', field: 'driversLicence.validTo', value: licence?.validTo },
    {
      label: 'Professional driving permit (PrDP)',
      field: 'driversLicence.prdpExpiry',
      value: licence?.prdpExpiry,
    },
    { label: 'ID document', field: 'identityDocument.dateOfExpiry', value: identity?.dateOfExpiry },
    { label: 'Passport', field: 'passport.expiryDate', value: passport?.expiryDate },
  ];
  for (const { label, field, value } of expiries) {
    const expiry = parseDocumentDate(value ?? null);
    if (expiry && expiry < today)
      warnings.push({
        code: 'document_expired',
        severity: 'critical',
        message: `${label} expired on ${expiry}.`,
        fields: [field],
      });
  }

  // Licence code vs vehicle: the disc's GVM must be within what the licence codes allow.
  const maxGvm = licenceMaxGvmKg(licence?.vehicleCode ?? null);
  const gvm = kilograms(disc?.gvm ?? null);
  if (maxGvm !== null && gvm !== null && gvm > maxGvm)
    warnings.push({
      code: 'licence_code_insufficient',
      severity: 'warning',
      message: `The licence codes (${licence?.vehicleCode}) do not cover a vehicle of ${gvm} kg GVM.`,
      fields: ['driversLicence.vehicleCode', 'licenceDisc.gvm'],
    });

  return warnings;
}

export type DriverDetails = {
  driverName: string | null;
  driverSurname: string | null;
  driverIdNumber: string | null;
  driverPhone1: string | null;
  driverPhone2: string | null;
  driverPhone3: string | null;
  driverPassportNumber: string | null;
};

/**
 * Spec §5 precedence, on the server from the cited documents: the name on the driving licence
 * wins, then the ID document's given names (with its surname) only if no name exists (then the
 * passport's); the ID document's ID number wins over the licence's; the ID document's phone1
 * before the licence's phones, then the phone the client sent. What the client sent fills only
 * what no document gives; a client value the documents contradict is replaced, with a warning.
 */
export function driverDetails(
  readings: CitedReadings,
  sent: DriverDetails,
): { details: DriverDetails; warnings: EntryWarning[] } {
  const { identity, licence, passport } = readings;
  let name: Pick<DriverDetails, 'driverName' | 'driverSurname'> | null = null;
  if (licence?.nameOnCard) name = { driverName: licence.nameOnCard, driverSurname: null };
  else if (identity?.givenNames || identity?.surname)
    name = { driverName: identity.givenNames, driverSurname: identity.surname };
  else if (passport?.givenNames || passport?.surname)
    name = { driverName: passport.givenNames, driverSurname: passport.surname };

  const readId = identity?.identityNumber ?? licence?.idNumber;
  const idNumber = (readId && cleanReadIdNumber(readId)) || null;
  const phones = [
    ...new Set(
      [
        identity?.phone1,
        licence?.phone1,
        licence?.phone2,
        licence?.phone3,
        identity?.phone2,
        sent.driverPhone1,
        sent.driverPhone2,
        sent.driverPhone3,
      ].filter((phone): phone is string => Boolean(phone)),
    ),
  ];
  const fromDocuments: Partial<DriverDetails> = {
    ...(name ?? {}),
    ...(idNumber ? { driverIdNumber: idNumber } : {}),
    ...(passport?.passportNumber ? { driverPassportNumber: passport.passportNumber } : {}),
  };
  const details: DriverDetails = {
    ...sent,
    ...fromDocuments,
    driverPhone1: phones[0] ?? null,
    driverPhone2: phones[1] ?? null,
    driverPhone3: phones[2] ?? null,
  };
  const replaced = (Object.keys(fromDocuments) as (keyof DriverDetails)[]).filter(
    (field) => sent[field] !== null && sent[field] !== details[field],
  );
  const warnings: EntryWarning[] =
    replaced.length > 0
      ? [
          {
            code: 'driver_detail_replaced',
            severity: 'info',
            message: `The cited documents give a different ${replaced.join(', ')} than was sent; the documents' values are recorded.`,
            fields: replaced,
          },
        ]
      : [];
  return { details, warnings };
}
