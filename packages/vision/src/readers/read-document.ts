import {
  DOCUMENT_BARCODE_FORMATS,
  ID_BOOK_BARCODE_FORMATS,
  findBarcodes,
} from '../barcode/read-barcodes';
import { englishHalf, extractDiscPrintedFields, isDiscPayload, parseDisc } from '../documents/disc';
import { extractIdFront, extractLicenceFront } from '../documents/id-front';
import { parseIdBookBarcode, parseSmartId } from '../documents/sa-id';
import { SadlError, isSadlPayload, readSadl } from '../documents/sadl';
import { agreeFields, allCertain } from '../documents/field-agreement';
import { extractWeighbridgeTicket } from '../documents/weighbridge';
import { type RawImage, decodeImage, fromRaw } from '../image/decode-image';
import { PSM, ocrWithTesseract } from '../ocr/tesseract';
import { assertDocumentType } from '../document-type';
import type { Barcode, DocumentType, ReadResult } from '../types';

import { readPassport } from './read-passport';
import { readPlate } from './read-plate';
import type { ReaderContext } from './reader-context';

/**
 * Document OCR: grey, at least ~1600 px wide so 10 pt print is ~30 px tall, LSTM engine. The
 * `confirming` reading is a second, independent preprocessing of the same page (binarised, so
 * tesseract's own thresholding sees other edges): fields without a checksum are certain only when
 * both readings extract the same value.
 */
async function ocrDocument(image: RawImage, { confirming = false } = {}): Promise<string> {
  const width = Math.max(1600, Math.min(2400, image.width));
  let pipeline = fromRaw(image).greyscale().resize({ width }).normalise();
  if (confirming) pipeline = pipeline.threshold(150);
  const png = await pipeline.png().toBuffer();
  const { text } = await ocrWithTesseract(png, { mode: 'document', psm: PSM.AUTO });
  return text;
}

const failure = (type: DocumentType, error: string, text = ''): ReadResult => ({
  ok: false,
  type,
  error,
  text,
  fields: {},
  confidence: 0,
});

/** A disc read from its printed text alone (no barcode). */
function discTextFields(ocrText: string): Record<string, unknown> {
  const plate = /(?:licence\s*no|lisensienr)[^A-Z0-9]{0,10}([A-Z0-9 -]{5,12})/i.exec(ocrText)?.[1];
  const register = /\b([A-Z]{3}\d{3}[A-Z])\b/.exec(ocrText)?.[1];
  const vin = /\b([A-HJ-NPR-Z0-9]{17})\b/.exec(ocrText)?.[1];
  return {
    licenceNumber: plate?.replace(/[^A-Z0-9]/gi, '').toUpperCase() ?? null,
    vehicleRegisterNo: register ?? null,
    vin: vin ?? null,
    ...extractDiscPrintedFields(ocrText),
  };
}

async function readDisc(image: RawImage): Promise<ReadResult> {
  const barcodes = await findBarcodes(image, {
    formats: DOCUMENT_BARCODE_FORMATS,
    accept: (b) => b.some((x) => isDiscPayload(x.text)),
  });
  const payload = barcodes.find((b) => isDiscPayload(b.text));
  const disc = payload ? parseDisc(payload.text) : null;
  const ocrText = await ocrDocument(image);
  const printed = extractDiscPrintedFields(ocrText);
  if (!disc) {
    const plate = /(?:licence\s*no|lisensienr)[^A-Z0-9]{0,10}([A-Z0-9 -]{5,12})/i.exec(
      ocrText,
    )?.[1];
    const register = /\b([A-Z]{3}\d{3}[A-Z])\b/.exec(ocrText)?.[1];
    const vin = /\b([A-HJ-NPR-Z0-9]{17})\b/.exec(ocrText)?.[1];
    if (!plate && !register && !vin)
      return failure('disk', 'No licence disc barcode or disc text found.', ocrText);
    const fields = discTextFields(ocrText);
    const second = discTextFields(await ocrDocument(image, { confirming: true }));
    return {
      ok: true,
      type: 'disk',
      fields,
      ...agreeFields(fields, second),
      text: ocrText,
      source: 'ocr',
      confidence: 0.4,
      partial: true,
      warnings: ['The disc barcode could not be read; fields come from printed text.'],
    };
  }
  const barcodeFields = {
    licenceNumber: disc.licenceNumber,
    vehicleRegisterNo: disc.vehicleRegisterNumber,
    vin: disc.vin,
    engineNo: disc.engineNumber,
    make: disc.make,
    model: disc.model,
    description: englishHalf(disc.description),
    colour: englishHalf(disc.colour),
    dateOfExpiry: disc.expiryDate,
    controlNumber: disc.controlNumber,
    formCode: disc.formCode,
    isLengthValid: disc.isLengthValid,
  };
  const printedFields = {
    discNumber: printed.discNumber,
    tare: printed.tare,
    gvm: printed.gvm,
    persons: printed.persons,
    dateOfTest: printed.dateOfTest,
    fees: printed.fees,
  };
  // The printed-only fields come from one OCR reading: shown for the guard to confirm.
  const printedOnly = agreeFields(printedFields, null);
  const certain = allCertain(barcodeFields, disc.isLengthValid ? 0.99 : 0.8);
  return {
    ok: true,
    type: 'disk',
    uncertain: printedOnly.uncertain,
    fieldConfidence: { ...certain.fieldConfidence, ...printedOnly.fieldConfidence },
    fields: { ...barcodeFields, ...printedFields },
    text: payload!.text,
    source: 'barcode',
    confidence: disc.isLengthValid ? 0.99 : 0.8,
    ...(disc.isLengthValid
      ? {}
      : { warnings: ['The disc barcode length self-check fails: partial or unusual scan.'] }),
  };
}

