import { describe, expect, it } from 'vitest';

import { anEmptyRead, anOcrRead } from '@/testing/gate-api';

import { hasExtractedData, numberField, ocrFields, plateFromOcr, textField } from './ocr';

describe('ocrFields', () => {
  it('uses fields when present', () => {
    expect(ocrFields(anOcrRead('id', { surname: 'NKOSI' }))).toEqual({ surname: 'NKOSI' });
  });

  it('falls back to extractedText holding JSON', () => {
    expect(ocrFields({ fields: {}, extractedText: '{"ticketNumber":"T1"}' })).toEqual({
      ticketNumber: 'T1',
    });
  });

  it('is empty when nothing was extracted', () => {
    expect(ocrFields({ fields: {}, extractedText: '  ' })).toEqual({});
  });

  it('throws when extractedText is plain text or not an object', () => {
    expect(() => ocrFields({ fields: {}, extractedText: 'TICKET 42' })).toThrow(SyntaxError);
    expect(() => ocrFields({ fields: {}, extractedText: '[1,2]' })).toThrow(SyntaxError);
  });
});

describe('hasExtractedData (spec §4: a non-empty object or a non-blank string)', () => {
  it.each([
    [{ a: 'x' }, true],
    [{ a: null, b: '' }, false],
    [{}, false],
    ['text', true],
    ['   ', false],
    [null, false],
  ])('%j → %s', (data, expected) => {
    expect(hasExtractedData(data)).toBe(expected);
  });
});

describe('textField and numberField', () => {
  it('trims text, joins lists and skips empty values', () => {
    const fields = { a: '  x ', b: '', c: ['B', 'EB'], d: 42 };
    expect(textField(fields, 'a')).toBe('x');
    expect(textField(fields, 'b', 'a')).toBe('x');
    expect(textField(fields, 'c')).toBe('B, EB');
    expect(textField(fields, 'd')).toBe('42');
    expect(textField(fields, 'missing')).toBeNull();
  });

  it('reads kilograms from numbers and text', () => {
    expect(numberField({ w: 34_500 }, 'w')).toBe(34_500);
    expect(numberField({ w: '34,500 kg' }, 'w')).toBe(34_500);
    expect(numberField({ w: 'n/a' }, 'w')).toBeNull();
    expect(numberField({ w: '' }, 'w')).toBeNull();
  });
});

describe('plateFromOcr', () => {
  it('prefers plateNumber, normalised', () => {
    expect(plateFromOcr(anOcrRead('plate', {}, { plateNumber: 'kp 35 xk gp' }))).toBe('KP35XKGP');
  });

  it('accepts registrationNumber and extractedPlate (spec §3)', () => {
    expect(plateFromOcr(anOcrRead('plate', { registrationNumber: 'CA 123-456' }))).toBe('CA123456');
    expect(plateFromOcr(anOcrRead('plate', { extractedPlate: 'ND 123 456' }))).toBe('ND123456');
  });

  it('falls back to the first plate in the text', () => {
    expect(plateFromOcr(anOcrRead('plate', {}, { text: 'GP KP 35 XK GP' }))).toBe('KP35XKGP');
  });

  it('is null when nothing was read', () => {
    expect(plateFromOcr(anEmptyRead('plate'))).toBeNull();
    expect(plateFromOcr(anOcrRead('plate', {}, { text: '' }))).toBeNull();
  });
});

describe('the typed reading (issue 14)', () => {
  it("ocrFields takes the reading's values over the loose fields", () => {
    const response = anOcrRead(
      'id',
      { surname: 'RAW', status: 'CITIZEN', checks: { luhn: true } },
      {
        reading: {
          type: 'id',
          fields: { surname: { value: 'MOKOENA', confidence: 0.99, source: 'barcode' } },
          uncertain: [],
        },
      },
    );
    expect(ocrFields(response)).toEqual({
      surname: 'MOKOENA',
      status: 'CITIZEN',
      checks: { luhn: true },
    });
  });

  it("plateFromOcr takes the reading's plate first", () => {
    const response = anOcrRead(
      'plate',
      {},
      {
        plateNumber: 'XX11XXGP',
        reading: {
          type: 'plate',
          fields: { plateNumber: { value: 'KP35XKGP', confidence: 0.9, source: 'ocr' } },
          uncertain: [],
        },
      },
    );
    expect(plateFromOcr(response)).toBe('KP35XKGP');
  });
});
