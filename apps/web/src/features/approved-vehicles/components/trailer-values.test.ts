import { describe, expect, it } from 'vitest';

import { emptyTrailer, toTrailers, trailerValuesOf } from './trailer-values';

describe("a rig's trailers in a form (issue 21)", () => {
  it('starts an edit from the stored trailers, a missing disc as blank', () => {
    expect(
      trailerValuesOf({
        trailers: [{ plateNumber: 'AB12CDGP', discNumber: null, discExpiry: '2027-03-31' }],
      }),
    ).toEqual([{ plateNumber: 'AB12CDGP', discNumber: '', discExpiry: '2027-03-31' }]);
    expect(trailerValuesOf({})).toEqual([]);
  });

  it('sends plates normalised and blanks as null, dropping a wholly blank row', () => {
    expect(
      toTrailers([
        emptyTrailer(),
        { plateNumber: 'xy 99-zz gp', discNumber: '  ', discExpiry: '' },
      ]),
    ).toEqual({ trailers: [{ plateNumber: 'XY99ZZGP', discNumber: null, discExpiry: null }] });
    expect(toTrailers([])).toEqual({ trailers: [] });
  });

  it('refuses a disc without a plate, a plate given twice, more than two and a bad plate', () => {
    expect(toTrailers([emptyTrailer(), { ...emptyTrailer(), discExpiry: '2027-01-01' }])).toEqual({
      problem: { needsPlate: 2 },
    });
    const row = (plateNumber: string) => ({ ...emptyTrailer(), plateNumber });
    expect(toTrailers([row('AB12CD'), row('ab 12 cd')])).toEqual({
      problem: { detail: 'Each trailer has its own plate' },
    });
    expect(toTrailers([row('AA11'), row('BB22'), row('CC33')])).toEqual({
      problem: { detail: 'A rig has at most 2 trailers' },
    });
    expect(toTrailers([row('A')])).toEqual({
      problem: { detail: 'Plate number must have at least 2 letters or digits' },
    });
  });
});
