import type { GuideShape } from '@/components/camera/guide';
import type { OcrResponse, OcrType } from '@boomgate/contracts/ocr';
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

export type TabKey = 'plate' | 'licence' | 'id' | 'face' | 'weighbridge';

export type LabelledField = { label: string; value: string };

export type TabDefinition = {
  key: TabKey;
  label: string;
  ocrType: OcrType;
  optional: boolean;
  /** The noun in 'Existing {noun} Data'. */
  existingNoun: string;
  captureLabel: string;
  guide: GuideShape;
};

/** Spec §2: the dialog's tabs, in order. Only the weighbridge ticket is optional. */
export const TABS: readonly TabDefinition[] = [
  {
    key: 'plate',
    label: 'Number Plate',
    ocrType: 'plate',
    optional: false,
    existingNoun: 'Plate',
    captureLabel: 'Capture Number Plate',
    guide: 'wide',
  },
  {
    key: 'licence',
    label: "Driver's License",
    ocrType: 'license',
    optional: false,
    existingNoun: 'License',
    captureLabel: "Capture Driver's License",
    guide: 'card',
  },
  {
    key: 'id',
    label: 'ID Document',
    ocrType: 'id',
    optional: false,
    existingNoun: 'ID',
    captureLabel: 'Capture ID Document',
    guide: 'card',
  },
  {
    key: 'face',
    label: 'Face Capture',
    ocrType: 'face',
    optional: false,
    existingNoun: 'Face',
    captureLabel: 'Capture Face',
    guide: 'oval',
  },
  {
    key: 'weighbridge',
    label: 'Weighbridge Ticket',
    ocrType: 'weighbridge',
    optional: true,
    existingNoun: 'Weighbridge Ticket',
    captureLabel: 'Capture Weighbridge Ticket',
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
