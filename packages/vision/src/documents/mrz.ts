/**
 * Machine-readable zones (ICAO 9303): layouts TD1 (3x30), TD2 (2x36), TD3 (2x44) and visas MRV-A/B.
 * Check digits decide everything: look-alike OCR errors are corrected only where a check digit
 * confirms the correction, and a zone whose checks still fail is reported as such, never as valid.
 */
import { parse as parseWithMrzPackage, states } from 'mrz';

export type MrzFormat = 'TD1' | 'TD2' | 'TD3' | 'MRVA' | 'MRVB';

const LENGTHS: Record<MrzFormat, { lines: number; length: number }> = {
  TD1: { lines: 3, length: 30 },
  TD2: { lines: 2, length: 36 },
  TD3: { lines: 2, length: 44 },
  MRVA: { lines: 2, length: 44 },
  MRVB: { lines: 2, length: 36 },
};

const charValue = (c: string) =>
  c === '<' ? 0 : c >= '0' && c <= '9' ? c.charCodeAt(0) - 48 : c.charCodeAt(0) - 55;

export function mrzCheckDigit(s: string): string {
  let sum = 0;
  for (let i = 0; i < s.length; i++) sum += charValue(s[i]!) * [7, 3, 1][i % 3]!;
  return String(sum % 10);
}

type Span = [line: number, start: number, end: number];
type CheckSpec = { name: string; spans: Span[]; digit: [line: number, index: number] };
/** A: letters/<, N: digits, X: letters/digits/<, S: sex M/F/<. */
type CharClass = 'A' | 'N' | 'X' | 'S';
type FieldSpec = { line: number; start: number; end: number; cls: CharClass };

function layout(format: MrzFormat): { checks: CheckSpec[]; classes: FieldSpec[] } {
  switch (format) {
    case 'TD3':
    case 'MRVA': {
      const checks: CheckSpec[] = [
        { name: 'documentNumber', spans: [[1, 0, 9]], digit: [1, 9] },
        { name: 'birthDate', spans: [[1, 13, 19]], digit: [1, 19] },
        { name: 'expiryDate', spans: [[1, 21, 27]], digit: [1, 27] },
      ];
      if (format === 'TD3') {
        checks.push({ name: 'personalNumber', spans: [[1, 28, 42]], digit: [1, 42] });
        checks.push({
          name: 'composite',
          spans: [
            [1, 0, 10],
            [1, 13, 20],
            [1, 21, 43],
          ],
          digit: [1, 43],
        });
      }
      return {
        checks,
        classes: [
          { line: 0, start: 0, end: 1, cls: 'A' },
          { line: 0, start: 2, end: 5, cls: 'A' },
          { line: 0, start: 5, end: 44, cls: 'A' },
          { line: 1, start: 9, end: 10, cls: 'N' },
          { line: 1, start: 10, end: 13, cls: 'A' },
          { line: 1, start: 13, end: 20, cls: 'N' },
          { line: 1, start: 20, end: 21, cls: 'S' },
          { line: 1, start: 21, end: 28, cls: 'N' },
          ...(format === 'TD3' ? [{ line: 1, start: 42, end: 44, cls: 'N' as const }] : []),
        ],
      };
    }
    case 'TD2':
    case 'MRVB': {
      const checks: CheckSpec[] = [
        { name: 'documentNumber', spans: [[1, 0, 9]], digit: [1, 9] },
        { name: 'birthDate', spans: [[1, 13, 19]], digit: [1, 19] },
        { name: 'expiryDate', spans: [[1, 21, 27]], digit: [1, 27] },
      ];
      if (format === 'TD2') {
        checks.push({
          name: 'composite',
          spans: [
            [1, 0, 10],
            [1, 13, 20],
            [1, 21, 35],
          ],
          digit: [1, 35],
        });
      }
      return {
        checks,
        classes: [
          { line: 0, start: 0, end: 1, cls: 'A' },
          { line: 0, start: 2, end: 5, cls: 'A' },
          { line: 0, start: 5, end: 36, cls: 'A' },
          { line: 1, start: 9, end: 10, cls: 'N' },
          { line: 1, start: 10, end: 13, cls: 'A' },
          { line: 1, start: 13, end: 20, cls: 'N' },
          { line: 1, start: 20, end: 21, cls: 'S' },
          { line: 1, start: 21, end: 28, cls: 'N' },
          ...(format === 'TD2' ? [{ line: 1, start: 35, end: 36, cls: 'N' as const }] : []),
        ],
      };
    }
    case 'TD1':
      return {
        checks: [
          { name: 'documentNumber', spans: [[0, 5, 14]], digit: [0, 14] },
          { name: 'birthDate', spans: [[1, 0, 6]], digit: [1, 6] },
          { name: 'expiryDate', spans: [[1, 8, 14]], digit: [1, 14] },
          {
            name: 'composite',
            spans: [
              [0, 5, 30],
              [1, 0, 7],
              [1, 8, 15],
              [1, 18, 29],
            ],
            digit: [1, 29],
          },
        ],
        classes: [
          { line: 0, start: 0, end: 1, cls: 'A' },
          { line: 0, start: 2, end: 5, cls: 'A' },
          { line: 1, start: 0, end: 7, cls: 'N' },
          { line: 1, start: 7, end: 8, cls: 'S' },
          { line: 1, start: 8, end: 15, cls: 'N' },
          { line: 1, start: 15, end: 18, cls: 'A' },
          { line: 1, start: 29, end: 30, cls: 'N' },
          { line: 2, start: 0, end: 30, cls: 'A' },
        ],
      };
  }
}

