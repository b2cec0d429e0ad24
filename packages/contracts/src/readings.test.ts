import { describe, expect, it } from 'vitest';

import {
  type ReadingOf,
  ReadingSchema,
  isUncertain,
  readingFieldKinds,
  readingValue,
} from './readings';

const plate: ReadingOf<'plate'> = {
  type: 'plate',
  fields: { plateNumber: { value: 'KP35XKGP', confidence: 0.9, source: 'ocr' } },
  uncertain: [],
};

describe('ReadingSchema', () => {
  it('accepts a typed reading of each type', () => {
    expect(ReadingSchema.safeParse(plate).success).toBe(true);
    expect(
      ReadingSchema.safeParse({
        type: 'weighbridge',
        fields: { netWeight: { value: 34_500, confidence: 0.7, source: 'ai' } },
        uncertain: ['netWeight'],
      }).success,
    ).toBe(true);
  });

  it.each([
    ['an unknown type', { ...plate, type: 'face' }],
    ['a field of another type', { ...plate, fields: { surname: plate.fields.plateNumber } }],
    [
      'a confidence above 1',
      { ...plate, fields: { plateNumber: { ...plate.fields.plateNumber, confidence: 1.01 } } },
    ],
    [
      'an unknown source',
      { ...plate, fields: { plateNumber: { ...plate.fields.plateNumber, source: 'guess' } } },
    ],
    [
      'a value of the wrong kind',
      { ...plate, fields: { plateNumber: { ...plate.fields.plateNumber, value: 12 } } },
    ],
    ['no uncertain list', { type: 'plate', fields: {} }],
  ])('refuses %s', (_label, value) => {
    expect(ReadingSchema.safeParse(value).success).toBe(false);
  });
});

describe('reading helpers', () => {
  it('knows each field kind from the schema', () => {
    expect(readingFieldKinds('weighbridge')).toMatchObject({
      ticketNumber: 'text',
      netWeight: 'number',
      sealNumbers: 'texts',
    });
    expect(readingFieldKinds('disk')).toMatchObject({ tare: 'number', make: 'text' });
  });

  it('reads a value, null when absent', () => {
    expect(readingValue(plate, 'plateNumber')).toBe('KP35XKGP');
    expect(readingValue(plate, 'pattern')).toBeNull();
    expect(readingValue<'plate'>(null, 'plateNumber')).toBeNull();
  });

  it('calls a field uncertain when listed or not read', () => {
    expect(isUncertain(plate, 'plateNumber')).toBe(false);
    expect(isUncertain({ ...plate, uncertain: ['plateNumber'] }, 'plateNumber')).toBe(true);
    expect(isUncertain(plate, 'pattern')).toBe(true);
    expect(isUncertain(null, 'plateNumber')).toBe(true);
  });
});
