import { describe, expect, it } from 'vitest';

import {
  confirmsByCheckDigits,
  extractMrzLines,
  formatOfFirstLine,
  mrzCheckDigit,
  parseMrz,
} from './mrz';

const NOW = new Date('2026-01-01T00:00:00Z');
const TD3 = [
  'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
  'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
];
const TD1 = [
  'I<UTOD231458907<<<<<<<<<<<<<<<',
  '7408122F1204159UTO<<<<<<<<<<<6',
  'ERIKSSON<<ANNA<MARIA<<<<<<<<<<',
];
// Made for this test (ICAO 9303 part 6 layout); check digits computed with the 7-3-1 weights.
const TD2 = ['I<ZAFMOKOENA<<THABO<JAMES<<<<<<<<<<<', 'A123456784ZAF8503150M3001318<<<<<<<2'];

describe('mrzCheckDigit', () => {
  it('computes the ICAO 7-3-1 check digit', () => {
    expect(mrzCheckDigit('L898902C3')).toBe('6');
    expect(mrzCheckDigit('740812')).toBe('2');
  });
});

describe('parseMrz', () => {
  it('parses the ICAO TD3 specimen with every check passing', () => {
    const mrz = parseMrz(TD3, NOW);

    expect(mrz).toMatchObject({
      format: 'TD3',
      checksValid: true,
      corrected: false,
      documentNumber: 'L898902C3',
      surname: 'ERIKSSON',
      givenNames: 'ANNA MARIA',
      nationality: 'UTO',
      dateOfBirth: '1974-08-12',
      expiryDate: '2012-04-15',
      sex: 'F',
      personalNumber: 'ZE184226B',
    });
  });

  it('parses the ICAO TD1 specimen', () => {
    const mrz = parseMrz(TD1, NOW);

    expect(mrz).toMatchObject({ format: 'TD1', checksValid: true, documentNumber: 'D23145890' });
  });

  it('parses a TD2 zone (2 x 36) with every check, the composite included, passing', () => {
    const mrz = parseMrz(TD2, NOW);

    expect(mrz).toMatchObject({
      format: 'TD2',
      checksValid: true,
      checks: { documentNumber: true, birthDate: true, expiryDate: true, composite: true },
      documentNumber: 'A12345678',
      surname: 'MOKOENA',
      givenNames: 'THABO JAMES',
      issuingCountry: 'ZAF',
      nationality: 'ZAF',
      dateOfBirth: '1985-03-15',
      expiryDate: '2030-01-31',
      sex: 'M',
    });
  });

  it('reports a TD2 zone whose composite check digit is wrong', () => {
    const wrong = [TD2[0]!, 'A123456784ZAF8503150M3001318<<<<<<<5'];

    const mrz = parseMrz(wrong, NOW);

    expect(mrz).toMatchObject({ format: 'TD2', checksValid: false, checks: { composite: false } });
  });

  it('corrects a look-alike only where a check digit confirms it', () => {
    const misread = [TD3[0]!, 'L898902C36UTO74O8122F1204159ZE184226B<<<<<10'];

    const mrz = parseMrz(misread, NOW);

    expect(mrz?.checksValid).toBe(true);
    expect(mrz?.mrzLines[1]).toBe(TD3[1]);
    expect(mrz?.rawLines[1]).toBe(misread[1]);
  });

  it('reports failing checks instead of returning a silently wrong zone', () => {
    const wrong = [TD3[0]!, 'L898902C36UTO7408122F1204159ZE184226B<<<<<19'];

    const mrz = parseMrz(wrong, NOW);

    expect(mrz?.checksValid).toBe(false);
    expect(mrz?.checks.composite).toBe(false);
    expect(mrz?.mrzLines[1]).toBe(wrong[1]);
  });

  it('reads a visa (MRV-B) whose checks have no composite digit', () => {
    const mrz = parseMrz(
      ['VCPOLKOWALSKA<KWIATKOWSKA<<BEATA<<<<', 'PL00000008POL6002084F0505011<<<<<<<0'],
      NOW,
    );

    expect(mrz).toMatchObject({
      format: 'MRVB',
      checksValid: true,
      surname: 'KOWALSKA KWIATKOWSKA',
    });
  });
});

