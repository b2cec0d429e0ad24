import type { GuideShape } from '@/components/camera/guide';
import type { CorrectionInput } from '@boomgate/contracts/corrections';
import type { OcrResponse, OcrType } from '@boomgate/contracts/ocr';
import { normalisePlate } from '@boomgate/contracts/plates';
import type { ReadingType } from '@boomgate/contracts/readings';
import {
  type CapturedDocuments,
  cleanExtractedIdNumber,
  type ExistingRequestData,
  type IncomingRequestEntry,
  missingRequirements,
  type MissingRequirement,
  buildCompletionPayload,
  type ProcessRequestBody,
} from '@boomgate/contracts/webhooks';

import {
  hasExtractedData,
  type OcrFields,
  ocrFields,
  plateFromOcr,
  textField,
} from '@/lib/api/ocr';
import { type ReadingEdits, correctionsOf, startEdits } from '@/lib/corrections';

export type TabKey = 'plate' | 'licence' | 'id' | 'face' | 'weighbridge';

export type LabelledField = { label: string; value: string };

export type TabDefinition = {
  key: TabKey;
  label: string;
  ocrType: OcrType;
  optional: boolean;
  guide: GuideShape;
};

/**
 * Spec §2: the dialog's tabs, in order. Only the weighbridge ticket is optional. The label is the
 * spec's English name (missing requirements use it); the screen's texts are `incomingFeed:tabs.<key>`.
 */
export const TABS: readonly TabDefinition[] = [
  {
    key: 'plate',
    label: 'Number Plate',
    ocrType: 'plate',
    optional: false,
    guide: 'wide',
  },
  {
    key: 'licence',
    label: "Driver's License",
    ocrType: 'license',
    optional: false,
    guide: 'card',
  },
  {
    key: 'id',
    label: 'ID Document',
    ocrType: 'id',
    optional: false,
    guide: 'card',
  },
  {
    key: 'face',
    label: 'Face Capture',
    ocrType: 'face',
    optional: false,
    guide: 'oval',
  },
  {
    key: 'weighbridge',
    label: 'Weighbridge Ticket',
    ocrType: 'weighbridge',
    optional: true,
    guide: 'page',
  },
];

const fieldList = (pairs: [string, string | null | undefined][]): LabelledField[] =>
  pairs.flatMap(([label, value]) => (value?.trim() ? [{ label, value: value.trim() }] : []));

export const fullName = (name: string | null, surname: string | null) =>
  [name, surname].filter((part) => part?.trim()).join(' ');

/** What the incoming request already holds for a tab, as labelled fields (empty: nothing). */
export function existingFields(entry: IncomingRequestEntry, tab: TabKey): LabelledField[] {
  switch (tab) {
    case 'plate':
      return fieldList([['Plate Number', entry.plateNumber]]);
    case 'licence':
      return entry.driverName?.trim()
        ? fieldList([['Driver Name', fullName(entry.driverName, entry.driverSurname)]])
        : [];
    case 'id':
      return fieldList([['ID Number', entry.driverIdNumber]]);
    case 'face':
      return [];
    case 'weighbridge':
      return fieldList([['Ticket ID', entry.weighbridgeTicketId]]);
  }
}

/** Spec §2: the first tab lacking data and not optional opens by default. */
export function defaultTab(entry: IncomingRequestEntry): TabKey {
  return (
    TABS.find((tab) => !tab.optional && existingFields(entry, tab.key).length === 0)?.key ?? 'plate'
  );
}

export function existingData(entry: IncomingRequestEntry): ExistingRequestData {
  return {
    plateNumber: entry.plateNumber,
    driverName: entry.driverName,
    driverSurname: entry.driverSurname,
    driverIdNumber: entry.driverIdNumber,
    driverPhone1: entry.driverPhone1,
    transportName: entry.transportName,
  };
}

/**
 * Spec §5: an ID number read from a document has slashes removed and its first two characters
 * dropped. Licence cards print it with a two-digit prefix ("02/8001015009087"), so the prefix is
 * dropped only when there is one (a slash, or 15 digits); a plain 13-digit read is kept whole.
 */
export function cleanIdNumber(raw: string | null): string | null {
  if (!raw) return null;
  const compact = raw.replace(/\s/g, '');
  const digits = compact.replaceAll('/', '');
  const cleaned =
    compact.includes('/') || /^\d{15}$/.test(digits) ? cleanExtractedIdNumber(compact) : digits;
  return cleaned || null;
}

export type Capture = {
  /** The document read for the precedence rules (plate, licence, id); null for face and ticket. */
  document: CapturedDocuments[keyof CapturedDocuments];
  fields: LabelledField[];
};

const humanise = (key: string) =>
  key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/^./, (char) => char.toUpperCase());

