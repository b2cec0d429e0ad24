import type { RuleOutcome } from '@boomgate/contracts/entry-checks';
import type { IncomingRuleEvidence } from '@boomgate/contracts/webhooks';

import type { DocumentRuleFacts } from '@/modules/document-rules';
import type { CitedReadings } from '@/modules/documents';
import { crossCheckWarnings } from '@/modules/entry-logs';

/** What a completion states about the driver (the dialog's licence and ID scans, as kept). */
export type CompletionDriver = {
  plateNumber: string;
  driverName: string;
  driverSurname: string | null;
  driverIdNumber: string;
  driverLicenseNumber: string | null;
  driverLicenseValidTo: string | null;
};

/** A capture's stored reading fields, as `captures.findReading` keeps them ({value, …} each). */
export type StoredReadingFields = Record<string, { value?: unknown } | undefined>;

/** A dialog capture the server read: its id and stored fields. */
export type CompletionCapture = { captureId: string; fields: StoredReadingFields };

type Text = string | null;

/** A stored field as trimmed text (a list joined with ","), null when absent or blank. */
function field(fields: StoredReadingFields, ...names: string[]): Text {
  for (const name of names) {
    const value = fields[name]?.value;
    const text = Array.isArray(value)
      ? value.filter((item) => typeof item === 'string' && item.trim()).join(',')
      : typeof value === 'string' || typeof value === 'number'
        ? String(value).trim()
        : '';
    if (text) return text;
  }
  return null;
}

/** The licence as the rules read it, from a `license` reading. */
function licenceFromReading(fields: StoredReadingFields): NonNullable<CitedReadings['licence']> {
  const initials = field(fields, 'initials');
  const surname = field(fields, 'surname');
  return {
    nameOnCard:
      field(fields, 'nameOnCard') ?? ([initials, surname].filter(Boolean).join(' ') || null),
    idNumber: field(fields, 'idNumber'),
    validTo: field(fields, 'validTo'),
    prdpExpiry: field(fields, 'prdpExpiry'),
    prdpCode: field(fields, 'prdpCodes'),
    vehicleCode: field(fields, 'vehicleCodes'),
    phone1: null,
    phone2: null,
    phone3: null,
  };
}

/** The ID document as the rules read it, from an `id` reading. */
function identityFromReading(fields: StoredReadingFields): NonNullable<CitedReadings['identity']> {
  return {
    identityNumber: field(fields, 'identityNumber'),
    givenNames: field(fields, 'givenNames'),
    surname: field(fields, 'surname'),
    dateOfExpiry: field(fields, 'dateOfExpiry'),
    phone1: null,
    phone2: null,
  };
}

/** What the completion's document rules judge, with where each document came from. */
export type CompletionDocuments = {
  readings: CitedReadings;
  /** The driver's ID number the rules check (checksum, induction); stated when none was read. */
  idNumber: string | null;
  idNumberStated: boolean;
  evidence: IncomingRuleEvidence[];
};

/**
 * Issue 21, pure: the documents an incoming-feed completion's rules judge. A document captured in
 * the Process Vehicle Entry dialog is judged by the reading the server stored for its capture
 * (cited as evidence by the capture id), never by what the client states; only a document with
 * no capture falls back to the completion's stated details, marked `stated`. The ID number
 * checked is the ID document's, else the licence's (both as read), else the stated one.
 */
