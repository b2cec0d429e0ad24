/** SA ID numbers (YYMMDD SSSS C A Z), smart ID card and green ID book barcodes (sa-documents §3, §4). */

export function isLuhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export type SaIdCheck = {
  isValid: boolean;
  /** ISO date, century by "YY after this year → 1900s". */
  dateOfBirth: string | null;
  sex: 'M' | 'F' | null;
  citizenship: 'citizen' | 'permanent_resident' | 'refugee' | null;
  problems: string[];
};

/** Validates a 13-digit SA ID number: Luhn check digit, a real date of birth, sex from the sequence. */
export function checkSaIdNumber(idNumber: string, now: Date = new Date()): SaIdCheck {
  const problems: string[] = [];
  if (!/^\d{13}$/.test(idNumber)) {
    return {
      isValid: false,
      dateOfBirth: null,
      sex: null,
      citizenship: null,
      problems: ['not 13 digits'],
    };
  }
  if (!isLuhnValid(idNumber)) problems.push('check digit (Luhn) fails');
  const yy = Number(idNumber.slice(0, 2));
  const mm = Number(idNumber.slice(2, 4));
  const dd = Number(idNumber.slice(4, 6));
  const century = yy <= now.getUTCFullYear() % 100 ? 2000 : 1900;
  const year = century + yy;
  const date = new Date(Date.UTC(year, mm - 1, dd));
  let dateOfBirth: string | null = null;
  if (date.getUTCMonth() !== mm - 1 || date.getUTCDate() !== dd || mm < 1 || mm > 12) {
    problems.push('date of birth is not a real date');
  } else {
    dateOfBirth = `${year}-${idNumber.slice(2, 4)}-${idNumber.slice(4, 6)}`;
  }
  const sex = Number(idNumber.slice(6, 10)) >= 5000 ? 'M' : 'F';
  const c = idNumber[10];
  const citizenship =
    c === '0' ? 'citizen' : c === '1' ? 'permanent_resident' : c === '2' ? 'refugee' : null;
  if (!citizenship) problems.push('citizenship digit is not 0, 1 or 2');
  return { isValid: problems.length === 0, dateOfBirth, sex, citizenship, problems };
}

/**
 * Finds the SA ID number in extracted text. The product rule "slashes removed, first two characters
 * dropped" fits presentations like `02/8609135139012` or `ZA/8609135139012`; doing it literally would
 * break a bare number, so: strip separators, then take the last 13-digit run that passes Luhn
 * (sa-documents §4.3). Returns null when none validates.
 */
export function extractSaIdNumber(text: string): string | null {
  const compact = text.replace(/[\s/\\\-.]/g, '');
  const runs = compact.match(/\d{13,}/g) ?? [];
  for (let r = runs.length - 1; r >= 0; r--) {
    const run = runs[r]!;
    for (let i = run.length - 13; i >= 0; i--) {
      const candidate = run.slice(i, i + 13);
      if (isLuhnValid(candidate) && checkSaIdNumber(candidate).dateOfBirth) return candidate;
    }
  }
  return null;
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** `01 JAN 1980` (any case) → `1980-01-01`; null if it is not such a date. */
export function parseDayMonthYear(value: string): string | null {
  const m = /^(\d{1,2})\s+([A-Za-z]{3})[A-Za-z]*\s+(\d{4})$/.exec(value.trim());
  if (!m) return null;
  const month = MONTHS.indexOf(m[2]!.toUpperCase());
  if (month < 0) return null;
  return `${m[3]}-${String(month + 1).padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
}

export type SmartIdCard = {
  surname: string;
  givenNames: string;
  sex: string;
  nationality: string;
  identityNumber: string;
  dateOfBirth: string | null;
  countryOfBirth: string;
  status: string;
  dateOfIssue: string | null;
  /** Unknown 5-digit number (office code?). */
  field9: string;
  cardNumber: string;
  idCheck: SaIdCheck;
};

export function isSmartIdPayload(text: string): boolean {
  const parts = text.split('|');
  return parts.length >= 11 && /^\d{13}$/.test(parts[4]?.trim() ?? '');
}

/** Smart ID card back: pipe-delimited ASCII (sa-documents §3.1). */
export function parseSmartId(payload: string, now?: Date): SmartIdCard | null {
  if (!isSmartIdPayload(payload)) return null;
  const p = payload.split('|').map((s) => s.trim());
  const identityNumber = p[4]!;
  return {
    surname: p[0]!,
    givenNames: p[1]!,
    sex: p[2]!,
    nationality: p[3]!,
    identityNumber,
    dateOfBirth: parseDayMonthYear(p[5]!),
    countryOfBirth: p[6]!,
    status: p[7]!,
    dateOfIssue: parseDayMonthYear(p[8]!),
    field9: p[9]!,
    cardNumber: p[10]!,
    idCheck: checkSaIdNumber(identityNumber, now),
  };
}

/** Green ID book barcode: just the 13-digit number; accepted only when it validates. */
export function parseIdBookBarcode(text: string, now?: Date) {
  const digits = text.trim();
  if (!/^\d{13}$/.test(digits)) return null;
  const idCheck = checkSaIdNumber(digits, now);
  if (!idCheck.isValid) return null;
  return { identityNumber: digits, dateOfBirth: idCheck.dateOfBirth, sex: idCheck.sex, idCheck };
}