/** How many lines a zone of `format` has (TD1: 3, the others: 2). */
export const mrzLineCount = (format: MrzFormat): number => LENGTHS[format].lines;

/**
 * The format a zone's first line announces, as OCR read it (spaces, look-alike fillers, a few
 * fillers over- or under-read): its document code names the family (P: passport, TD3 or TD2; V:
 * visa, MRV-A or MRV-B; I, A, C: card, TD1 or TD2) and its length the nearer of the family's line
 * lengths, a tie going to the format with more lines (a line of 33 is a TD1 line over-read by three
 * as much as a TD2 line short of three). A card line holding a digit where TD1 prints the document
 * number (TD2 prints the name there) is a TD1 line, however long it was read. Null when the line
 * does not open with a document code and a country.
 */
export function formatOfFirstLine(text: string): MrzFormat | null {
  const line = text.toUpperCase().replace(/\s+/g, '').replace(/[«‹]/g, '<');
  if (!/^[PVIAC][A-Z<][A-Z<]{3}/.test(line)) return null;
  const code = line[0]!;
  if ('IAC'.includes(code) && /\d/.test(line.slice(5, 15))) return 'TD1';
  const family: MrzFormat[] =
    code === 'P' ? ['TD3', 'TD2'] : code === 'V' ? ['MRVA', 'MRVB'] : ['TD1', 'TD2'];
  const distance = (f: MrzFormat) => Math.abs(line.length - LENGTHS[f].length);
  return family.reduce((best, f) =>
    distance(f) < distance(best) ||
    (distance(f) === distance(best) && LENGTHS[f].lines > LENGTHS[best].lines)
      ? f
      : best,
  );
}

export function detectMrzFormat(lines: string[]): MrzFormat | null {
  const first = lines[0] ?? '';
  if (lines.length === 3 && lines.every((l) => l.length === 30)) return 'TD1';
  if (lines.length === 2 && lines.every((l) => l.length === 44))
    return first.startsWith('V') ? 'MRVA' : 'TD3';
  if (lines.length === 2 && lines.every((l) => l.length === 36))
    return first.startsWith('V') ? 'MRVB' : 'TD2';
  return null;
}

function spanText(lines: string[], spans: Span[]) {
  return spans.map(([l, s, e]) => lines[l]!.slice(s, e)).join('');
}

export type MrzChecks = Record<string, boolean>;

