import { passesLuhn } from '@boomgate/contracts/sa-id-number';

/**
 * What the sealed-at-rest catalog test (issue 26) looks for in stored text: a South African ID
 * number (a checksum-valid 13-digit run) or line 2 of a passport's MRZ. Code that stores text it
 * does not own (audit details, job payloads) uses it to seal such a value or to refuse it.
 */
const THIRTEEN_DIGITS = /(?<!\d)\d{13}(?!\d)/g;
const MRZ_LINE = /[A-Z0-9<]{9}\d[A-Z<]{3}\d{6}\d[MF<]\d{6}\d/;

export function looksPersonal(text: string): boolean {
  return (text.match(THIRTEEN_DIGITS) ?? []).some((run) => passesLuhn(run)) || MRZ_LINE.test(text);
}

/** Whether any string anywhere in a JSON-like value looks personal. */
export function holdsPersonalText(value: unknown): boolean {
  if (typeof value === 'string') return looksPersonal(value);
  if (Array.isArray(value)) return value.some(holdsPersonalText);
  if (value && typeof value === 'object') return Object.values(value).some(holdsPersonalText);
  return false;
}

/**
 * Reading and correction fields that hold an ID or passport number (or the MRZ lines that carry
 * one): sealed at rest where a reading or a correction is stored (issue 26).
 */
export const NUMBER_FIELDS: ReadonlySet<string> = new Set([
  'identityNumber',
  'idNumber',
  'driverIdNumber',
  'passportNumber',
  'driverPassportNumber',
  'personalNumber',
  'mrzLines',
]);