export function completionDocuments(
  completion: CompletionDriver,
  captured: { licence: CompletionCapture | null; identity: CompletionCapture | null },
): CompletionDocuments {
  const hasStatedLicence = Boolean(
    completion.driverLicenseNumber || completion.driverLicenseValidTo,
  );
  const licence = captured.licence
    ? licenceFromReading(captured.licence.fields)
    : hasStatedLicence
      ? {
          // The licence card's end date as the completion states it.
          nameOnCard: null,
          idNumber: null,
          validTo: completion.driverLicenseValidTo,
          prdpExpiry: null,
          prdpCode: null,
          vehicleCode: null,
          phone1: null,
          phone2: null,
          phone3: null,
        }
      : null;
  const identity = captured.identity
    ? identityFromReading(captured.identity.fields)
    : {
        // The driver's name and ID number as the completion states them: compared with the
        // registered driver like an ID document's.
        identityNumber: completion.driverIdNumber,
        givenNames: completion.driverName,
        surname: completion.driverSurname || completion.driverName,
        dateOfExpiry: null,
        phone1: null,
        phone2: null,
      };
  const evidence: IncomingRuleEvidence[] = [
    ...(captured.licence
      ? [
          {
            document: 'driversLicence' as const,
            source: 'reading' as const,
            captureId: captured.licence.captureId,
          },
        ]
      : hasStatedLicence
        ? [{ document: 'driversLicence' as const, source: 'stated' as const, captureId: null }]
        : []),
    captured.identity
      ? { document: 'identityDocument', source: 'reading', captureId: captured.identity.captureId }
      : { document: 'identityDocument', source: 'stated', captureId: null },
  ];
  // The ID number checked: the ID document's as read, else the licence's, else the stated one.
  const readIdNumber =
    (captured.identity ? identity.identityNumber : null) ??
    (captured.licence ? (licence?.idNumber ?? null) : null);
  return {
    readings: { disc: null, identity, licence, passport: null, ticket: null },
    idNumber: readIdNumber ?? completion.driverIdNumber,
    idNumberStated: readIdNumber === null,
    evidence,
  };
}

/**
 * The document rules' facts for the completion's documents (`completionDocuments`), through the
 * gate's own cross-checks: the licence's end date (licence_expired), the ID number's checksum
 * (id_number_invalid), the driver's induction, and the names against the approved vehicle's
 * registered driver (driver_name_mismatch). The rules about a disc, a PrDP or a licence code need
 * the vehicle's disc, which the completion does not cite, so they find nothing to fail (as at the
 * gate when that document is not scanned); no passport is captured in the dialog.
 */
export function completionDocumentFacts(
  completion: Pick<CompletionDriver, 'plateNumber'>,
  documents: CompletionDocuments,
  context: {
    registeredDriverName: string | null;
    today: string;
    induction: DocumentRuleFacts['induction'];
  },
): DocumentRuleFacts {
  return {
    crossChecks: crossCheckWarnings({
      plateNumber: completion.plateNumber,
      readings: documents.readings,
      registeredDriverName: context.registeredDriverName,
      today: context.today,
    }),
    gvmKg: null,
    licenceCited: documents.evidence.some(
      (item) => item.document === 'driversLicence' && item.source === 'reading',
    ),
    prdpExpiry: documents.readings.licence?.prdpExpiry ?? null,
    prdpCodes: documents.readings.licence?.prdpCode ?? null,
    driverIdNumber: documents.idNumber,
    induction: context.induction,
  };
}

/** Whether a rule's verdict rests on a stated detail (the rules the completion can decide). */
const RESTS_ON_STATED: Record<
  string,
  (documents: CompletionDocuments, stated: ReadonlySet<string>) => boolean
> = {
  licence_expired: (_documents, stated) => stated.has('driversLicence'),
  id_number_invalid: (documents) => documents.idNumberStated,
  induction_missing_or_expired: (documents) => documents.idNumberStated,
  driver_name_mismatch: (_documents, stated) => stated.has('identityDocument'),
};

export const STATED_MARK = '(as stated with the completion: no document was read)';

/**
 * A rule's verdict that rests on a stated detail (no reading of that document) says so: never
 * silently taken for a document's reading.
 */
export function markStated(
  outcomes: readonly RuleOutcome[],
  documents: CompletionDocuments,
): RuleOutcome[] {
  const stated = new Set(
    documents.evidence.filter((item) => item.source === 'stated').map((item) => item.document),
  );
  return outcomes.map((outcome) => {
    return RESTS_ON_STATED[outcome.code]?.(documents, stated)
      ? { ...outcome, message: `${outcome.message} ${STATED_MARK}` }
      : outcome;
  });
}