const isDate = (s: string) => /^\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/.test(s);

/** Shape rules no check digit covers: document code, sex, real dates, letter-only country codes. */
export function isMrzStructureValid(lines: string[], format: MrzFormat): boolean {
  const l0 = lines[0]!;
  const l1 = lines[1]!;
  const codeOk =
    format === 'TD3'
      ? l0[0] === 'P'
      : format === 'MRVA' || format === 'MRVB'
        ? l0[0] === 'V'
        : /[ACIP]/.test(l0[0]!);
  const [birth, sex, expiry, nationality] =
    format === 'TD1'
      ? [l1.slice(0, 6), l1[7], l1.slice(8, 14), l1.slice(15, 18)]
      : [l1.slice(13, 19), l1[20], l1.slice(21, 27), l1.slice(10, 13)];
  return (
    codeOk &&
    /^[A-Z<]{3}$/.test(l0.slice(2, 5)) &&
    /^[A-Z<]{3}$/.test(nationality) &&
    /[MFX<]/.test(sex ?? '') &&
    isDate(birth) &&
    isDate(expiry)
  );
}

export function verifyMrzChecks(lines: string[], format: MrzFormat): MrzChecks {
  const result: MrzChecks = { structure: isMrzStructureValid(lines, format) };
  for (const check of layout(format).checks) {
    const digit = lines[check.digit[0]]![check.digit[1]];
    const text = spanText(lines, check.spans);
    // An all-filler optional field may carry '<' as its check digit.
    const isEmptyOptional = check.name === 'personalNumber' && /^<*$/.test(text) && digit === '<';
    result[check.name] = isEmptyOptional || mrzCheckDigit(text) === digit;
  }
  return result;
}

const TO_DIGIT: Record<string, string> = {
  O: '0',
  Q: '0',
  D: '0',
  U: '0',
  I: '1',
  L: '1',
  T: '1',
  Z: '2',
  S: '5',
  G: '6',
  B: '8',
  A: '4',
};
const TO_LETTER: Record<string, string> = {
  '0': 'O',
  '1': 'I',
  '2': 'Z',
  '5': 'S',
  '6': 'G',
  '8': 'B',
  '4': 'A',
};
const SWAPS: Array<[string, string]> = [
  ['0', 'O'],
  ['0', 'D'],
  ['0', 'Q'],
  ['1', 'I'],
  ['1', 'L'],
  ['2', 'Z'],
  ['5', 'S'],
  ['6', 'G'],
  ['8', 'B'],
  ['4', 'A'],
  ['7', 'T'],
  ['<', 'K'],
  ['<', 'L'],
];

function setChar(line: string, index: number, c: string) {
  return line.slice(0, index) + c + line.slice(index + 1);
}

/** Forces characters into their position's class (dates are digits, country codes letters...). */
function applyCharClasses(lines: string[], format: MrzFormat): string[] {
  const out = [...lines];
  for (const f of layout(format).classes) {
    let line = out[f.line]!;
    for (let i = f.start; i < f.end && i < line.length; i++) {
      const c = line[i]!;
      if (f.cls === 'N' && !/[0-9]/.test(c) && !(c === '<' && f.start >= 28)) {
        if (TO_DIGIT[c]) line = setChar(line, i, TO_DIGIT[c]);
      } else if (f.cls === 'A' && /[0-9]/.test(c)) {
        if (TO_LETTER[c]) line = setChar(line, i, TO_LETTER[c]);
      } else if (f.cls === 'S' && !/[MF<]/.test(c)) {
        if (c === 'H' || c === 'N') line = setChar(line, i, 'M');
        else if (c === 'E' || c === 'P') line = setChar(line, i, 'F');
      }
    }
    out[f.line] = line;
  }
  return out;
}

/**
 * Look-alike corrections that check digits confirm: for each failing check, try one swap inside the
 * field (or its check digit) and keep it only if exactly one swap makes that check pass. Two swaps in
 * one field are tried only where a composite check digit exists, and must satisfy both checks.
 */
