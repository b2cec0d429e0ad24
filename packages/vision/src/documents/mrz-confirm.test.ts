import { describe, expect, it } from 'vitest';

import { mrzCheckDigit, parseMrz } from './mrz';
import {
  type MrzEvidence,
  alignTo,
  codeInViz,
  confirmMrzFields,
  nameInViz,
  vizWords,
} from './mrz-confirm';

const NOW = new Date('2026-01-01T00:00:00Z');
const TD3 = [
  'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
  'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
];
/** The same zone with the name misread by a letter (M as N): every check still passes. */
const MISREAD_NAME = [TD3[0]!.replace('MARIA', 'NARIA'), TD3[1]!];

const reading = (lines: string[]) => parseMrz(lines, NOW)!;
const evidence = (lines: string[], group: string): MrzEvidence => ({
  reading: reading(lines),
  group,
});

describe('confirmMrzFields', () => {
  it('confirms every field when two independent readings agree on a check-valid zone', () => {
    const a = evidence(TD3, 'tesseract:region0@1.00');
    const b = evidence(TD3, 'paddle:page@1.00');

    const result = confirmMrzFields(a.reading, [a, b]);

    expect(result.uncertain).toEqual([]);
    expect(result.linesConfirmed).toBe(true);
  });

  it('lists the names and the lines when only one reading has them, though every check passes', () => {
    const a = evidence(MISREAD_NAME, 'tesseract:region0@1.00');

    const result = confirmMrzFields(a.reading, [a]);

    expect(a.reading.checksValid).toBe(true);
    expect(result.uncertain).toEqual(expect.arrayContaining(['surname', 'givenNames', 'mrzLines']));
    // Check digits cover these: certain on their own.
    expect(result.uncertain).not.toContain('documentNumber');
    expect(result.uncertain).not.toContain('dateOfBirth');
    expect(result.uncertain).not.toContain('expiryDate');
  });

  it('does not count two engines of one family on one image as two readings', () => {
    const legacy = evidence(MISREAD_NAME, 'tesseract:region0@1.00');
    const combined = evidence(MISREAD_NAME, 'tesseract:region0@1.00');

    expect(confirmMrzFields(legacy.reading, [legacy, combined]).uncertain).toContain('givenNames');
  });

  it('does not let two preprocessings of one engine confirm a name they both misread', () => {
    // Tesseract on the crop and on its binarised copy: the same pixels through the same classifier,
    // so a misread `M` comes out `N` in both. Every check digit still passes.
    const crop = evidence(MISREAD_NAME, 'tesseract:region0@1.00');
    const binarised = evidence(MISREAD_NAME, 'tesseract:region0-binarised@1.00');
    const otherScale = evidence(MISREAD_NAME, 'tesseract:region0@2.00');

    const result = confirmMrzFields(crop.reading, [crop, binarised, otherScale]);

    expect(crop.reading.checksValid).toBe(true);
    expect(result.uncertain).toEqual(expect.arrayContaining(['givenNames', 'mrzLines']));
    // Nor the other uncovered fields the two variants read alike.
    expect(result.uncertain).toEqual(
      expect.arrayContaining(['surname', 'documentCode', 'issuingCountry', 'nationality', 'sex']),
    );
    expect(result.uncertain).not.toContain('documentNumber');
  });

  it('does not let two PaddleOCR readings (page boxes, enlarged crop) confirm each other', () => {
    const page = evidence(MISREAD_NAME, 'paddle:page@1.00');
    const crop = evidence(MISREAD_NAME, 'paddle:region0@1.00');

    expect(confirmMrzFields(page.reading, [page, crop]).uncertain).toContain('givenNames');
  });

  it('confirms a name when the other engine reads it too, and lets same-engine variants only vote', () => {
    const tess = evidence(TD3, 'tesseract:region0@1.00');
    const paddle = evidence(TD3, 'paddle:region0@1.00');
    const binarised = evidence(MISREAD_NAME, 'tesseract:region0-binarised@1.00');
    expect(confirmMrzFields(tess.reading, [tess, paddle, binarised]).uncertain).toEqual([]);

    // Two engines against one, but the one has more votes (three preprocessings): not confirmed.
    const more = [
      evidence(MISREAD_NAME, 'paddle:page@1.00'),
      evidence(MISREAD_NAME, 'paddle:region0@2.00'),
      evidence(MISREAD_NAME, 'paddle:page@2.00'),
    ];
    expect(confirmMrzFields(tess.reading, [tess, paddle, ...more]).uncertain).toContain(
      'givenNames',
    );
  });

  it('keeps a name uncertain when a rival reading has as much support', () => {
    const a = evidence(MISREAD_NAME, 'tesseract:region0@1.00');
    const b = evidence(MISREAD_NAME, 'paddle:region0@1.00');
    const c = evidence(TD3, 'paddle:page@1.00');
    const d = evidence(TD3, 'tesseract:region0-binarised@1.00');

    const result = confirmMrzFields(a.reading, [a, b, c, d]);

    expect(result.uncertain).toEqual(expect.arrayContaining(['givenNames', 'mrzLines']));
    // The surname is read alike by all four.
    expect(result.uncertain).not.toContain('surname');
  });

  it('accepts names the visual zone prints, and the lines when they hold exactly those names', () => {
    const a = evidence(TD3, 'tesseract:region0@1.00');
    // A second reading agrees on everything but garbles the name line.
    const b = evidence(
      [TD3[0]!.replace('ERIKSSON<<ANNA', 'ERIKSS0N<KANNA'), TD3[1]!],
      'paddle:page@1.00',
    );

    expect(confirmMrzFields(a.reading, [a, b]).uncertain).toContain('surname');
    const result = confirmMrzFields(
      a.reading,
      [a, b],
      'PASSPORT\nSurname\nEriksson\nGiven names\nAnna Maria',
    );

    expect(result.uncertain).toEqual([]);
  });

  it('does not accept a misread name that the visual zone does not print', () => {
    const a = evidence(MISREAD_NAME, 'tesseract:region0@1.00');

    const result = confirmMrzFields(a.reading, [a], 'Surname ERIKSSON Given names ANNA MARIA');

    expect(result.uncertain).toContain('givenNames');
    expect(result.uncertain).not.toContain('surname');
  });

  it('does not trust a check digit that chose its own correction when the composite fails', () => {
    // TD1 with a document number whose check only passes after a look-alike swap, composite failing.
    const td1 = [
      'IDESPAAA1000014<00000023T<<<<<',
      '7212018F1101236ESP<<<<<<<<<<<8',
      'ESPANOLA<ESPANOLA<CARMEN<<<<<<',
    ];
    const r = reading(td1);
    const a: MrzEvidence = { reading: r, group: 'tesseract:region0@1.00' };
    const b: MrzEvidence = { reading: reading(td1), group: 'paddle:page@1.00' };

    const result = confirmMrzFields(r, [a, b]);

    expect(r.checkCorrected.length).toBeGreaterThan(0);
    expect(r.checks.documentNumber).toBe(true);
    expect(result.uncertain).toEqual(expect.arrayContaining(['documentNumber', 'mrzLines']));
  });
});