async function readLicence(image: RawImage, ctx: ReaderContext): Promise<ReadResult> {
  const barcodes = await findBarcodes(image, {
    formats: DOCUMENT_BARCODE_FORMATS,
    accept: (b) => b.some((x) => isSadlPayload(x.bytes)),
  });
  const raw = barcodes.find((b) => isSadlPayload(b.bytes));
  let barcodeError: string | null = null;
  if (raw) {
    try {
      const record = readSadl(raw.bytes, ctx.sadlKeys);
      const fields = {
        ...record,
        nameOnCard: `${record.initials} ${record.surname}`.trim(),
        vehicleCode: record.vehicleCodes.join(', '),
      };
      return {
        ok: true,
        type: 'license',
        fields,
        ...allCertain(fields),
        text: Buffer.from(raw.bytes).toString('base64'),
        source: 'barcode',
        confidence: record.checks.isIdNumberValid ? 0.99 : 0.9,
      };
    } catch (error) {
      if (!(error instanceof SadlError)) throw error;
      barcodeError = error.message;
    }
  }
  // A temporary / learner's licence carries readable `%`-delimited text (sa-documents §2.10, low confidence).
  const temporary = barcodes.find((b) => /^%(TDL|LL)/.test(b.text));
  if (temporary) {
    const p = temporary.text.split('%');
    const fields = {
      licenceKind: p[1]?.startsWith('TDL') ? 'temporary' : 'learner',
      licenceNumber: p[5] ?? null,
      idNumber: p[7] ?? null,
      nameOnCard: p[8] ?? null,
    };
    return {
      ok: true,
      type: 'license',
      fields,
      ...allCertain(fields),
      text: temporary.text,
      source: 'barcode',
      confidence: 0.7,
    };
  }
  const text = await ocrDocument(image);
  const front = extractLicenceFront(text, ctx.now);
  if (!front.licenceNumber && !front.idNumber) {
    return failure('license', barcodeError ?? 'No licence barcode or licence text found.', text);
  }
  const fields = { ...front, vehicleCode: front.vehicleCodes.join(', ') };
  const again = extractLicenceFront(await ocrDocument(image, { confirming: true }), ctx.now);
  // The Luhn digit settles the ID number, and the date of birth it encodes.
  const idValid = front.idCheck?.isValid === true;
  return {
    ok: true,
    type: 'license',
    fields,
    ...agreeFields(
      fields,
      { ...again, vehicleCode: again.vehicleCodes.join(', ') },
      {
        verified: idValid ? ['idNumber', 'dateOfBirth'] : [],
        ignore: ['idCheck'],
      },
    ),
    text,
    source: 'ocr',
    confidence: front.idCheck?.isValid && front.licenceNumber ? 0.75 : 0.5,
    ...(barcodeError
      ? { warnings: [`Licence barcode found but unreadable: ${barcodeError}`] }
      : {}),
  };
}