function correctWithCheckDigits(lines: string[], format: MrzFormat): string[] {
  let out = [...lines];
  const checks = layout(format).checks;
  const hasComposite = checks.some((c) => c.name === 'composite');
  const classes = layout(format).classes;
  const classAt = (l: number, i: number) =>
    classes.find((f) => f.line === l && i >= f.start && i < f.end)?.cls;
  const swapsAt = (ls: string[], l: number, i: number) => {
    const c = ls[l]![i]!;
    const cls = classAt(l, i);
    const result: string[][] = [];
    for (const [a, b] of SWAPS) {
      const replacement = c === a ? b : c === b ? a : null;
      if (!replacement) continue;
      // Never swap into a character the position cannot hold (a letter in a date, a digit in a name).
      if (cls === 'N' && !/[0-9<]/.test(replacement)) continue;
      if ((cls === 'A' || cls === 'S') && /[0-9]/.test(replacement)) continue;
      const candidate = [...ls];
      candidate[l] = setChar(candidate[l]!, i, replacement);
      result.push(candidate);
    }
    return result;
  };
  for (const check of checks.filter((c) => c.name !== 'composite')) {
    if (verifyMrzChecks(out, format)[check.name]) continue;
    const positions: Array<[number, number]> = [];
    for (const [l, s, e] of check.spans) for (let i = s; i < e; i++) positions.push([l, i]);
    positions.push(check.digit);
    const passes = (c: string[]) => {
      const v = verifyMrzChecks(c, format);
      return v[check.name] === true;
    };
    const single = positions.flatMap(([l, i]) => swapsAt(out, l, i)).filter(passes);
    if (single.length === 1) {
      out = single[0]!;
      continue;
    }
    // Several single swaps satisfy this check: the composite check digit may single one out.
    const confirmed = hasComposite
      ? single.filter((c) => verifyMrzChecks(c, format).composite)
      : [];
    if (confirmed.length === 1) {
      out = confirmed[0]!;
      continue;
    }
    if (single.length > 1 || !hasComposite) continue;
    const double: string[][] = [];
    for (let p = 0; p < positions.length && double.length < 2; p++) {
      for (const first of swapsAt(out, positions[p]![0], positions[p]![1])) {
        for (let q = p + 1; q < positions.length; q++) {
          for (const second of swapsAt(first, positions[q]![0], positions[q]![1])) {
            const v = verifyMrzChecks(second, format);
            if (v[check.name] && v.composite) double.push(second);
          }
        }
      }
    }
    if (double.length === 1) out = double[0]!;
  }
  return out;
}

const isLookAlike = (a: string, b: string) =>
  SWAPS.some(([x, y]) => (x === a && y === b) || (x === b && y === a));

/**
 * A second engine's reading confirms a check-valid one when both are the same zone character for
 * character, except at most two positions where the second engine read a look-alike (`8` for `B`)
 * inside a field whose check digit fails on its own reading: there the check digit has ruled
 * between the two engines. Differences anywhere else (names, fillers, passing fields) do not confirm.
 */
export function confirmsByCheckDigits(valid: MrzReading, other: MrzReading): boolean {
  if (!valid.checksValid || valid.format !== other.format) return false;
  if (valid.mrzLines.length !== other.mrzLines.length) return false;
  const diffs: Array<[number, number]> = [];
  for (let l = 0; l < valid.mrzLines.length; l++) {
    const a = valid.mrzLines[l]!;
    const b = other.mrzLines[l]!;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) diffs.push([l, i]);
  }
  if (diffs.length > 2) return false;
  const otherChecks = verifyMrzChecks(other.mrzLines, other.format);
  const fieldChecks = layout(valid.format).checks.filter((c) => c.name !== 'composite');
  return diffs.every(([l, i]) => {
    if (!isLookAlike(valid.mrzLines[l]![i]!, other.mrzLines[l]![i]!)) return false;
    return fieldChecks.some(
      (c) =>
        otherChecks[c.name] === false &&
        (c.spans.some(([sl, s, e]) => sl === l && i >= s && i < e) ||
          (c.digit[0] === l && c.digit[1] === i)),
    );
  });
}

