import { describe, expect, it } from 'vitest';

import {
  bestPatternMatch,
  fitLayout,
  hasForbiddenLetters,
  hasGlyphAmbiguity,
  isNearVariant,
  isCorrectionSupported,
  isDateTimeOrPhone,
  isPlacedByShape,
  isPlateConfirmed,
  markRatio,
  matchPlatePatterns,
  rankLettersOnlyCandidates,
  rankPlateCandidates,
  rivalRatio,
  scorePlateCandidate,
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

describe('layouts that settle only O/0 and I/1', () => {
  it('reads the letter places of a 7-character US layout as letters', () => {
    expect(bestPatternMatch('4K1M285')).toMatchObject({
      plate: '4KIM285',
      pattern: 'US-DLLLDDD',
      fixes: 1,
    });
  });

  it('places the 0/O and 1/I of a Czech layout (digit, letter, five digits)', () => {
    expect(bestPatternMatch('3K4772O')).toMatchObject({
      plate: '3K47720',
      pattern: 'CZ-DLDDDDD',
      fixes: 1,
    });
  });

  it('never turns a digit into another letter there (8 into B, 2 into Z)', () => {
    expect(fitLayout('7A8C123', 'DLLLDDD', true)).toBeNull();
    expect(fitLayout('3847720', 'DLDDDDD', true)).toBeNull();
    expect(fitLayout('3847720', 'DLDDDDD')).toMatchObject({ plate: '3B47720' });
  });

  it('never gives a letter to a reading that has none in its letter places', () => {
    // Digits only: nothing says this is the layout's plate, so its 1 is not read as I.
    expect(fitLayout('3147720', 'DLDDDDD', true)).toBeNull();
    expect(fitLayout('4101285', 'DLLLDDD', true)).toBeNull();
    expect(bestPatternMatch('3147720').pattern).toBeNull();
  });

  it('is no ground for dropping an edge character to fit', () => {
    // `3K477201` less its last `1` would fit the Czech layout; that is not a glyph to settle.
    expect(bestPatternMatch('3K477201')).toMatchObject({ plate: '3K477201', pattern: null });
  });

  it('confirms a plate once its layout places the ambiguous glyph', () => {
    const read = (source: string) => ({ text: '4KIM285', confidence: 0.9, source });
    const ranked = rankPlateCandidates([read('detect'), read('reread')]);

    expect(ranked[0]).toMatchObject({ plateNumber: '4KIM285', glyphAmbiguous: false });
    expect(isPlateConfirmed(ranked)).toBe(true);
    // Without a layout that places it, the same I between letters stays unsure.
    const free = rankPlateCandidates([
      { text: 'KIMX285', confidence: 0.9, source: 'detect' },
      { text: 'KIMX285', confidence: 0.9, source: 'reread' },
    ]);
    expect(isPlateConfirmed(free)).toBe(false);
  });

  it('ranks with a glyphs-only layout but never confirms the O/0 or I/1 it chose', () => {
    // Two readings agree on `0` where the Czech layout wants a digit; the plate may be a personalised
    // `3K4772O`: the layout's choice is a guess, so the plate stays unsure.
    const zero = (source: string) => ({ text: '3K4772O', confidence: 0.95, source });
    const ranked = rankPlateCandidates([zero('detect'), zero('reread')]);

    expect(ranked[0]).toMatchObject({ plateNumber: '3K47720', pattern: 'CZ-DLDDDDD' });
    expect(isPlateConfirmed(ranked)).toBe(false);
    const one = (source: string) => ({ text: '4K1M285', confidence: 0.95, source });
    const us = rankPlateCandidates([one('detect'), one('reread')]);
    expect(us[0]?.plateNumber).toBe('4KIM285');
    expect(isPlateConfirmed(us)).toBe(false);
  });

  it('never confirms a letter a separator group chose (a personalised plate without its suffix)', () => {
    // `B0B 123` of a personalised `B0B 123 GP` read without the suffix: the group rule reads BOB.
    const read = (source: string) => ({ text: 'B0B 123', confidence: 0.95, source });
    const ranked = rankPlateCandidates([read('detect'), read('reread')]);

    expect(ranked[0]?.plateNumber).toBe('BOB123');
    expect(isPlateConfirmed(ranked)).toBe(false);
    // Read as BOB by both recognitions, it is confirmed.
    const bob = (source: string) => ({ text: 'BOB 123', confidence: 0.95, source });
    expect(isPlateConfirmed(rankPlateCandidates([bob('detect'), bob('reread')]))).toBe(true);
  });
});

describe('foreign layouts', () => {
  it('takes the layout that changes fewest characters', () => {
    // A UK `AB12 OCD` fits its own layout as read; the EU LL-DDD-LL only with its O as a digit.
    expect(bestPatternMatch('AB12OCD')).toMatchObject({
      plate: 'AB12OCD',
      pattern: 'UK',
      fixes: 0,
    });
    // Read with a 0, it fits the EU layout as read.
    expect(bestPatternMatch('AB120CD')).toMatchObject({ plate: 'AB120CD', fixes: 0 });
  });
});

describe('isPlacedByShape', () => {
  it.each([
    ['PP587AO', [6], true], // LL-DDD-LL: `PP587A0` fits nothing
    ['BA302OZ', [5], true],
    ['RK101AO', [6], true],
    ['RK101AO', [4], false], // its 1 as an I would make the UK `RK10IAO`
    ['PJI7589', [2], true], // LLL-DDDD
    ['BCD103EC', [4], false], // read with its O, a personalised Eastern Cape plate
    ['ABC1123', [4], false], // the Mercosur `ABC1I23`
    ['AB120CD', [4], false], // the UK `AB12OCD`
    ['NZO6276', [2], false], // a KwaZulu-Natal town plate `NZ06276`
    ['BOB123', [1], false], // three letters and three digits: a variable-length series
    ['3K47720', [6], false], // a glyphs-only layout
    ['IAB0234', [0], false], // its 1 and O read as such make the Californian `1ABO234`
    ['IAB0234', [0, 3], false],
    ['IAI0234', [0], false], // the Czech `1A10234`
    ['BL10NDGP', [3], false], // the personalised `BL1ONDGP`
  ])('%s, settled at %j: %s', (plate, places, placed) => {
    expect(isPlacedByShape(plate, new Set(places))).toBe(placed);
  });
});

describe('hasForbiddenLetters', () => {
  it('flags a vowel in a general-series Gauteng plate', () => {
    expect(hasForbiddenLetters('KA35XKGP')).toBe(true);
    expect(hasForbiddenLetters('KP35XKGP')).toBe(false);
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

describe('rankLettersOnlyCandidates', () => {
  it('offers a letters-only plate, bigger and surer text first, never confirmed', () => {
    const inputs = [
      { text: 'LEXUS', confidence: 0.9, relativeHeight: 0.02, source: 'detect' },
      { text: 'G:WAGEN', confidence: 0.95, relativeHeight: 0.1, source: 'detect' },
      { text: 'G WAGEN', confidence: 0.93, relativeHeight: 0.1, source: 'reread' },
    ];

    expect(rankPlateCandidates(inputs)).toEqual([]);
    const ranked = rankLettersOnlyCandidates(inputs);

    expect(ranked.map((c) => c.plateNumber)).toEqual(['GWAGEN', 'LEXUS']);
    expect(ranked[0]?.sources.size).toBe(2);
    expect(ranked[0]?.warnings[0]).toMatch(/Letters only/);
    expect(isPlateConfirmed(ranked)).toBe(false);
  });

  it('ignores readings with digits, marks only, or too short or long to be a plate', () => {
    expect(
      rankLettersOnlyCandidates([
        { text: 'ABC123', confidence: 0.9 },
        { text: 'GP', confidence: 0.9 },
        { text: 'REGISTRATION', confidence: 0.9 },
        { text: '--', confidence: 0.9 },
      ]),
    ).toEqual([]);
  });
});

describe('isPlateConfirmed', () => {
  const read = (text: string, source: string, confidence = 0.9) => ({ text, confidence, source });

  it('confirms a plate two recognitions read letter for letter', () => {
    expect(
      isPlateConfirmed(rankPlateCandidates([read('7EAV033', 'detect'), read('7EAV033', 'reread')])),
    ).toBe(true);
  });

  it('does not confirm a plate one recognition read, however sure', () => {
    expect(isPlateConfirmed(rankPlateCandidates([read('7EAV033', 'detect', 1)]))).toBe(false);
  });

  const chars = (text: string, rival: number) =>
    [...text].map((char) => ({ char, p: 0.9, alt: char === 'F' ? 'E' : 'X', altP: 0.9 * rival }));

  it('does not confirm when another recognition read a look-alike variant and the choice was close', () => {
    const ranked = rankPlateCandidates([
      { ...read('7FAV033', 'detect'), chars: chars('7FAV033', 0.4) },
      { ...read('7FAV033', 'reread'), chars: chars('7FAV033', 0.4) },
      read('7EAV033', 'detect-full', 0.8),
    ]);

    expect(ranked[0]!.plateNumber).toBe('7FAV033');
    expect(isPlateConfirmed(ranked)).toBe(false);
  });

  it('does not confirm a character the readings left undecided, even with no variant read', () => {
    // A small plate read `2HFZ746` twice, M a close runner-up to H in both readings.
    const undecided = (rival: number) => (source: string) => ({
      ...read('2HFZ746', source),
      chars: [...'2HFZ746'].map((char) =>
        char === 'H'
          ? { char, p: 0.6, alt: 'M', altP: 0.6 * rival }
          : { char, p: 0.98, alt: 'X', altP: 0.001 },
      ),
    });
    const close = undecided(0.45);
    expect(isPlateConfirmed(rankPlateCandidates([close('detect'), close('reread')]))).toBe(false);
    // A runner-up under a third of the chosen character's probability leaves it decided.
    const clear = undecided(0.3);
    expect(isPlateConfirmed(rankPlateCandidates([clear('detect'), clear('reread')]))).toBe(true);
    // Decided in its clearest reading: a surer reading of the same plate is evidence too.
    expect(isPlateConfirmed(rankPlateCandidates([close('detect'), clear('confirm')]))).toBe(true);
  });

  it('does not confirm a plate spelt by the rest of a line with a letter of another script', () => {
    // Blurred by motion, `WXY184` was read `皖AY184` twice: a character lost, the rest a plate.
    const lost = rankPlateCandidates([read('皖AY184', 'detect'), read('皖AY·184', 'confirm')]);
    expect(lost[0]?.plateNumber).toBe('AY184');
    expect(isPlateConfirmed(lost)).toBe(false);
    expect(
      isPlateConfirmed(rankPlateCandidates([read('WXY184', 'detect'), read('WXY·184', 'confirm')])),
    ).toBe(true);
    // A full-width digit is dropped by the normaliser too: lost. A hyphen read as `一` is a separator.
    expect(
      isPlateConfirmed(
        rankPlateCandidates([read('7EAV０33', 'detect'), read('7EAV０33', 'reread')]),
      ),
    ).toBe(false);
    expect(
      isPlateConfirmed(
        rankPlateCandidates([read('ABC一1234', 'detect'), read('ABC-1234', 'reread')]),
      ),
    ).toBe(true);
  });

  it('does not confirm a reading too short to be a whole plate (a model badge)', () => {
    const badge = rankPlateCandidates([read('S300', 'detect'), read('S300', 'reread')]);
    expect(badge[0]?.plateNumber).toBe('S300');
    expect(isPlateConfirmed(badge)).toBe(false);
    expect(
      isPlateConfirmed(rankPlateCandidates([read('FWE50', 'detect'), read('FWE50', 'reread')])),
    ).toBe(true);
  });

  it('lets clear-cut readings outvote a lone variant (an edge mark read as a letter)', () => {
    const ranked = rankPlateCandidates([
      { ...read('RK161AG', 'detect'), chars: chars('RK161AG', 0.01) },
      { ...read('RK161AG', 'confirm'), chars: chars('RK161AG', 0.01) },
      read('URK161AG', 'reread', 0.7),
    ]);

    expect(isPlateConfirmed(ranked)).toBe(true);
  });

  it('does not confirm a plate when a reading nearly took one of its characters for a mark', () => {
    // A sticker between the groups read as `8` by both recognitions; one of them nearly read `:`.
    const sure = [...'2T480211'].map((char) => ({ char, p: 0.98, alt: 'X', altP: 0.001 }));
    const doubtful = sure.map((c, i) =>
      i === 3 ? { char: '8', p: 0.56, alt: ':', altP: 0.26 } : c,
    );
    const ranked = rankPlateCandidates([
      { ...read('2T480211', 'detect'), chars: sure },
      { ...read('2T480211', 'reread'), chars: doubtful },
    ]);

    expect(ranked[0]!.markRatio).toBeCloseTo(0.26 / 0.56);
    expect(isPlateConfirmed(ranked)).toBe(false);
  });

  it('still confirms when no reading came close to a mark', () => {
    const sure = [...'2T40211'].map((char) => ({ char, p: 0.98, alt: ':', altP: 0.01 }));
    const ranked = rankPlateCandidates([
      { ...read('2T40211', 'detect'), chars: sure },
      { ...read('2T40211', 'reread'), chars: sure },
    ]);

    expect(isPlateConfirmed(ranked)).toBe(true);
  });

  it("confirms the O/0 or I/1 the plate's shape settles, read as that glyph by two recognitions", () => {
    // `PP 587 A0`: the last place of LL-DDD-LL holds a letter, so the round glyph read twice is an O.
    const ranked = rankPlateCandidates([read('PP-587A0', 'detect'), read('PP 587 A0', 'reread')]);

    expect(ranked[0]).toMatchObject({ plateNumber: 'PP587AO', pattern: 'EU-LL-DDD-LL' });
    expect(isPlateConfirmed(ranked)).toBe(true);
    // `PJ1 7589`: the group rule reads the bar among letters as I; three letters and four digits
    // place it too, and `PJ17589` fits no series.
    const br = rankPlateCandidates([read('PJ1-7589', 'detect'), read('PJ1 7589', 'reread')]);
    expect(br[0]!.plateNumber).toBe('PJI7589');
    expect(isPlateConfirmed(br)).toBe(true);
  });

  it('leaves the glyph to the readings when its flip fits another series', () => {
    const twice = (text: string) =>
      rankPlateCandidates([read(text, 'detect'), read(text, 'reread')]);
    // A Mercosur `ABC 1I23` (its fifth place a letter) is also `ABC1123` of three letters and digits.
    const mercosur = twice('ABC1I23');
    expect(mercosur[0]!.plateNumber).toBe('ABC1123');
    expect(isPlateConfirmed(mercosur)).toBe(false);
    // `1AB O234`: IAB by the group rule, 0 by the Brazilian layout; read as such, the Californian
    // `1ABO234`.
    const us = twice('1AB O234');
    expect(us[0]!.plateNumber).toBe('IAB0234');
    expect(isPlateConfirmed(us)).toBe(false);
    // `NZ0·6276`: NZO by the group rule, but `NZ06276` is a KwaZulu-Natal town plate.
    const town = twice('NZ0·6276');
    expect(town[0]!.plateNumber).toBe('NZO6276');
    expect(isPlateConfirmed(town)).toBe(false);
  });

  it('counts the places any reading of a plate had settled', () => {
    // One recognition spelt `ABC1123`, the other read the Mercosur `ABC1I23`: the merged candidate
    // keeps the place the second one's pattern chose, and its flip fits the Mercosur layout.
    const ranked = rankPlateCandidates([read('ABC1123', 'detect'), read('ABC1I23', 'reread')]);

    expect(ranked[0]!.plateNumber).toBe('ABC1123');
    expect([...ranked[0]!.settledPlaces]).toEqual([4]);
    expect(isPlateConfirmed(ranked)).toBe(false);
  });

  it('does not confirm a plate a rival spells with the other glyph, however clear the readings', () => {
    const sure = [...'PP587A0'].map((char) => ({ char, p: 0.98, alt: 'X', altP: 0.01 }));
    const ranked = rankPlateCandidates([
      { ...read('PP-587A0', 'detect'), chars: sure },
      { ...read('PP 587 A0', 'reread'), chars: sure },
    ]);
    expect(isPlateConfirmed(ranked)).toBe(true);
    // One reading whose own rules kept the digit: outvoted as a look-alike would be, but the glyph
    // is what is disputed.
    const rival = { ...ranked[0]!, plateNumber: 'PP587A0', sources: new Set(['grey']), score: 1 };

    expect(isPlateConfirmed([...ranked, rival])).toBe(false);
  });

  it('does not confirm a settled O/0 that one recognition read', () => {
    // Two lines of one pass are one source.
    const ranked = rankPlateCandidates([read('PP-587A0', 'detect'), read('PP 587 A0', 'detect')]);

    expect(ranked[0]!.plateNumber).toBe('PP587AO');
    expect(isPlateConfirmed(ranked)).toBe(false);
  });

  it('does not count readings whose look-alikes a grammar changed as confirming', () => {
    // Both read `KP3S XK GP`; the SA pattern makes it KP35XKGP, which neither recognition saw.
    const ranked = rankPlateCandidates([read('KP3S XK GP', 'detect'), read('KP3SXKGP', 'reread')]);

    expect(ranked[0]!.plateNumber).toBe('KP35XKGP');
    expect(isPlateConfirmed(ranked)).toBe(false);
  });
});

describe('isDateTimeOrPhone', () => {
  it.each([
    ['2014-05-08', true],
    ['08.05.2014', true],
    ['08/05/14', true],
    ['14:12:59', true],
    ['148 12:59', true],
    ['2014-05-08 14:12:59', true],
    ['314-845-5900', true],
    ['3148455900', true],
    // Plates: a Czech sticker read as a colon, separators, digits-only series, a month that is none.
    ['1B1:9839', false],
    ['1:9839', false],
    ['RK-026AJ', false],
    ['OZC-8400', false],
    ['12-345-67', false],
    ['123-45-678', false],
    ['8951283', false],
    ['CA 123-456', false],
    ['ABC-1234', false],
    ['AB-123-CD', false],
    ['1A2 3456', false],
    ['ND 123-456', false],
    ['B 123 ABC', false],
    ['CA 12-05-20', false],
    ['A12:30', false],
    ['K1234-5678-9', false],
    ['(082) 555-1234', true],
  ])('%s -> %s', (text, expected) => {
    expect(isDateTimeOrPhone(text)).toBe(expected);
  });

  it('is never a plate candidate, however sure and however often read', () => {
    const stamp = { text: '2014-05-08', confidence: 0.99, source: 'detect' };
    expect(scorePlateCandidate(stamp)).toBeNull();
    expect(scorePlateCandidate({ ...stamp, text: '314-845-5900' })).toBeNull();
    const ranked = rankPlateCandidates([
      stamp,
      { ...stamp, source: 'reread' },
      { text: '14812859', confidence: 0.9, source: 'detect-full' },
    ]);
    expect(ranked.map((c) => c.plateNumber)).toEqual(['14812859']);
    expect(isPlateConfirmed(ranked)).toBe(false);
    expect(scorePlateCandidate({ ...stamp, text: '1B1:9839' })?.plateNumber).toBe('1B19839');
  });
});

describe('isNearVariant', () => {
  it.each([
    ['7FAV033', '7EAV033', true],
    ['2T480211', '2T40211', true],
    ['ZDA0044', '2DAD044', true],
    ['KP35XKGP', 'CA123456', false],
    ['ABC123', 'ABC123', false],
  ])('%s / %s -> %s', (a, b, expected) => {
    expect(isNearVariant(a, b)).toBe(expected);
  });
});

describe('rivalRatio', () => {
  it('is the closest runner-up letter or digit relative to the chosen one', () => {
    expect(
      rivalRatio([
        { char: 'H', p: 0.99, alt: 'M', altP: 0.005 },
        { char: 'O', p: 0.6, alt: '0', altP: 0.3 },
        { char: '-', p: 0.5, alt: '1', altP: 0.45 },
      ]),
    ).toBeCloseTo(0.5);
    expect(rivalRatio(undefined)).toBeNull();
  });
});

describe('isCorrectionSupported', () => {
  const chars = (text: string, at: number, alt: string, ratio: number) =>
    [...text].map((char, i) =>
      i === at ? { char, p: 0.9, alt, altP: 0.9 * ratio } : { char, p: 0.99, alt: '#', altP: 0 },
    );

  it('refuses a layout correction of a character the recogniser was sure of', () => {
    const input = { text: '2DA0044', chars: chars('2DA0044', 0, 'Z', 0.001) };

    expect(isCorrectionSupported('2DA0044', 'ZDA0044', input)).toBe(false);
    expect(scorePlateCandidate({ ...input, confidence: 0.9 })?.plateNumber).toBe('2DA0044');
  });

  it('lets the layout break a tie the recogniser left open', () => {
    const input = { text: '2DA0044', chars: chars('2DA0044', 0, 'Z', 0.4) };

    expect(isCorrectionSupported('2DA0044', 'ZDA0044', input)).toBe(true);
    expect(scorePlateCandidate({ ...input, confidence: 0.9 })?.plateNumber).toBe('ZDA0044');
  });

  it('lets the position settle O/0 and I/1, one glyph in many plate fonts', () => {
    const input = { text: 'PP587A0', chars: chars('PP587A0', 6, 'O', 0.001) };

    expect(isCorrectionSupported('PP587A0', 'PP587AO', input)).toBe(true);
  });

  it('keeps the correction when the reading has no per-character scores', () => {
    expect(isCorrectionSupported('2DA0044', 'ZDA0044', { text: '2DA0044' })).toBe(true);
  });

  it('aligns a reading whose edge mark was trimmed', () => {
    // `I` (a bolt) before an SA plate, `S` read for `5`: supported only when `5` was the runner-up.
    const raw = 'IKP3SXKGP';
    expect(
      isCorrectionSupported(raw, 'KP35XKGP', { text: raw, chars: chars(raw, 4, '5', 0.3) }),
    ).toBe(true);
    expect(
      isCorrectionSupported(raw, 'KP35XKGP', { text: raw, chars: chars(raw, 4, 'B', 0.3) }),
    ).toBe(false);
  });
});

describe('markRatio', () => {
  it('is the closest non-character runner-up relative to the chosen letter or digit', () => {
    expect(
      markRatio([
        { char: '8', p: 0.5, alt: ':', altP: 0.2 },
        { char: 'O', p: 0.6, alt: '0', altP: 0.5 },
        { char: '-', p: 0.5, alt: '.', altP: 0.45 },
        { char: 'K', p: 0.9, alt: ' ', altP: 0.09 },
      ]),
    ).toBeCloseTo(0.4);
    expect(markRatio(undefined)).toBe(0);
  });
});

describe('hasGlyphAmbiguity', () => {
  it.each([
    ['HLOKTY1', true],
    ['HL0KTY1', true],
    ['6MDU097', false],
    ['1868321', false],
    ['KP35XKGP', false],
  ])('%s -> %s', (plate, expected) => {
    expect(hasGlyphAmbiguity(plate)).toBe(expected);
  });

  it('keeps a foreign plate with O/0 inside letters uncertain however many readings agree', () => {
    const ranked = rankPlateCandidates([
      { text: 'HLO KTY1', confidence: 0.9, source: 'detect' },
      { text: 'HLO KTY1', confidence: 0.9, source: 'reread' },
    ]);

    expect(ranked[0]!.plateNumber).toBe('HLOKTY1');
    expect(isPlateConfirmed(ranked)).toBe(false);
  });
});
