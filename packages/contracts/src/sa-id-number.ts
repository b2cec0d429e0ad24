import { z } from 'zod';

/**
 * South African ID numbers (spec §5: 13 digits). YYMMDD date of birth, SSSS sequence (0000–4999
 * female, 5000–9999 male), C citizenship (0 citizen, 1 permanent resident, 2 refugee), A (formerly
 * race, now any digit) and Z, a Luhn check digit over the first twelve.
 */

export const SA_ID_NUMBER_LENGTH = 13;

export type SaIdNumberProblem = 'length' | 'digits' | 'date' | 'citizenship' | 'checksum';

/** Luhn (mod 10) over a string of digits, the check digit last. */
export function passesLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** True when YYMMDD is a real calendar date in either century. */
function isRealDate(yymmdd: string): boolean {
  const year = Number(yymmdd.slice(0, 2));
  const month = Number(yymmdd.slice(2, 4));
  const day = Number(yymmdd.slice(4, 6));
  if (month < 1 || month > 12 || day < 1) return false;
  // 2000 is a leap year and 1900 is not; a 29 February in "00" is valid for 2000.
  const fullYear = year === 0 ? 2000 : 1900 + year;
  const daysInMonth = new Date(Date.UTC(fullYear, month, 0)).getUTCDate();
  return day <= daysInMonth;
}

/** Why `value` is not a valid SA ID number, or null when it is. */
export function checkSaIdNumber(value: string): SaIdNumberProblem | null {
  const id = value.trim();
  if (!/^\d*$/.test(id)) return 'digits';
  if (id.length !== SA_ID_NUMBER_LENGTH) return 'length';
  if (!isRealDate(id.slice(0, 6))) return 'date';
  if (!['0', '1', '2'].includes(id[10] ?? '')) return 'citizenship';
  if (!passesLuhn(id)) return 'checksum';
  return null;
}

export const SA_ID_NUMBER_MESSAGES: Record<SaIdNumberProblem, string> = {
  digits: 'An ID number has digits only.',
  length: 'An ID number has 13 digits.',
  date: 'The first six digits must be a date of birth (YYMMDD).',
  citizenship: 'The 11th digit must be 0, 1 or 2.',
  checksum: 'This is not a valid South African ID number: please check the digits.',
};

/**
 * An ID number as read from a document: spaces and slashes removed, and a two-digit country prefix
 * dropped (licence cards print it as "02/8001015009087"; spec §5).
 */
export function cleanReadIdNumber(raw: string): string {
  const digits = raw.replace(/[\s/]/g, '');
  return digits.length === SA_ID_NUMBER_LENGTH + 2 && /^\d+$/.test(digits)
    ? digits.slice(2)
    : digits;
}

/** A 13-digit SA ID number, spaces removed; the message says what is wrong with it. */
export const SaIdNumberSchema = z
  .string()
  .transform((value) => value.replace(/\s/g, ''))
  .superRefine((value, context) => {
    if (value === '') {
      context.addIssue({ code: 'custom', message: 'ID number is required.' });
      return;
    }
    const problem = checkSaIdNumber(value);
    if (problem) context.addIssue({ code: 'custom', message: SA_ID_NUMBER_MESSAGES[problem] });
  });