const COUNTRY_SWAPS: Record<string, string[]> = {
  H: ['M', 'N'],
  M: ['H', 'N'],
  N: ['M', 'H'],
  O: ['D', 'Q', 'C'],
  D: ['O'],
  Q: ['O'],
  C: ['G', 'O'],
  G: ['C'],
  U: ['V'],
  V: ['U'],
  I: ['L', 'T'],
  L: ['I'],
  T: ['I'],
  E: ['F'],
  F: ['E'],
  B: ['R'],
  R: ['B'],
  K: ['X'],
  X: ['K'],
};
/**
 * An ICAO 9303 state or organisation code as printed (three characters): Germany's `D<<` is the only
 * one-letter code, `UTO` the specimens' Utopia.
 */
export const isKnownState = (code: string) => code in states || code === 'UTO' || code === 'D<<';

/** A country code that is not an ICAO code but becomes one with a single look-alike swap is fixed. */
function fixCountryCodes(lines: string[], format: MrzFormat): string[] {
  const out = [...lines];
  const spots: Array<[number, number]> =
    format === 'TD1'
      ? [
          [0, 2],
          [1, 15],
        ]
      : [
          [0, 2],
          [1, 10],
        ];
  for (const [l, start] of spots) {
    const code = out[l]!.slice(start, start + 3);
    if (code.length < 3 || isKnownState(code)) continue;
    const options = new Set<string>();
    for (let i = 0; i < 3; i++) {
      for (const r of COUNTRY_SWAPS[code[i]!] ?? []) {
        const candidate = code.slice(0, i) + r + code.slice(i + 1);
        if (isKnownState(candidate)) options.add(candidate);
      }
    }
    if (options.size === 1)
      out[l] = out[l]!.slice(0, start) + [...options][0] + out[l]!.slice(start + 3);
  }
  return out;
}

/** Cleans OCR text into MRZ lines: upper case, only A-Z0-9<, fixed lengths. Null when no MRZ is found. */
export function extractMrzLines(text: string): string[] | null {
  const cleaned = text
    .toUpperCase()
    .split(/\r?\n/)
    // Runs of 2+ spaces separate the zone from stray marks beside it; keep the longest chunk.
    .map(
      (l) =>
        l
          .replace(/[«‹]/g, '<')
          .split(/\s{2,}/)
          .map((chunk) => chunk.replace(/\s+/g, '').replace(/[^A-Z0-9<]/g, ''))
          .sort((a, b) => b.length - a.length)[0] ?? '',
    )
    .filter((l) => l.length >= 20 && (l.includes('<') || /\d{6}/.test(l)));
  const candidates: Array<{ lines: string[]; score: number }> = [];
  for (const { lines: n, length } of [LENGTHS.TD3, LENGTHS.TD2, LENGTHS.TD1]) {
    for (let i = 0; i + n <= cleaned.length; i++) {
      const group = cleaned.slice(i, i + n);
      const score = group.reduce((s, l) => s + Math.abs(l.length - length), 0);
      // A line may have lost filler characters (ends with '<<') or carry stray marks.
      const fits = (l: string) =>
        l.length <= length + 12 &&
        (l.length >= length - Math.max(3, length * 0.1) ||
          (l.endsWith('<<') && l.length >= length * 0.6));
      if (group.every(fits)) {
        const fitted = group.map((l, k) => fitLength(l, length, n === 3 ? k : k === 0 ? 0 : 1, n));
        candidates.push({ lines: fitted, score: score / n });
      }
    }
  }
  candidates.sort((a, b) => a.score - b.score);
  return candidates[0]?.lines ?? null;
}

const FIRST_LINE_START = /[PVIAC][A-Z<][A-Z<]{3}/;

