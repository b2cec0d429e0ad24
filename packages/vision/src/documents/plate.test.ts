import { describe, expect, it } from 'vitest';

import {
  bestPatternMatch,
  formatPlate,
  hasForbiddenLetters,
  matchPlatePatterns,
  rankPlateCandidates,
} from './plate';

describe('matchPlatePatterns', () => {
  it.each([
    ['KP35XKGP', 'ZA-GP'],
    ['CA419547', 'ZA-WC-TOWN'],
    ['ND123456', 'ZA-KZN-TOWN'],
    ['BC12DFZN', 'ZA-KZN'],
    ['BCD123MP', 'ZA-PROV'],
    ['ACE668MP', 'MZ'],
    ['B123BCD', 'BW'],
    ['N123456W', 'NA'],
    ['AED1733', 'ZW-or-ZM'],
    ['BOSSGP', 'ZA-PERSONALISED'],
    ['ABK123GP', 'ZA-MOTOR-TRADE'],
  ])('classifies %s first as %s', (plate, pattern) => {
    expect(matchPlatePatterns(plate)[0]).toBe(pattern);
  });
});

describe('bestPatternMatch', () => {
  it('fixes look-alike letters in digit positions', () => {
    expect(bestPatternMatch('KP3SXKGP')).toMatchObject({
      plate: 'KP35XKGP',
      pattern: 'ZA-GP',
      fixes: 1,
    });
    expect(bestPatternMatch('CA4I9547')).toMatchObject({
      plate: 'CA419547',
      pattern: 'ZA-WC-TOWN',
    });
  });

  it('never corrects toward a personalised plate', () => {
    expect(bestPatternMatch('BOSSGP')).toMatchObject({ plate: 'BOSSGP', fixes: 0 });
  });
});

describe('hasForbiddenLetters', () => {
  it('flags a vowel in a general-series Gauteng plate', () => {
    expect(hasForbiddenLetters('KA35XKGP')).toBe(true);
    expect(hasForbiddenLetters('KP35XKGP')).toBe(false);
  });
});

describe('formatPlate', () => {
  it.each([
    ['KP35XKGP', 'KP 35 XK GP'],
    ['CA419547', 'CA 419-547'],
    ['CY12345', 'CY 12345'],
    ['BCD123MP', 'BCD 123 MP'],
    ['AB12', 'AB12'],
  ])('formats %s as %s', (plate, display) => {
    expect(formatPlate(plate)).toBe(display);
  });
});

describe('rankPlateCandidates', () => {
  it('prefers a whole plate over a part of it that fits a shorter grammar', () => {
    // `BCD 123` alone fits Zimbabwe/Zambia (LLL NNN); `BCD 123 FS` is the Free State plate it is part of.
    const ranked = rankPlateCandidates([
      { text: 'BCD 123', confidence: 0.97, relativeHeight: 0.5 },
      { text: 'BCD', confidence: 0.99, relativeHeight: 0.5 },
      { text: 'BCD 123 FS', confidence: 0.9, relativeHeight: 0.5 },
    ]);

    expect(ranked[0]?.plateNumber).toBe('BCD123FS');
    expect(ranked[0]?.pattern).toBe('ZA-PROV');
  });

  it('prefers a plate-shaped string over words on the vehicle', () => {
    const ranked = rankPlateCandidates([
      { text: 'GAUTENG', confidence: 0.99 },
      { text: 'KP 35 XK GP', confidence: 0.9 },
      { text: 'TOYOTA', confidence: 0.98 },
    ]);

    expect(ranked[0]?.plateNumber).toBe('KP35XKGP');
    expect(ranked.map((c) => c.plateNumber)).not.toContain('TOYOTA');
  });
});
