import { describe, expect, it } from 'vitest';

import { AppError } from '@/platform/errors';

import { type PlateCapture, UNCONFIRMED_PLATE_MESSAGE, plateProvenance } from './plate-provenance';

const capture = (value: string, uncertain: boolean): PlateCapture => ({
  type: 'plate',
  reading: { fields: { plateNumber: { value } }, uncertain: uncertain ? ['plateNumber'] : [] },
});
const typed = (typedValue: string) => ({
  captureId: null,
  readingType: 'plate' as const,
  field: 'plateNumber',
  typedValue,
});
const base = {
  plateNumber: 'KP35XKGP',
  isAutomatedGrant: true,
  capture: null,
  clientExtractedPlate: null,
  corrections: [],
};

describe('plateProvenance (issue 15)', () => {
  it("takes the read plate from the capture, not the client's claim", () => {
    expect(
      plateProvenance({
        ...base,
        capture: capture('KP35XKG8', false),
        clientExtractedPlate: 'ANYTHING',
        corrections: [typed('KP 35 XK GP')],
      }),
    ).toEqual({ extractedPlate: 'KP35XKG8', warnings: [] });
  });

  it("never records the client's extractedPlate as a reading when no capture read a plate", () => {
    const unbacked = plateProvenance({ ...base, capture: null, clientExtractedPlate: 'GAUTENG' });
    expect(unbacked.extractedPlate).toBeNull();
    expect(unbacked.warnings).toEqual([
      expect.objectContaining({
        code: 'plate_read_unbacked',
        severity: 'info',
        fields: ['extractedPlate'],
        message: expect.stringContaining('"GAUTENG"'),
      }),
    ]);
    // A capture whose read found no plate backs nothing either.
    const failedRead = plateProvenance({
      ...base,
      capture: { type: 'plate', reading: null },
      clientExtractedPlate: 'KP35XKGP',
      corrections: [typed('KP35XKGP')],
    });
    expect(failedRead.extractedPlate).toBeNull();
    expect(failedRead.warnings.map((w) => w.code)).toEqual(['plate_read_unbacked']);
    // An ANPR lane's read reached the server from the camera itself: it is the reading.
    expect(
      plateProvenance({ ...base, laneRead: 'KP35XKGP', clientExtractedPlate: 'GAUTENG' }),
    ).toEqual({ extractedPlate: 'KP35XKGP', warnings: [] });
    // No claim, nothing to note.
    expect(plateProvenance({ ...base, clientExtractedPlate: '  ' })).toEqual({
      extractedPlate: null,
      warnings: [],
    });
  });

  it('refuses a typed plate that is not the entry’s plate', () => {
    expect(() => plateProvenance({ ...base, corrections: [typed('KP35XKG8')] })).toThrow(AppError);
  });

  it('refuses an automated grant on an uncertain read nobody confirmed', () => {
    expect(() => plateProvenance({ ...base, capture: capture('KP35XKGP', true) })).toThrow(
      UNCONFIRMED_PLATE_MESSAGE,
    );
    expect(
      plateProvenance({
        ...base,
        capture: capture('KP35XKGP', true),
        corrections: [typed('KP35XKGP')],
      }).warnings,
    ).toEqual([]);
  });

  it('flags an unconfirmed uncertain read elsewhere, and a plate that differs without a correction', () => {
    const realGate = plateProvenance({
      ...base,
      isAutomatedGrant: false,
      capture: capture('KP35XKGP', true),
    });
    expect(realGate.warnings.map((w) => w.code)).toEqual(['plate_unconfirmed']);
    const differs = plateProvenance({ ...base, capture: capture('KP35XKG8', false) });
    expect(differs.warnings.map((w) => w.code)).toEqual(['plate_unconfirmed']);
    expect(plateProvenance({ ...base, capture: capture('KP35XKGP', false) }).warnings).toEqual([]);
  });
});