/** TD3's second line with another document number, its check digit and the composite recomputed. */
function withDocumentNumber(number: string): string[] {
  const line = `${number}${mrzCheckDigit(number)}${TD3[1]!.slice(10, 43)}`;
  const composite = mrzCheckDigit(line.slice(0, 10) + line.slice(13, 20) + line.slice(21, 43));
  return [TD3[0]!, line + composite];
}

describe('confirmMrzFields: a zone misread in its structure', () => {
  // `P<UTOERIKSSON` with its `U` lost: code `TOE`, which is no ICAO code, surname `RIKSSON`. Every
  // check digit is on the second line, which was read right.
  const SHIFTED = [
    'P<TOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<<',
    'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
  ];

  it('confirms neither the names nor the code after a code that is no ICAO code, however many read them', () => {
    const a = evidence(SHIFTED, 'tesseract:region0@1.00');
    const b = evidence(SHIFTED, 'paddle:page@1.00');

    expect(a.reading.checksValid).toBe(true);
    const result = confirmMrzFields(a.reading, [a, b], 'RIKSSON ANNA MARIA');
    expect(result.uncertain).toEqual(
      expect.arrayContaining(['issuingCountry', 'surname', 'givenNames', 'mrzLines']),
    );
    expect(result.uncertain).not.toContain('documentNumber');
  });

  it('does not count a shifted reading towards the names of another', () => {
    // The chosen reading has a known code and the same shifted surname (`P<UTORIKSSON`, `E` lost);
    // its only support is the reading whose code is no ICAO code.
    const chosen = evidence(
      ['P<UTORIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<<', SHIFTED[1]!],
      'paddle:page@1.00',
    );
    const shifted = evidence(SHIFTED, 'tesseract:region0@1.00');

    expect(chosen.reading.surname).toBe(shifted.reading.surname);
    const result = confirmMrzFields(chosen.reading, [chosen, shifted]);
    expect(result.uncertain).toEqual(expect.arrayContaining(['surname', 'givenNames']));
  });

  // The composite check digit misread (`9` for `0`): the zone fails its checks.
  const FAILING = [TD3[0]!, `${TD3[1]!.slice(0, 43)}9`];

  it('does not claim a field on its own check digit when the zone fails its checks', () => {
    const a = evidence(FAILING, 'tesseract:region0@1.00');

    expect(a.reading.checksValid).toBe(false);
    expect(a.reading.checks.documentNumber).toBe(true);
    const alone = confirmMrzFields(a.reading, [a]);
    expect(alone.uncertain).toEqual(
      expect.arrayContaining(['documentNumber', 'dateOfBirth', 'expiryDate']),
    );
    // Another engine that read the same characters there vouches for them.
    const b = evidence(FAILING, 'paddle:page@1.00');
    const both = confirmMrzFields(a.reading, [a, b]);
    expect(both.uncertain).not.toContain('documentNumber');
    expect(both.uncertain).not.toContain('dateOfBirth');
  });

  it('claims nothing in a zone whose layout does not hold', () => {
    // A sex that is no sex: the second line is not where the layout says.
    const garbled = [TD3[0]!, `${TD3[1]!.slice(0, 20)}Q${TD3[1]!.slice(21)}`];
    const a = evidence(garbled, 'tesseract:region0@1.00');
    const b = evidence(garbled, 'paddle:page@1.00');

    expect(a.reading.checks.structure).toBe(false);
    expect(a.reading.checks.documentNumber).toBe(true);
    expect(confirmMrzFields(a.reading, [a, b]).uncertain).toEqual(
      expect.arrayContaining(['documentNumber', 'dateOfBirth']),
    );
  });
});

