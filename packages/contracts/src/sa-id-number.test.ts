import { describe, expect, it } from 'vitest';

import { checkSaIdNumber, cleanReadIdNumber, passesLuhn } from './sa-id-number';

describe('passesLuhn', () => {
  it.each([
    ['8001015009087', true],
    ['8001015009086', false],
    ['79927398713', true],
    ['79927398710', false],
    ['', false],
    ['80010150090a7', false],
  ])('%s → %s', (digits, expected) => {
    expect(passesLuhn(digits)).toBe(expected);
  });
});

describe('checkSaIdNumber', () => {
  it.each(['8001015009087', '9307150123081', '0002295009084', ' 8501010001088 '])(
    'accepts %s',
    (id) => {
      expect(checkSaIdNumber(id)).toBeNull();
    },
  );

  it.each([
    ['800101500908', 'length'],
    ['80010150090871', 'length'],
    ['8001015009O87', 'digits'],
    ['800101 5009087', 'digits'],
    ['8013015009087', 'date'],
    ['8002305009087', 'date'],
    // 29 February 1999 does not exist (and 2099 is not a year of birth either way).
    ['9902295009083', 'date'],
    ['8001015009387', 'citizenship'],
    ['8001015009086', 'checksum'],
  ] as const)('rejects %s (%s)', (id, problem) => {
    expect(checkSaIdNumber(id)).toBe(problem);
  });
});

describe('cleanReadIdNumber', () => {
  it('drops slashes, spaces and a two-digit country prefix', () => {
    expect(cleanReadIdNumber('02/8001015009087')).toBe('8001015009087');
    expect(cleanReadIdNumber('800101 5009 087')).toBe('8001015009087');
    expect(cleanReadIdNumber('8001015009087')).toBe('8001015009087');
  });
});