async function readId(image: RawImage, ctx: ReaderContext): Promise<ReadResult> {
  const barcodes = await findBarcodes(image, {
    formats: [...DOCUMENT_BARCODE_FORMATS, ...ID_BOOK_BARCODE_FORMATS],
    accept: (b) =>
      b.some((x) => parseSmartId(x.text) !== null || parseIdBookBarcode(x.text) !== null),
    budgetMs: 1500,
  });
  for (const b of barcodes) {
    const card = parseSmartId(b.text, ctx.now);
    if (card) {
      const fields = { documentKind: 'smart-id-card', ...card };
      return {
        ok: true,
        type: 'id',
        fields,
        ...allCertain(fields),
        text: b.text,
        source: 'barcode',
        confidence: card.idCheck.isValid ? 0.99 : 0.85,
      };
    }
    const book = parseIdBookBarcode(b.text, ctx.now);
    if (book) {
      const fields = { documentKind: 'id-book', ...book };
      return {
        ok: true,
        type: 'id',
        fields,
        ...allCertain(fields),
        text: b.text,
        source: 'barcode',
        confidence: 0.95,
      };
    }
  }
  const text = await ocrDocument(image);
  const front = extractIdFront(text, ctx.now);
  if (!front.identityNumber) return failure('id', 'No ID barcode or valid ID number found.', text);
  const fields = { documentKind: 'ocr', ...front };
  const again = extractIdFront(await ocrDocument(image, { confirming: true }), ctx.now);
  // The Luhn digit settles the ID number; a date of birth or sex equal to what it encodes too.
  const id = front.idCheck;
  const verified = id?.isValid
    ? [
        'identityNumber',
        ...(front.dateOfBirth === id.dateOfBirth ? ['dateOfBirth'] : []),
        ...(front.sex === id.sex ? ['sex'] : []),
      ]
    : [];
  return {
    ok: true,
    type: 'id',
    fields,
    ...agreeFields(
      fields,
      { documentKind: 'ocr', ...again },
      {
        verified,
        ignore: ['idCheck', 'dates', 'documentKind'],
      },
    ),
    text,
    source: 'ocr',
    confidence: front.idCheck?.isValid ? 0.8 : 0.5,
  };
}

async function readWeighbridge(image: RawImage): Promise<ReadResult> {
  const text = await ocrDocument(image);
  const ticket = extractWeighbridgeTicket(text);
  const found = Object.values(ticket).filter(
    (v) => v !== null && !(Array.isArray(v) && v.length === 0),
  ).length;
  if (found <= 3) return failure('weighbridge', 'No weighbridge ticket fields found.', text);
  const warnings: string[] = [];
  if (ticket.isPartial) warnings.push('No ticket number found.');
  if (ticket.massCheck === 'mismatch') warnings.push('Gross − tare does not equal net.');
  const again = extractWeighbridgeTicket(await ocrDocument(image, { confirming: true }));
  // gross − tare = net to the kilogram settles all three masses (any one misread digit breaks it).
  const massesExact =
    ticket.tareWeight !== null &&
    ticket.grossWeight !== null &&
    ticket.netWeight !== null &&
    ticket.grossWeight - ticket.tareWeight === ticket.netWeight &&
    ticket.massCheck === 'ok';
  return {
    ok: true,
    type: 'weighbridge',
    fields: { ...ticket, rawOcrText: text },
    ...agreeFields(
      { ...ticket },
      { ...again },
      {
        verified: massesExact ? ['tareWeight', 'grossWeight', 'netWeight'] : [],
        ignore: ['massCheck', 'isPartial'],
      },
    ),
    text,
    source: 'ocr',
    confidence: ticket.massCheck === 'ok' && !ticket.isPartial ? 0.85 : 0.6,
    partial: ticket.isPartial,
    ...(warnings.length ? { warnings } : {}),
  };
}

/** Reads one document from image bytes. Bad input throws VisionInputError; nothing found gives ok: false. */
export async function readDocument(
  type: DocumentType,
  bytes: Uint8Array,
  ctx: ReaderContext,
): Promise<ReadResult> {
  assertDocumentType(type);
  const image = await decodeImage(bytes);
  switch (type) {
    case 'plate':
      return readPlate(image, ctx);
    case 'disk':
      return readDisc(image);
    case 'license':
      return readLicence(image, ctx);
    case 'id':
      return readId(image, ctx);
    case 'passport':
      return readPassport(image, ctx);
    case 'weighbridge':
      return readWeighbridge(image);
  }
}

/** All barcodes in an image (any format), with the retry ladder. */
export async function readBarcodesFromBytes(bytes: Uint8Array): Promise<Barcode[]> {
  // Barcodes need luminance only: decoding straight to grey skips an RGB copy and its conversion.
  const image = await decodeImage(bytes, { grey: true });
  return findBarcodes(image);
}

export { assertDocumentType };
