import { CreatedIdSchema, type LicenceDiscBody } from '@boomgate/contracts/documents';

import { request } from '@/lib/api-client';
import { imageOrCapture } from '@/lib/api/captures';
import {
  hasExtractedData,
  type OcrFields,
  ocrFields,
  readDocument,
  textField,
} from '@/lib/api/ocr';

/** POST /api/licence-disc: saves a disc as read; entries cite it by the id answered. */
export function saveLicenceDisc(body: LicenceDiscBody) {
  return request('POST', '/api/licence-disc', { schema: CreatedIdSchema, body });
}

/** A field as text no longer than the server accepts for it. */
const text = (fields: OcrFields, max: number, ...keys: string[]) =>
  textField(fields, ...keys)?.slice(0, max) ?? null;

/** A licence disc's fields (spec §3 "disk") as the save route takes them. */
export function discFromFields(fields: OcrFields) {
  return {
    discNumber: text(fields, 40, 'discNumber'),
    licenceNumber: text(fields, 40, 'licenceNumber'),
    vehicleRegisterNo: text(fields, 40, 'vehicleRegisterNo', 'vehRegisterNo'),
    vin: text(fields, 40, 'vin'),
    engineNo: text(fields, 40, 'engineNo'),
    make: text(fields, 120, 'make'),
    description: text(fields, 120, 'description'),
    fees: text(fields, 40, 'fees'),
    gvm: text(fields, 40, 'gvm'),
    tare: text(fields, 40, 'tare'),
    dateOfTest: text(fields, 40, 'dateOfTest'),
    persons: text(fields, 40, 'persons'),
    dateOfExpiry: text(fields, 40, 'dateOfExpiry'),
  } satisfies Omit<LicenceDiscBody, 'discImage' | 'vehRegisterNo'>;
}
export type Disc = ReturnType<typeof discFromFields>;

/** A licence disc read and saved: the record entries cite, the photo, its capture and the reading. */
export type SavedDisc = {
  recordId: string;
  image: string;
  captureId: string | null;
  reading: Disc;
};

/**
 * Why a disc was not saved: `unread` (the engine failed or found no disc data) or `unsaved` (the
 * save was refused; `cause` says why).
 */
export class LicenceDiscFailure extends Error {
  constructor(
    readonly reason: 'unread' | 'unsaved',
    override readonly cause?: unknown,
  ) {
    super(reason === 'unread' ? 'The licence disc was not read' : 'The licence disc was not saved');
  }
}

/**
 * Reads a licence disc photo (OCR type `disk`) and saves what was read, citing the capture the
 * server stored the photo as (issue 14), so the photo goes up once. Real Gate's disc step and
 * every trailer disc (Real Gate, the incoming feed) go through here. Throws LicenceDiscFailure.
 */
export async function readAndSaveLicenceDisc(image: string): Promise<SavedDisc> {
  let fields: OcrFields = {};
  let captureId: string | null = null;
  try {
    const response = await readDocument(image, 'disk');
    captureId = response.captureId;
    if (response.ok) fields = ocrFields(response);
  } catch (error) {
    // A 422 (nothing found), a failed engine or a reply that holds no JSON: not read.
    throw new LicenceDiscFailure('unread', error);
  }
  const reading = discFromFields(fields);
  if (!hasExtractedData(reading)) throw new LicenceDiscFailure('unread');
  try {
    const { id } = await saveLicenceDisc({
      ...reading,
      ...imageOrCapture('discImage', image, captureId),
    });
    return { recordId: id, image, captureId, reading };
  } catch (error) {
    throw new LicenceDiscFailure('unsaved', error);
  }
}