function fitLength(line: string, length: number, lineIndex: number, lineCount: number): string {
  if (line.length === length) return line;
  if (line.length > length) {
    // Stray characters before the zone: the first line starts with a document code and a country.
    if (lineIndex === 0) {
      const m = FIRST_LINE_START.exec(line);
      if (m && m.index > 0 && line.length - m.index >= length - 3)
        return fitLength(line.slice(m.index), length, 0, lineCount);
    }
    // Otherwise try every window and keep the one whose check digits agree best.
    if (lineIndex === 1 && lineCount === 2 && line.length - length > 2) {
      let best = line.slice(line.length - length);
      let bestScore = -1;
      for (let i = 0; i + length <= line.length; i++) {
        const w = line.slice(i, i + length);
        const score = [
          [0, 9, 9],
          [13, 19, 19],
          [21, 27, 27],
        ].filter(([a, b, c]) => mrzCheckDigit(w.slice(a, b)) === w[c!]).length;
        if (score > bestScore) {
          best = w;
          bestScore = score;
        }
      }
      return best;
    }
    // Extra characters are usually read from filler runs: drop trailing '<' first.
    let l = line;
    while (l.length > length && l.endsWith('<<')) l = l.slice(0, -1);
    return l.slice(0, length);
  }
  // Missing characters are usually lost fillers: pad the longest filler run.
  const missing = length - line.length;
  const run = /<{2,}/g;
  let best: RegExpExecArray | null = null;
  for (let m = run.exec(line); m; m = run.exec(line))
    if (!best || m[0].length > best[0].length) best = m;
  if (best) return line.slice(0, best.index) + '<'.repeat(missing) + line.slice(best.index);
  return line.padEnd(length, '<');
}

function yyMmDdToIso(value: string, kind: 'birth' | 'expiry', now: Date): string | null {
  if (!/^\d{6}$/.test(value)) return null;
  const yy = Number(value.slice(0, 2));
  const current = now.getUTCFullYear() % 100;
  const century = kind === 'birth' ? (yy > current ? 1900 : 2000) : yy >= 70 ? 1900 : 2000;
  return `${century + yy}-${value.slice(2, 4)}-${value.slice(4, 6)}`;
}

const unfill = (s: string) => s.replace(/<+$/g, '').replace(/</g, ' ').trim();

function names(field: string) {
  const [surname = '', given = ''] = field.split('<<');
  return { surname: unfill(surname), givenNames: unfill(given) };
}

export type MrzReading = {
  format: MrzFormat;
  /** The lines as read and corrected (with `<` fillers). */
  mrzLines: string[];
  /** The lines exactly as OCR produced them, before any correction. */
  rawLines: string[];
  checks: MrzChecks;
  checksValid: boolean;
  corrected: boolean;
  /**
   * Positions changed by the check-digit-driven look-alike search. A check that chose its own
   * correction no longer verifies that field independently.
   */
  checkCorrected: Array<[line: number, index: number]>;
  documentCode: string;
  issuingCountry: string;
  documentNumber: string;
  surname: string;
  givenNames: string;
  nationality: string;
  dateOfBirth: string | null;
  sex: 'M' | 'F' | null;
  expiryDate: string | null;
  personalNumber: string;
};

/** In filler runs, K/L/C/E are `<` misreads: a field's tail that is only fillers and those becomes fillers. */
export function normaliseFillerTails(lines: string[], format: MrzFormat): string[] {
  const spans: Span[] =
    format === 'TD1'
      ? [
          [0, 15, 30],
          [1, 18, 29],
          [2, 0, 30],
        ]
      : format === 'TD3'
        ? [
            [0, 5, 44],
            [1, 28, 42],
          ]
        : format === 'TD2'
          ? [
              [0, 5, 36],
              [1, 28, 35],
            ]
          : format === 'MRVA'
            ? [[0, 5, 44]]
            : [[0, 5, 36]];
  return lines.map((line, l) => {
    let out = line;
    for (const [sl, start, end] of spans) {
      if (sl !== l) continue;
      const field = out.slice(start, end);
      const m = /<<[<KLCE]*$/.exec(field) ?? /^[<KLCE]*$/.exec(field);
      if (!m || !/[<]/.test(m[0])) continue;
      out =
        out.slice(0, start + m.index) +
        '<'.repeat(m[0].length) +
        out.slice(start + m.index + m[0].length);
    }
    return out;
  });
}

