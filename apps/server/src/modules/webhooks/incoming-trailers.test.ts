import { describe, expect, it } from 'vitest';

import { pairTrailers } from './incoming-trailers';

const disc = (id: string, plate: string | null, discNumber: string | null = null) => ({
  id,
  plate,
  discNumber,
  dateOfExpiry: '2099-01-31',
});

describe('pairTrailers (issue 21)', () => {
  it("gives each trailer the disc that names its plate, in the plates' order", () => {
    expect(
      pairTrailers(['TR5GP', 'TR6GP'], [disc('d6', 'tr 6 gp', 'D-6'), disc('d5', 'TR5GP')]),
    ).toEqual([
      { plateNumber: 'TR5GP', licenceDiscId: 'd5', discNumber: null, discExpiry: '2099-01-31' },
      { plateNumber: 'TR6GP', licenceDiscId: 'd6', discNumber: 'D-6', discExpiry: '2099-01-31' },
    ]);
  });

  it('leaves a trailer without a disc, or with an unreadable one, with nulls', () => {
    expect(pairTrailers(['TR5GP'], [disc('d0', null)])).toEqual([
      { plateNumber: 'TR5GP', licenceDiscId: null, discNumber: null, discExpiry: null },
    ]);
    expect(pairTrailers([], [disc('d5', 'TR5GP')])).toEqual([]);
  });
});