describe('confirmMrzFields: check digits contested', () => {
  it('does not claim a document number that another reading passes its check with otherwise', () => {
    // A misread field passes its check digit by chance one time in ten: two readings that both pass
    // with different numbers leave the number open.
    const a = evidence(TD3, 'tesseract:region0@1.00');
    const b = evidence(withDocumentNumber('L898902C4'), 'paddle:page@1.00');

    const result = confirmMrzFields(a.reading, [a, b]);

    expect(b.reading.checks.documentNumber).toBe(true);
    expect(result.uncertain).toEqual(
      expect.arrayContaining(['documentNumber', 'passportNumber', 'mrzLines']),
    );
    expect(result.uncertain).not.toContain('dateOfBirth');
  });

  it('is not contested by a reading whose check fails there', () => {
    const a = evidence(TD3, 'tesseract:region0@1.00');
    const lines = withDocumentNumber('L898902C4');
    const failing = [lines[0]!, `${lines[1]!.slice(0, 9)}0${lines[1]!.slice(10)}`];
    const b = evidence(failing, 'paddle:page@1.00');

    expect(b.reading.checks.documentNumber).toBe(false);
    expect(confirmMrzFields(a.reading, [a, b]).uncertain).not.toContain('documentNumber');
  });
});

describe('confirmMrzFields: a check digit against two engines', () => {
  it('does not claim a field that two engines read otherwise, though its check passes', () => {
    // Seen from the side, both engines read the document number one way (its check failing) and one
    // reading of one engine another way, whose check passed by chance after a second misread.
    const lines = withDocumentNumber('L898902C4');
    const failing = [lines[0]!, `${lines[1]!.slice(0, 9)}0${lines[1]!.slice(10)}`];
    const chosen = evidence(TD3, 'paddle:page@1.00');
    const tesseract = evidence(failing, 'tesseract:region0@1.00');
    const paddle = evidence(failing, 'paddle:region0@1.00');

    expect(tesseract.reading.checks.documentNumber).toBe(false);
    const result = confirmMrzFields(chosen.reading, [chosen, tesseract, paddle]);

    expect(result.uncertain).toEqual(
      expect.arrayContaining(['documentNumber', 'passportNumber', 'mrzLines']),
    );
    // The fields all three read alike keep their check digits' word.
    expect(result.uncertain).not.toContain('dateOfBirth');
    expect(result.uncertain).not.toContain('expiryDate');
  });

  it('is not outvoted by engines that misread only the check digit alike', () => {
    // Both other engines read the number as chosen and its check digit otherwise (failing).
    // (`7`: no look-alike swap in the number makes that check pass, so the parser corrects nothing.)
    const lines = [TD3[0]!, `${TD3[1]!.slice(0, 9)}7${TD3[1]!.slice(10)}`];
    const chosen = evidence(TD3, 'paddle:page@1.00');
    const tesseract = evidence(lines, 'tesseract:region0@1.00');
    const paddle = evidence(lines, 'paddle:region0@1.00');

    expect(tesseract.reading.checks.documentNumber).toBe(false);
    expect(confirmMrzFields(chosen.reading, [chosen, tesseract, paddle]).uncertain).not.toContain(
      'documentNumber',
    );
  });

  it('still lets the check digit rule between one engine and the other', () => {
    const lines = withDocumentNumber('L898902C4');
    const failing = [lines[0]!, `${lines[1]!.slice(0, 9)}0${lines[1]!.slice(10)}`];
    const chosen = evidence(TD3, 'paddle:page@1.00');
    const tesseract = evidence(failing, 'tesseract:region0@1.00');
    const binarised = evidence(failing, 'tesseract:region0-binarised@1.00');

    const result = confirmMrzFields(chosen.reading, [chosen, tesseract, binarised]);

    expect(result.uncertain).not.toContain('documentNumber');
  });
});

