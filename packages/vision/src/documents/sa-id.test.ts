import { describe, expect, it } from 'vitest';

import {
  checkSaIdNumber,
  extractSaIdNumber,
  isLuhnValid,
  parseIdBookBarcode,
  parseSmartId,
} from './sa-id';

const NOW = new Date('2026-01-01T00:00:00Z');
const SMART_ID =
  'DOE|JANE MARY|F|RSA|8001010001089|01 JAN 1980|RSA|CITIZEN|01 FEB 2020|12345|123456789|1234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789';

describe('isLuhnValid', () => {
  it('accepts valid and rejects altered ID numbers', () => {
    expect(isLuhnValid('8609135139012')).toBe(true);
    expect(isLuhnValid('8208114800080')).toBe(true);
    expect(isLuhnValid('8208114800081')).toBe(false);
  });
});

describe('checkSaIdNumber', () => {
  it('derives date of birth, sex and citizenship', () => {
    expect(checkSaIdNumber('8609135139012', NOW)).toMatchObject({
      isValid: true,
      dateOfBirth: '1986-09-13',
      sex: 'M',
      citizenship: 'citizen',
    });
  });

  it('puts two-digit years up to this year in the 2000s', () => {
    expect(checkSaIdNumber('0501014800087', NOW).dateOfBirth).toBe('2005-01-01');
  });

  it('rejects an impossible date even with a valid check digit', () => {
    const result = checkSaIdNumber('8613355139017', NOW);

    expect(result.isValid).toBe(false);
    expect(result.problems).toContain('date of birth is not a real date');
  });
});

describe('extractSaIdNumber', () => {
  it('drops a two-character prefix and slashes as the product rule says', () => {
    expect(extractSaIdNumber('02/8609135139012')).toBe('8609135139012');
    expect(extractSaIdNumber('ZA/8609135139012')).toBe('8609135139012');
  });

  it('keeps a bare or spaced number intact', () => {
    expect(extractSaIdNumber('8609135139012')).toBe('8609135139012');
    expect(extractSaIdNumber('ID No. 860913 5139 012')).toBe('8609135139012');
  });

  it('returns null when no run passes Luhn', () => {
    expect(extractSaIdNumber('8609135139013')).toBeNull();
  });
});

describe('parseSmartId', () => {
  it('reads the pipe-delimited smart ID payload', () => {
    expect(parseSmartId(SMART_ID, NOW)).toMatchObject({
      surname: 'DOE',
      givenNames: 'JANE MARY',
      sex: 'F',
      nationality: 'RSA',
      identityNumber: '8001010001089',
      dateOfBirth: '1980-01-01',
      dateOfIssue: '2020-02-01',
      status: 'CITIZEN',
      cardNumber: '123456789',
      idCheck: { isValid: true },
    });
  });

  it('returns null for a disc payload', () => {
    expect(parseSmartId('%MVL1CC08%0168%')).toBeNull();
  });
});

describe('parseIdBookBarcode', () => {
  it('accepts only a valid 13-digit number', () => {
    expect(parseIdBookBarcode('8001015009087', NOW)?.sex).toBe('M');
    expect(parseIdBookBarcode('8001015009088', NOW)).toBeNull();
  });
});