function genericFields(fields: OcrFields): LabelledField[] {
  return Object.entries(fields).flatMap(([key, value]) => {
    const text = textField({ [key]: value }, key);
    return text ? [{ label: humanise(key), value: text }] : [];
  });
}

/**
 * Spec §4: a read counts only when there is no error and the data is a non-empty object or a
 * non-blank string. Returns null when it does not count.
 */
export function captureFromRead(tab: TabKey, response: OcrResponse): Capture | null {
  if (!response.ok) return null;
  const fields = ocrFields(response);
  if (!hasExtractedData(fields) && !hasExtractedData(response.text)) return null;
  switch (tab) {
    case 'plate': {
      const plate = plateFromOcr(response);
      if (!plate) return null;
      return {
        document: { registrationNumber: plate },
        fields: [{ label: 'Plate Number', value: response.displayPlate ?? plate }],
      };
    }
    case 'licence': {
      const licence = {
        nameOnCard: textField(fields, 'nameOnCard'),
        licenceNumber: textField(fields, 'licenceNumber'),
        idNumber: cleanIdNumber(textField(fields, 'idNumber')),
        validTo: textField(fields, 'validTo'),
        phone1: textField(fields, 'phone1'),
        phone2: textField(fields, 'phone2'),
        phone3: textField(fields, 'phone3'),
      };
      return {
        document: licence,
        fields: fieldList([
          ['Name on Card', licence.nameOnCard],
          ['Licence Number', licence.licenceNumber],
          ['ID Number', licence.idNumber],
          ['Valid To', licence.validTo],
        ]),
      };
    }
    case 'id': {
      const id = {
        givenNames: textField(fields, 'givenNames'),
        surname: textField(fields, 'surname'),
        identityNumber: cleanIdNumber(textField(fields, 'identityNumber', 'idNumber')),
        dateOfBirth: textField(fields, 'dateOfBirth'),
        sex: textField(fields, 'sex'),
        phone1: textField(fields, 'phone1'),
      };
      return {
        document: id,
        fields: fieldList([
          ['Given Names', id.givenNames],
          ['Surname', id.surname],
          ['ID Number', id.identityNumber],
          ['Date of Birth', id.dateOfBirth],
          ['Sex', id.sex],
        ]),
      };
    }
    case 'face':
    case 'weighbridge':
      return { document: null, fields: genericFields(fields) };
  }
}

export type Captures = Partial<Record<TabKey, Capture>>;

export function capturedDocuments(captures: Captures): CapturedDocuments {
  return {
    plate: (captures.plate?.document as CapturedDocuments['plate']) ?? null,
    licence: (captures.licence?.document as CapturedDocuments['licence']) ?? null,
    id: (captures.id?.document as CapturedDocuments['id']) ?? null,
  };
}

/**
 * What still stops completion. Spec §5 (`missingRequirements`), plus the payload check: a licence
 * read without a name (and no name from the ID) still leaves the driver name missing.
 */
export function completion(
  entry: IncomingRequestEntry,
  captures: Captures,
): {
  missing: MissingRequirement[];
  payload: ProcessRequestBody;
  payloadMissing: MissingRequirement[];
} {
  const existing = existingData(entry);
  const documents = capturedDocuments(captures);
  const missing = missingRequirements(existing, documents);
  const payload = buildCompletionPayload(existing, documents);
  const payloadMissing = [...missing];
  if (!payload.plateNumber && !payloadMissing.includes('Number Plate')) {
    payloadMissing.push('Number Plate');
  }
  if (!payload.driverName && !payloadMissing.includes("Driver's License")) {
    payloadMissing.push("Driver's License");
  }
  if (!payload.driverIdNumber && !payloadMissing.includes('ID Document')) {
    payloadMissing.push('ID Document');
  }
  const order: MissingRequirement[] = ['Number Plate', "Driver's License", 'ID Document'];
  payloadMissing.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  return { missing, payload, payloadMissing };
}

// ---------------------------------------------------------------------------------------------
// Issue 15: every extracted field editable, typed where the read failed, sent with provenance.
// ---------------------------------------------------------------------------------------------

export type EditableField = { name: string; label: string };

/** The fields of each tab's reading the dialog lets the back office edit (the face has none). */
export const EDITABLE: Partial<
  Record<TabKey, { readingType: ReadingType; fields: readonly EditableField[] }>