describe('confirmMrzFields: no given names', () => {
  it('does not claim there are none when the surname is unsure, visual zone or not', () => {
    // The separator lost (`ERIKSSON<ANNA<MARIA`): the names run together as a surname, no given names.
    const joined = evidence(
      [TD3[0]!.replace('ERIKSSON<<ANNA<MARIA', 'ERIKSSON<ANNA<MARIA<'), TD3[1]!],
      'tesseract:region0@1.00',
    );
    const right = evidence(TD3, 'paddle:page@1.00');

    expect(joined.reading.givenNames).toBe('');
    const result = confirmMrzFields(joined.reading, [joined, right], 'Surname\nEriksson');

    expect(result.uncertain).toEqual(expect.arrayContaining(['surname', 'givenNames', 'mrzLines']));
  });

  it('does not claim there are none when two engines read none but disagree on the surname', () => {
    const a = evidence(
      ['P<UTOERIKSSON<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<', TD3[1]!],
      'tesseract:region0@1.00',
    );
    const b = evidence(
      ['P<UTOERIKSEN<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<', TD3[1]!],
      'paddle:page@1.00',
    );

    expect(b.reading.givenNames).toBe('');
    expect(confirmMrzFields(a.reading, [a, b]).uncertain).toEqual(
      expect.arrayContaining(['surname', 'givenNames']),
    );
  });

  it('does not let the visual zone vouch for no given names against an engine that read some', () => {
    // The surname is confirmed (both engines); one engine read no given names, the other `ANNA MARIA`.
    const none = evidence(
      ['P<UTOERIKSSON<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<', TD3[1]!],
      'tesseract:region0@1.00',
    );
    const some = evidence(TD3, 'paddle:page@1.00');

    const result = confirmMrzFields(none.reading, [none, some], 'Surname\nEriksson');

    expect(result.uncertain).not.toContain('surname');
    expect(result.uncertain).toContain('givenNames');
  });

  it('confirms a zone without given names that both engines read so', () => {
    const none = ['P<UTOERIKSSON<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<', TD3[1]!];
    const a = evidence(none, 'tesseract:region0@1.00');
    const b = evidence(none, 'paddle:page@1.00');

    expect(a.reading.givenNames).toBe('');
    expect(confirmMrzFields(a.reading, [a, b]).uncertain).toEqual([]);
  });
});

describe('confirmMrzFields: country codes and the visual zone', () => {
  /** The two engines disagree on the nationality only (`UTO` against `UKO`, no check digit there). */
  const disputed = () => {
    const a = evidence(TD3, 'paddle:page@1.00');
    const b = evidence(
      [TD3[0]!, `${TD3[1]!.slice(0, 10)}UKO${TD3[1]!.slice(13)}`],
      'tesseract:region0@1.00',
    );
    return { a, b };
  };

  it('confirms a disputed country code that the visual zone prints as a word, and the lines with it', () => {
    const { a, b } = disputed();
    expect(confirmMrzFields(a.reading, [a, b]).uncertain).toEqual(['nationality', 'mrzLines']);

    const result = confirmMrzFields(a.reading, [a, b], 'Nationality\nUTO\nSex F');

    expect(result.uncertain).toEqual([]);
    expect(result.fieldConfidence.nationality).toBeGreaterThanOrEqual(0.9);
  });

  it('keeps it uncertain when the visual zone does not print that code, or the checks fail', () => {
    const { a, b } = disputed();
    expect(confirmMrzFields(a.reading, [a, b], 'UTOPIA Nationality UT').uncertain).toContain(
      'nationality',
    );

    const failing = evidence(
      [TD3[0]!, `${TD3[1]!.slice(0, 9)}0${TD3[1]!.slice(10)}`],
      'paddle:page@1.00',
    );
    expect(failing.reading.checksValid).toBe(false);
    expect(confirmMrzFields(failing.reading, [failing, b], 'UTO').uncertain).toContain(
      'nationality',
    );
  });

  it('does not let the visual zone outweigh two engines that both read another code', () => {
    const { b } = disputed();
    const tess = evidence(TD3, 'tesseract:region0@1.00');
    const paddle = evidence(b.reading.mrzLines, 'paddle:region0@1.00');
    const binarised = evidence(b.reading.mrzLines, 'tesseract:region0-binarised@1.00');

    // UTO: tesseract + the visual zone; UKO: PaddleOCR + tesseract (binarised): as many sources.
    expect(confirmMrzFields(tess.reading, [tess, paddle, binarised], 'UTO').uncertain).toContain(
      'nationality',
    );
  });

  it('codeInViz needs the whole code as a word of three letters', () => {
    const words = vizWords('Code / Code: LUX  Nationality D');
    expect(codeInViz('LUX', words)).toBe(true);
    expect(codeInViz('LU', words)).toBe(false);
    expect(codeInViz('LU', vizWords('LU'))).toBe(false);
    expect(codeInViz('D', vizWords('D'))).toBe(false);
  });
});

