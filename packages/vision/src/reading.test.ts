import { ReadingSchema } from '@boomgate/contracts/readings';
import { describe, expect, it } from 'vitest';

import { toReading } from './reading';
import type { ReadResult, ReadSuccess } from './types';

/** The fields of any reading type, for assertions. */
const fieldsOf = (reading: ReturnType<typeof toReading>) =>
  (reading?.fields ?? {}) as Record<string, { value: unknown; confidence: number } | undefined>;

const success = (
  over: Partial<ReadSuccess> & Pick<ReadSuccess, 'type' | 'fields'>,
): ReadResult => ({
  ok: true,
  text: '',
  source: 'ocr',
  confidence: 0.8,
  ...over,
});

describe('toReading', () => {
  it('is null for a failed read', () => {
    expect(
      toReading({
        ok: false,
        type: 'plate',
        error: 'No plate',
        text: '',
        fields: {},
        confidence: 0,
      }),
    ).toBeNull();
  });

  it('types a plate with the contracts lookup and display forms, whatever the reader wrote', () => {
    const reading = toReading(
      success({
        type: 'plate',
        fields: {
          plateNumber: 'ca 123-456',
          displayPlate: 'CA 123-456',
          pattern: 'ZA-WC',
          extra: 1,
        },
        confidence: 0.9,
      }),
    );
    expect(reading).toEqual({
      type: 'plate',
      fields: {
        plateNumber: { value: 'CA123456', confidence: 0.9, source: 'ocr' },
        displayPlate: { value: 'CA 123 456', confidence: 0.9, source: 'ocr' },
        pattern: { value: 'ZA-WC', confidence: 0.9, source: 'ocr' },
      },
      uncertain: [],
    });
  });

  it("takes each field's own confidence, falls back to the read's, and keeps uncertain fields", () => {
    const reading = toReading(
      success({
        type: 'license',
        source: 'barcode',
        confidence: 0.95,
        fields: { idNumber: '8001015009087', nameOnCard: 'J SMITH', validTo: '2030-01-01' },
        fieldConfidence: { nameOnCard: 0.4 },
        uncertain: ['nameOnCard', 'notAField'],
      }),
    );
    expect(reading?.fields).toEqual({
      idNumber: { value: '8001015009087', confidence: 0.95, source: 'barcode' },
      nameOnCard: { value: 'J SMITH', confidence: 0.4, source: 'barcode' },
      validTo: { value: '2030-01-01', confidence: 0.95, source: 'barcode' },
    });
    expect(reading?.uncertain).toEqual(['nameOnCard']);
  });

  it('an uncertain plate number makes its display form uncertain too', () => {
    const reading = toReading(
      success({ type: 'plate', fields: { plateNumber: 'KP35XKGP' }, uncertain: ['plateNumber'] }),
    );
    expect(reading?.uncertain.sort()).toEqual(['displayPlate', 'plateNumber']);
    expect(fieldsOf(reading).displayPlate?.value).toBe('KP 35 XK GP');
  });

  it.each([
    ['null', null],
    ['empty text', '   '],
    ['an object', { seated: 2 }],
  ])('leaves out a field read as %s', (_label, value) => {
    const reading = toReading(success({ type: 'id', fields: { surname: value, sex: 'F' } }));
    expect(reading?.fields).toEqual({ sex: { value: 'F', confidence: 0.8, source: 'ocr' } });
  });

  it('coerces kilograms to numbers and lists to string arrays', () => {
    const reading = toReading(
      success({
        type: 'weighbridge',
        fields: {
          grossWeight: '42 500',
          tareWeight: 15000,
          netWeight: 'n/a',
          sealNumbers: 'S1, S2',
          trailerRegs: ['TR1GP', 7],
          ticketNumber: 12345,
        },
      }),
    );
    expect(fieldsOf(reading).grossWeight?.value).toBe(42500);
    expect(fieldsOf(reading).tareWeight?.value).toBe(15000);
    expect(fieldsOf(reading).netWeight).toBeUndefined();
    expect(fieldsOf(reading).sealNumbers?.value).toEqual(['S1', 'S2']);
    expect(fieldsOf(reading).trailerRegs?.value).toEqual(['TR1GP', '7']);
    expect(fieldsOf(reading).ticketNumber?.value).toBe('12345');
  });

  it('leaves out a value too long for the contract rather than failing the read', () => {
    const reading = toReading(
      success({ type: 'id', fields: { surname: 'X'.repeat(5_000), sex: 'M' } }),
    );
    expect(Object.keys(fieldsOf(reading))).toEqual(['sex']);
  });

  it('keeps list items in place, empty ones included (restrictions line up with codes)', () => {
    const reading = toReading(
      success({
        type: 'license',
        fields: { vehicleCodes: ['B', 'EB'], vehicleRestrictions: ['', '0'] },
      }),
    );
    expect(fieldsOf(reading).vehicleCodes?.value).toEqual(['B', 'EB']);
    expect(fieldsOf(reading).vehicleRestrictions?.value).toEqual(['', '0']);
  });

  it('clamps confidences into 0..1 and the result always passes the contracts schema', () => {
    const reading = toReading(
      success({
        type: 'passport',
        source: 'mrz',
        confidence: 1.7,
        fields: { passportNumber: 'A1234567', mrzLines: ['P<ZAF', 'A1234567'] },
        fieldConfidence: { passportNumber: -3 },
      }),
    );
    expect(fieldsOf(reading).passportNumber?.confidence).toBe(0);
    expect(fieldsOf(reading).mrzLines?.confidence).toBe(1);
    expect(ReadingSchema.safeParse(reading).success).toBe(true);
  });
});