> = {
  plate: { readingType: 'plate', fields: [{ name: 'plateNumber', label: 'Plate Number' }] },
  licence: {
    readingType: 'license',
    fields: [
      { name: 'nameOnCard', label: 'Name on Card' },
      { name: 'licenceNumber', label: 'Licence Number' },
      { name: 'idNumber', label: 'ID Number' },
      { name: 'validTo', label: 'Valid To' },
    ],
  },
  id: {
    readingType: 'id',
    fields: [
      { name: 'givenNames', label: 'Given Names' },
      { name: 'surname', label: 'Surname' },
      { name: 'identityNumber', label: 'ID Number' },
      { name: 'dateOfBirth', label: 'Date of Birth' },
      { name: 'sex', label: 'Sex' },
    ],
  },
  weighbridge: {
    readingType: 'weighbridge',
    fields: [
      { name: 'ticketNumber', label: 'Ticket Number' },
      { name: 'vehicleReg', label: 'Vehicle Registration' },
      { name: 'netWeight', label: 'Net Weight' },
    ],
  },
};

/** One tab's editable reading: the fields as edited and the values they started from. */
export type TabEdits = { edits: ReadingEdits; initial: Record<string, string> };

/**
 * The edits a read starts: the typed reading's fields (null when the read failed, or "Enter
 * manually": every field typed). `base` fills a field the typed reading lacks (older flat fields).
 * The capture is cited only when it was read as this tab's reading type.
 */
export function startTabEdits(
  tab: TabKey,
  response: Pick<OcrResponse, 'captureId' | 'reading'> | null,
  base: Capture | null,
): TabEdits | null {
  const editable = EDITABLE[tab];
  if (!editable) return null;
  const reading = response?.reading?.type === editable.readingType ? response.reading : null;
  const fallback = (base?.document ?? {}) as Record<string, unknown>;
  const edits = startEdits(
    editable.readingType,
    reading ? (response?.captureId ?? null) : null,
    reading,
    editable.fields.map((field) => field.name),
    fallback,
  );
  const initial = Object.fromEntries(
    Object.entries(edits.fields).map(([name, field]) => [name, field.value]),
  );
  return { edits, initial };
}

const blankToNull = (value: string | undefined) => value?.trim() || null;

/** The tab's capture with the edited values in place of the read ones. */
export function captureFromEdits(
  tab: TabKey,
  { edits }: TabEdits,
  base: Capture | null,
): Capture | null {
  const value = (name: string) => blankToNull(edits.fields[name]?.value);
  const editable = EDITABLE[tab];
  const fields = (editable?.fields ?? []).flatMap(({ name, label }) => {
    const text = value(name);
    return text ? [{ label, value: text }] : [];
  });
  switch (tab) {
    case 'plate': {
      const plate = value('plateNumber');
      return plate ? { document: { registrationNumber: normalisePlate(plate) }, fields } : null;
    }
    case 'licence':
      return {
        document: {
          ...(base?.document as object | null),
          nameOnCard: value('nameOnCard'),
          licenceNumber: value('licenceNumber'),
          idNumber: cleanIdNumber(value('idNumber')),
          validTo: value('validTo'),
        } as CapturedDocuments['licence'],
        fields,
      };
    case 'id':
      return {
        document: {
          ...(base?.document as object | null),
          givenNames: value('givenNames'),
          surname: value('surname'),
          identityNumber: cleanIdNumber(value('identityNumber')),
          dateOfBirth: value('dateOfBirth'),
          sex: value('sex'),
        } as CapturedDocuments['id'],
        fields,
      };
    case 'face':
    case 'weighbridge':
      return fields.length > 0 ? { document: null, fields } : base;
  }
}

/**
 * What goes with the completion: fields changed from what was read, typed where nothing was,
 * uncertain ones confirmed. A value carried over from the read's older flat fields and left as
 * it was is not the back office's typing, so it is not sent as such.
 */
export function tabCorrections({ edits, initial }: TabEdits): CorrectionInput[] {
  return correctionsOf(edits).filter((correction) => {
    const field = edits.fields[correction.field];
    return (
      field?.read !== undefined ||
      correction.typedValue !== (initial[correction.field] ?? '').trim()
    );
  });
}

/**
 * Issue 21: the captures read in the dialog that the completion cites, so the server judges its
 * own stored readings: the ticket's trailers against the rig, and the licence and ID document
 * with the document rules. A tab typed by hand ("Enter manually") cites no capture.
 */
export function citedCaptures(
  tabEdits: Partial<Record<TabKey, TabEdits>>,
): Pick<
  ProcessRequestBody,
  'weighbridgeTicketCaptureId' | 'driversLicenceCaptureId' | 'identityDocumentCaptureId'
> {
  const cited = {
    weighbridgeTicketCaptureId: tabEdits.weighbridge?.edits.captureId,
    driversLicenceCaptureId: tabEdits.licence?.edits.captureId,
    identityDocumentCaptureId: tabEdits.id?.edits.captureId,
  };
  return Object.fromEntries(Object.entries(cited).filter(([, captureId]) => Boolean(captureId)));
}