describe('alignTo', () => {
  it('maps each character to what the other reading has there, across a lost and a gained character', () => {
    const aligned = alignTo('08CD5FRA6004', '8CD5FRAG6004', 4)!;

    expect(aligned[0]).toBe(''); // the other reading lost the leading 0
    expect(aligned.slice(5, 8).join('')).toBe('FRA');
    expect(aligned[8]).toBe('G6'); // and gained a G before the 6
  });

  it('gives up on lines too far apart to be readings of one print', () => {
    expect(alignTo('P<UTOERIKSSON', 'B8IOZZB7FI3OI', 4)).toBeNull();
  });

  it('answers a repeated alignment alike, with a result no caller can alter', () => {
    const first = alignTo('08CD5FRA6004', '8CD5FRAG6004', 4)!;

    expect(() => (first as string[]).splice(0, 1)).toThrow();
    expect(alignTo('08CD5FRA6004', '8CD5FRAG6004', 4)).toEqual(first);
    expect(alignTo('08CD5FRA6004', '8CD5FRAG6004', 0)).toBeNull();
  });

  it('keeps apart pairs whose strings, joined by a newline, would read the same', () => {
    const split = alignTo('KXL\nQ', 'W', 8)!;

    const other = alignTo('KXL', 'Q\nW', 8)!;

    expect(split).toHaveLength(5);
    expect(other).toHaveLength(3);
    expect(other.join('')).toBe('Q\nW');
  });
});

describe('confirmMrzFields on aligned readings', () => {
  it('counts a reading that lost a character elsewhere on the line where it reads the field alike', () => {
    const a = evidence(TD3, 'paddle:region0@1.00');
    // Tesseract lost the document number's first character and doubled a filler: its checks fail,
    // but its nationality and sex are the chosen reading's, character for character.
    const shifted = [TD3[0]!, `${TD3[1]!.slice(1, 28)}<${TD3[1]!.slice(28)}`];
    const b: MrzEvidence = { reading: parseMrz(shifted, NOW)!, group: 'tesseract:region0@1.00' };

    const result = confirmMrzFields(a.reading, [a, b]);

    expect(b.reading.checksValid).toBe(false);
    expect(result.uncertain).not.toContain('nationality');
    expect(result.uncertain).not.toContain('sex');
  });

  it('does not count a reading whose field differs by one character, aligned or not', () => {
    const a = evidence(TD3, 'paddle:region0@1.00');
    const other = [TD3[0]!, `${TD3[1]!.slice(1, 10)}UT0${TD3[1]!.slice(13)}<`];
    const b: MrzEvidence = { reading: parseMrz(other, NOW)!, group: 'tesseract:region0@1.00' };

    expect(confirmMrzFields(a.reading, [a, b]).uncertain).toContain('nationality');
  });
});

describe('vizWords / nameInViz', () => {
  it('transliterates printed names as the MRZ does (accents dropped)', () => {
    const words = vizWords('Apellidos / Surname: Española García');

    expect(nameInViz('ESPANOLA GARCIA', words)).toBe(true);
    expect(nameInViz('ESPANOLA GARCIO', words)).toBe(false);
  });

  it('never confirms a one-letter name part (an initial, or a name cut short by a misread)', () => {
    const words = vizWords('Surname VADIS Given names QUO O');

    expect(nameInViz('QUO', words)).toBe(true);
    expect(nameInViz('O', words)).toBe(false);
    expect(nameInViz('VADIS O', words)).toBe(false);
  });
});
