import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';

import { neutraliseFormula, toCsv } from './csv';

describe('neutraliseFormula', () => {
  it.each([
    ['=HYPERLINK("http://x","y")', `'=HYPERLINK("http://x","y")`],
    ['+27821234567', `'+27821234567`],
    ['-2+3', `'-2+3`],
    ['@SUM(A1)', `'@SUM(A1)`],
    ['\t=1+1', `'\t=1+1`],
    ['\r=1+1', `'\r=1+1`],
  ])('%j becomes text', (input, expected) => {
    expect(neutraliseFormula(input)).toBe(expected);
  });

  it.each(['Sipho', '8001015009087', 'CA123456', "O'Neil", ''])('%j stays as it is', (input) => {
    expect(neutraliseFormula(input)).toBe(input);
  });
});

describe('toCsv', () => {
  it('quotes separators and line breaks and reads back to the same neutralised cells', () => {
    const csv = toCsv(
      ['Name', 'Note'],
      [
        ['Nkosi, Sipho', 'line 1\nline 2'],
        ['=1+1', null],
      ],
    );
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(parse(csv, { bom: true })).toEqual([
      ['Name', 'Note'],
      ['Nkosi, Sipho', 'line 1\nline 2'],
      ["'=1+1", ''],
    ]);
  });
});