describe('formatOfFirstLine', () => {
  it('names the format from the document code and the length of a first line', () => {
    expect(formatOfFirstLine(TD3[0]!)).toBe('TD3');
    expect(formatOfFirstLine(TD1[0]!)).toBe('TD1');
    expect(formatOfFirstLine(TD2[0]!)).toBe('TD2');
    expect(formatOfFirstLine(`V${TD3[0]!.slice(1)}`)).toBe('MRVA');
    expect(formatOfFirstLine(`V${TD2[0]!.slice(1)}`)).toBe('MRVB');
  });

  it('reads a card line over-read by fillers as TD1, by its length or by its document number', () => {
    expect(formatOfFirstLine(`${TD1[0]!}<<<`)).toBe('TD1');
    expect(formatOfFirstLine(`${TD1[0]!}<<<<<<`)).toBe('TD1');
    // No document number: the nearer length decides, a tie (33) the format of more lines.
    expect(formatOfFirstLine('I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<')).toBe('TD1');
    expect(formatOfFirstLine('I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<')).toBe('TD2');
  });

  it('takes OCR spacing and look-alike fillers as read', () => {
    expect(formatOfFirstLine('P<UTO ERIKSSON««ANNA<MARIA<<<<<<<<<<<<<<<<<<<')).toBe('TD3');
  });

  it('finds no format in a line that opens with no document code and country', () => {
    expect(formatOfFirstLine(TD3[1]!)).toBeNull();
    expect(formatOfFirstLine(TD1[1]!)).toBeNull();
    expect(formatOfFirstLine(`B${TD3[0]!.slice(1)}`)).toBeNull();
  });
});

describe('extractMrzLines', () => {
  it('finds the zone in noisy OCR text and restores lost fillers', () => {
    const text = `PASSPORT\nSome name\n${TD3[0]!.replace('<<<<<', '<<<')}\n${TD3[1]!.replace(/</g, ' <')}\n`;

    expect(extractMrzLines(text)).toEqual(TD3);
  });
});

describe('parseMrz (class-safe corrections)', () => {
  it('never "fixes" a wrong check digit by putting a letter into a date', () => {
    const printed = [
      'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
      'L898902C36UTO7408123F1204159ZE184226B<<<<<10',
    ];

    const mrz = parseMrz(printed, NOW);

    expect(mrz?.mrzLines[1]).toBe(printed[1]);
    expect(mrz?.checksValid).toBe(false);
  });
});

describe('confirmsByCheckDigits', () => {
  const valid = parseMrz(TD3, NOW)!;
  const withLine2 = (line2: string) => parseMrz([TD3[0]!, line2], NOW)!;

  it('confirms an identical reading', () => {
    expect(confirmsByCheckDigits(valid, parseMrz(TD3, NOW)!)).toBe(true);
  });

  it('confirms a reading that differs by a look-alike its own check digit rejects (B read as 8)', () => {
    // Personal number ZE184226B: with 8 the field's check digit fails, so the digit has ruled.
    const other = withLine2('L898902C36UTO7408122F1204159ZE1842268<<<<<10');

    expect(other.checks.personalNumber).toBe(false);
    expect(confirmsByCheckDigits(valid, other)).toBe(true);
  });

  it('does not confirm a look-alike where no check digit ruled (names have none)', () => {
    // `<` and `K` are look-alikes, but the name field has no check digit.
    const other = parseMrz(['P<UTOERIKSSON<<ANNAKMARIA<<<<<<<<<<<<<<<<<<<', TD3[1]!], NOW)!;

    expect(other.mrzLines[0]).toContain('ANNAKMARIA');
    expect(confirmsByCheckDigits(valid, other)).toBe(false);
  });

  it('does not confirm a difference that is not a look-alike, or a reading that is itself invalid', () => {
    const other = withLine2('L898902C36UTO7408122F1204159ZE184226X<<<<<10');

    expect(confirmsByCheckDigits(valid, other)).toBe(false);
    expect(confirmsByCheckDigits(other, valid)).toBe(false);
  });
});