/** Character-wise majority of several readings of one zone (same format); ties go to the first. */
export function voteMrzLines(readings: string[][]): string[] | null {
  const first = readings[0];
  if (!first) return null;
  const format = detectMrzFormat(first);
  const same = readings.filter((r) => detectMrzFormat(r) === format);
  return first.map((line, l) =>
    [...line]
      .map((c, i) => {
        const counts = new Map<string, number>();
        for (const r of same) counts.set(r[l]![i]!, (counts.get(r[l]![i]!) ?? 0) + 1);
        let best = c;
        for (const [k, n] of counts) if (n > (counts.get(best) ?? 0)) best = k;
        return best;
      })
      .join(''),
  );
}

/** Parses MRZ lines; corrects look-alikes only where check digits confirm them. */
export function parseMrz(rawLines: string[], now: Date = new Date()): MrzReading | null {
  const format = detectMrzFormat(rawLines);
  if (!format) return null;
  // Letters-only and digits-only positions take their class (safe: e.g. a name never holds a 0).
  let lines = normaliseFillerTails(
    fixCountryCodes(applyCharClasses(rawLines, format), format),
    format,
  );
  const beforeCorrection = lines;
  if (!Object.values(verifyMrzChecks(lines, format)).every(Boolean)) {
    lines = correctWithCheckDigits(lines, format);
  }
  const checkCorrected: Array<[line: number, index: number]> = [];
  lines.forEach((line, l) => {
    for (let i = 0; i < line.length; i++)
      if (line[i] !== beforeCorrection[l]![i]) checkCorrected.push([l, i]);
  });
  const checks = verifyMrzChecks(lines, format);
  const checksValid = Object.values(checks).every(Boolean);

  let fields: Record<string, string | null | undefined> = {};
  if (format === 'TD1' || format === 'TD2' || format === 'TD3') {
    try {
      fields = parseWithMrzPackage(lines).fields;
    } catch {
      fields = {};
    }
  }
  const l0 = lines[0]!;
  const l1 = lines[1]!;
  const isTd1 = format === 'TD1';
  const nameField = isTd1 ? lines[2]! : l0.slice(5);
  const { surname, givenNames } = names(nameField);
  const documentNumber = isTd1 ? l0.slice(5, 14) : l1.slice(0, 9);
  const birth = isTd1 ? l1.slice(0, 6) : l1.slice(13, 19);
  const sexChar = isTd1 ? l1[7] : l1[20];
  const expiry = isTd1 ? l1.slice(8, 14) : l1.slice(21, 27);
  const nationality = isTd1 ? l1.slice(15, 18) : l1.slice(10, 13);
  const personal =
    format === 'TD3'
      ? l1.slice(28, 42)
      : format === 'TD1'
        ? l0.slice(15, 30)
        : l1.slice(28, format === 'TD2' ? 35 : 36);
  return {
    format,
    mrzLines: lines,
    rawLines,
    checks,
    checksValid,
    corrected: lines.some((l, i) => l !== rawLines[i]),
    checkCorrected,
    documentCode: unfill(l0.slice(0, 2)),
    issuingCountry: unfill(l0.slice(2, 5)),
    documentNumber: fields.documentNumber ?? unfill(documentNumber),
    surname: fields.lastName ?? surname,
    givenNames: fields.firstName ?? givenNames,
    nationality: unfill(nationality),
    dateOfBirth: yyMmDdToIso(birth, 'birth', now),
    sex: sexChar === 'M' ? 'M' : sexChar === 'F' ? 'F' : null,
    expiryDate: yyMmDdToIso(expiry, 'expiry', now),
    personalNumber: unfill(personal),
  };
}
