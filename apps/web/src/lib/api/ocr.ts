import { type OcrResponse, OcrResponseSchema, type OcrType } from '@boomgate/contracts/ocr';

import { request } from '@/lib/api-client';
import { normalisePlate, plateFromText } from '@/lib/plates';

/** POST /api/ocr: reads one document (or checks a face photo) through the vision engine. */
export function readDocument(image: string, type: OcrType, signal?: AbortSignal) {
  return request('POST', '/api/ocr', { schema: OcrResponseSchema, body: { image, type }, signal });
}

export type OcrFields = Record<string, unknown>;

/** The values of a typed reading (issue 14), by field name. */
function readingValues(reading: OcrResponse['reading'] | undefined): OcrFields {
  if (!reading) return {};
  return Object.fromEntries(
    Object.entries(reading.fields as Record<string, { value: unknown } | undefined>).map(
      ([name, field]) => [name, field?.value],
    ),
  );
}

/**
 * The extracted fields of a read: the typed reading's values over `fields` (the reading is what
 * the server validated and stored; `fields` keeps what it has no place for, e.g. check results),
 * or else `extractedText` when it holds JSON (spec §3: JSON text or plain text). Throws a
 * SyntaxError when none is a JSON object.
 */
export function ocrFields(
  response: Pick<OcrResponse, 'fields' | 'extractedText'> & Partial<Pick<OcrResponse, 'reading'>>,
): OcrFields {
  const typed = readingValues(response.reading);
  if (Object.keys(response.fields).length > 0 || Object.keys(typed).length > 0)
    return { ...response.fields, ...typed };
  const text = response.extractedText.trim();
  if (text === '') return {};
  const parsed: unknown = JSON.parse(text);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new SyntaxError('extractedText is not a JSON object');
  }
  return parsed as OcrFields;
}

/** Spec §4: a read counts only when the data is a non-empty object or a non-blank string. */
export function hasExtractedData(data: unknown): boolean {
  if (typeof data === 'string') return data.trim() !== '';
  if (data && typeof data === 'object') {
    return Object.values(data).some(
      (value) => value !== null && value !== undefined && value !== '',
    );
  }
  return false;
}

/** A field as trimmed text, or null when absent or empty. */
export function textField(fields: OcrFields, ...keys: string[]): string | null {
  for (const key of keys) {
    const value = fields[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    if (Array.isArray(value) && value.length > 0) return value.join(', ');
  }
  return null;
}

/** A field as a number (kilograms, say), or null. */
export function numberField(fields: OcrFields, key: string): number | null {
  const value = fields[key];
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string') {
    const parsed = Number(value.replace(/[\s,]/g, '').replace(/kg$/i, ''));
    return value.trim() !== '' && Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

/**
 * The plate a plate read found, normalised for lookup: the typed reading's plate, else
 * `plateNumber`, else the plate fields of
 * spec §3 (plateNumber, extractedPlate, registrationNumber), else the first plate in the text
 * (spec §5). Null when nothing was read.
 */
export function plateFromOcr(
  response: Pick<OcrResponse, 'ok' | 'plateNumber' | 'fields' | 'text'> &
    Partial<Pick<OcrResponse, 'reading'>>,
): string | null {
  if (!response.ok) return null;
  const typed =
    response.reading?.type === 'plate' ? response.reading.fields.plateNumber : undefined;
  const candidate =
    typed?.value ??
    response.plateNumber ??
    textField(response.fields, 'plateNumber', 'extractedPlate', 'registrationNumber');
  if (candidate) {
    const plate = normalisePlate(candidate);
    if (plate.length >= 2) return plate;
  }
  return plateFromText(response.text);
}
