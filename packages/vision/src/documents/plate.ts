/**
 * Number plates: SA + SADC pattern set (sa-documents §5.4), look-alike fixes in digit positions,
 * the product's plate rule (spec §5) and the scoring of OCR readings. Pure functions. The lookup
 * and display forms are the one normaliser and formatter of @boomgate/contracts/plates.
 */
import { PROVINCE_SUFFIXES, formatPlate, normalisePlate } from '@boomgate/contracts/plates';

const C = '[B-DF-HJ-NP-TV-Z]'; // consonant: general SA series use no vowels and no Q

/**
 * `fixed-places`: each place of the series holds only letters or only digits, so a place can say
 * whether its O/0 or I/1 is a letter or a digit (isPlacedByShape). Not the variable-length series,
 * nor the Western Cape's proposed one, whose places take either. (An SA series plate's glyph is
 * still never settled by its place alone: with its province code, the glyph read as the other
 * character makes a personalised plate.)
 */
export const PLATE_PATTERNS: ReadonlyArray<
  readonly [name: string, pattern: RegExp, fixedPlaces?: 'fixed-places']
> = [
  ['ZA-GP', new RegExp(`^${C}{2}\\d{2}${C}{2}GP$`), 'fixed-places'],
  ['ZA-GP-OLD', new RegExp(`^${C}{3}\\d{3}GP$`), 'fixed-places'],
  ['ZA-KZN', /^[A-Z]{2}\d{2}[A-Z]{2}ZN$/, 'fixed-places'],
  ['ZA-KZN-GOV', /^GAA\d{3}ZN$/, 'fixed-places'],
  ['ZA-WC-PROPOSED', /^(?=(?:\D*\d){2}\D*WC$)[B-DF-HJ-NP-TV-Z0-9]{6}WC$/],
  ['ZA-MOTOR-TRADE', new RegExp(`^A${C}{2}\\d{3}(GP|ZN|EC|FS|MP|NC|NW|L|WC)$`), 'fixed-places'],
  ['ZA-PROV', new RegExp(`^${C}{3}\\d{3}(EC|FS|MP|NC|NW|L)$`), 'fixed-places'],
  ['ZA-PROV-NEW', new RegExp(`^${C}{2}\\d{2}${C}{2}(EC|FS|MP|NC|NW|L)$`), 'fixed-places'],
  ['ZA-WC-TOWN', /^C[A-Z]{0,2}\d{1,6}$/],
  ['ZA-KZN-TOWN', /^N[A-Z]{1,2}\d{1,6}$/],
  ['BW', /^B\d{3}[A-PR-Z]{3}$/, 'fixed-places'],
  ['BW-GOV', /^(BX|BDF)\d{1,6}[A-Z]{0,3}$/],
  ['NA', /^N\d{1,6}[A-Z]{1,2}$/],
  ['NA-GOV', /^(GRN|NDF|POL)\d{1,6}[A-Z]{0,2}$/],
  ['MZ', /^[A-Z]{3}\d{3}(MC|MP|GZ|IB|SF|MN|TE|ZB|NP|CD|NS)$/, 'fixed-places'],
  ['MZ-OLD', /^M[A-Z]{2}\d{4}$/, 'fixed-places'],
  ['ZW-or-ZM', /^[A-Z]{3}\d{1,4}$/],
  ['ZA-PERSONALISED', /^[A-Z0-9]{1,7}(GP|WP|ZN|EC|FS|MP|NC|NW|L)$/],
  ['NA-PERSONALISED', /^[A-Z0-9]{1,7}NA$/],
];

const PERSONALISED = new Set(['ZA-PERSONALISED', 'NA-PERSONALISED']);

/**
 * Common formats of foreign plates seen on long-distance trucks and in test sets (L letter, D digit).
 * Used only to settle look-alikes (0/O, 1/I, 8/B, 5/S, 2/Z) when no SA/SADC pattern fits.
 */
export const FOREIGN_LAYOUTS: ReadonlyArray<
  readonly [name: string, layout: string, glyphsOnly?: 'glyphs-only']
> = [
  ['EU-LL-DDD-LL', 'LLDDDLL'], // e.g. Slovakia, France (SIV), Italy
  ['UK', 'LLDDLLL'],
  ['BR', 'LLLDDDD'],
  ['BR-MERCOSUR', 'LLLDLDD'],
  // After the layouts above, so a plate that fits one of them as well keeps it. Both start with a digit,
  // which no SA/SADC pattern does. They settle only O/0 and I/1 (one glyph in many plate fonts,
  // which no reading can tell apart): with one letter place among digits, a 8→B or 2→Z fix would
  // turn a digits-only plate (`1868371`) into one (`1B68371`).
  ['US-DLLLDDD', 'DLLLDDD', 'glyphs-only'], // the 7-character US series (`7ABC123`)
  ['CZ-DLDDDDD', 'DLDDDDD', 'glyphs-only'], // Czech Republic (`1A2 3456`)
];
const GLYPHS_ONLY_LAYOUTS = new Set(
  FOREIGN_LAYOUTS.filter(([, , only]) => only === 'glyphs-only').map(([name]) => name),
);
const TO_LETTER_AT: Record<string, string> = {
  '0': 'O',
  '1': 'I',
  '8': 'B',
  '5': 'S',
  '2': 'Z',
  '6': 'G',
};
const TO_DIGIT_AT: Record<string, string> = {
  O: '0',
  Q: '0',
  D: '0',
  I: '1',
  B: '8',
  S: '5',
  Z: '2',
  G: '6',
};

export function fitLayout(
  plate: string,
  layout: string,
  glyphsOnly = false,
): { plate: string; fixes: number } | null {
  if (plate.length !== layout.length) return null;
  // A glyphs-only layout settles the O/0 and I/1 of a plate that shows it: at least one of its
  // letter places already holds a letter no digit looks like.
  if (glyphsOnly && ![...layout].some((want, i) => want === 'L' && /[A-HJ-NP-Z]/.test(plate[i]!)))
    return null;
  let fixes = 0;
  let out = '';
  for (let i = 0; i < plate.length; i++) {
    const c = plate[i]!;
    const want = layout[i];
    const isDigit = c >= '0' && c <= '9';
    if (
      glyphsOnly &&
      ((want === 'D' && !isDigit) || (want === 'L' && isDigit)) &&
      !/[OI01]/.test(c)
    )
      return null;
    if (want === 'D' && !isDigit) {
      if (!TO_DIGIT_AT[c]) return null;
      out += TO_DIGIT_AT[c];
      fixes++;
    } else if (want === 'L' && isDigit) {
      if (!TO_LETTER_AT[c]) return null;
      out += TO_LETTER_AT[c];
      fixes++;
    } else out += c;
  }
  return fixes <= 1 ? { plate: out, fixes } : null;
}
export function matchPlatePatterns(plate: string): string[] {
  return PLATE_PATTERNS.filter(([, re]) => re.test(plate)).map(([name]) => name);
}

/** The product rule (spec §5): letters-digits-letters-letters groups, or 5-10 alphanumerics. */
export function matchesProductPlateRule(text: string): boolean {
  const upper = text.toUpperCase();
  return (
    /[A-Z]{1,3}[\s-]*\d{1,3}[\s-]*[A-Z]{1,3}[\s-]*[A-Z]{1,3}/.test(upper) ||
    /^[A-Z0-9]{5,10}$/.test(normalisePlate(upper))
  );
}

const LETTER_TO_DIGIT: Record<string, string> = {
  O: '0',
  D: '0',
  Q: '0',
  I: '1',
  S: '5',
  B: '8',
  Z: '2',
  G: '6',
};

export type PlatePatternMatch = {
  plate: string;
  pattern: string | null;
  /** Positions changed from a look-alike letter to a digit. */
  fixes: number;
};

/**
 * Best pattern reading of a normalised string: the string itself, or with up to two look-alike
 * letters in digit positions replaced (O→0, I→1, S→5, B→8, Z→2...). Personalised patterns are
 * catch-alls and are never used to justify a correction.
 */
export function bestPatternMatch(plate: string): PlatePatternMatch {
  const match = patternMatch(plate);
  if (match.pattern || plate.length < 6) return match;
  // Plate borders and bolts are often read as an extra I, 1, L, H or J at either end.
  for (const trimmed of [plate.slice(1), plate.slice(0, -1)]) {
    const edge = trimmed === plate.slice(1) ? plate[0]! : plate[plate.length - 1]!;
    if (!'I1LHJT'.includes(edge)) continue;
    const m = patternMatch(trimmed);
    // A glyphs-only layout settles O/0 and I/1; it is no ground for dropping a character.
    if (m.pattern && !PERSONALISED.has(m.pattern) && !GLYPHS_ONLY_LAYOUTS.has(m.pattern))
      return { ...m, fixes: m.fixes + 1 };
  }
  return match;
}

function patternMatch(plate: string): PlatePatternMatch {
  const direct = matchPlatePatterns(plate);
  const strict = direct.filter((p) => !PERSONALISED.has(p));
  if (strict.length) return { plate, pattern: strict[0]!, fixes: 0 };
  const positions = [...plate].map((c, i) => (LETTER_TO_DIGIT[c] ? i : -1)).filter((i) => i >= 0);
  const variants: Array<{ plate: string; fixes: number }> = [];
  for (const i of positions) {
    const one = plate.slice(0, i) + LETTER_TO_DIGIT[plate[i]!] + plate.slice(i + 1);
    variants.push({ plate: one, fixes: 1 });
    for (const j of positions) {
      if (j <= i) continue;
      variants.push({
        plate: one.slice(0, j) + LETTER_TO_DIGIT[one[j]!] + one.slice(j + 1),
        fixes: 2,
      });
    }
  }
  for (const variant of variants) {
    // A digit run that would start with a corrected 0 is weak evidence (numbers rarely start with 0).
    if (/(^|[A-Z])0/.test(variant.plate) && !/(^|[A-Z])0/.test(plate)) continue;
    const names = matchPlatePatterns(variant.plate).filter((p) => !PERSONALISED.has(p));
    if (names.length) return { plate: variant.plate, pattern: names[0]!, fixes: variant.fixes };
  }
  if (!direct.length) {
    // The layout that changes fewest characters, in list order among equals: a UK `AB12OCD` fits
    // its own layout as read, and the EU one only with its O read as a digit.
    let best: PlatePatternMatch | null = null;
    for (const [name, layout, glyphsOnly] of FOREIGN_LAYOUTS) {
      const fit = fitLayout(plate, layout, glyphsOnly === 'glyphs-only');
      if (fit && (!best || fit.fixes < best.fixes))
        best = { plate: fit.plate, pattern: name, fixes: fit.fixes };
    }
    if (best) return best;
  }
  return { plate, pattern: direct[0] ?? null, fixes: 0 };
}

/** True when a general-series shape carries a vowel or Q: an OCR error to re-read, not to correct. */
export function hasForbiddenLetters(plate: string): boolean {
  const suffix = PROVINCE_SUFFIXES.find((s) => plate.endsWith(s) && plate.length > s.length + 4);
  if (!suffix) return false;
  const body = plate.slice(0, -suffix.length);
  const isGeneralShape = /^[A-Z]{2}\d{2}[A-Z]{2}$/.test(body) || /^[A-Z]{3}\d{3}$/.test(body);
  return isGeneralShape && /[AEIOUQ]/.test(body.replace(/^A(?=[A-Z]{2}\d{3}$)/, ''));
}

const TOKEN_TO_LETTER: Record<string, string> = { '0': 'O', '1': 'I' };

/**
 * Uses the separators the OCR saw (`NZ0·6276`, `PP-587A0`) to settle look-alikes inside each group:
 * in a short group that is mostly letters, 0 and 1 are read as O and I.
 */
export function disambiguateByGroups(text: string): string {
  const groups = text
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter(Boolean);
  return groups
    .map((g) => {
      if (g.length < 2) return g;
      const letters = [...g].filter((c) => /[A-Z]/.test(c)).length;
      const digits = g.length - letters;
      if (g.length <= 3 && letters >= 2 && digits === 1) {
        return [...g].map((c) => TOKEN_TO_LETTER[c] ?? c).join('');
      }
      return g;
    })
    .join(' ');
}

export type PlateCandidateInput = {
  text: string;
  /** OCR confidence 0..1. */
  confidence: number;
  /** Text height relative to the image height (plates are big text in a gate photo). */
  relativeHeight?: number;
  /**
   * Which recognition produced it (a detection pass, an enlarged re-read, another engine). Two
   * sources reading the same plate confirm it; parts of one pass are one source.
   */
  source?: string;
  /** Where in the image it was read (for a confirming re-read). */
  box?: { x: number; y: number; width: number; height: number };
  /** Per-character probabilities with the runner-up, when the engine gives them. */
  chars?: Array<{ char: string; p: number; alt: string; altP: number }>;
};

export type PlateCandidate = {
  plateNumber: string;
  displayPlate: string;
  pattern: string | null;
  confidence: number;
  score: number;
  warnings: string[];
  /** The recognitions that read exactly this plate. */
  sources: Set<string>;
  /**
   * The recognitions that read it as it is, glyph for glyph: nothing changed by a grammar or group
   * rule except O/0 and I/1, which many plate fonts print with one glyph (there the reading cannot
   * decide and the position does). These confirm a plate whose shape settles its O/0 and I/1
   * (readersOf); a prior may rank a candidate, only readings confirm one.
   */
  directSources: Set<string>;
  /**
   * The recognitions whose own characters spell exactly this plate: no O/0 or I/1 settled by a
   * layout, a pattern or a separator group. Only these confirm a plate whose shape does not settle
   * its O/0 and I/1 (readersOf): there a character a format prior chose was not read.
   */
  exactSources: Set<string>;
  /**
   * How close the nearest other letter or digit came, at the plate's least sure character
   * (runner-up probability / chosen probability, 0..1), in the clearest reading of it; null when
   * the engine gave no per-character scores.
   */
  rivalRatio: number | null;
  /**
   * How close a non-character (a separator, punctuation or symbol) came to one of the plate's letters
   * or digits (runner-up probability / chosen probability), in the least sure reading of it: a mark
   * on the plate (a sticker, a bolt, a separator dot) that a recognition turned into a character
   * (`2T4●0211` read `2T480211`). Unlike a look-alike rival, a clear reading does not settle it: the
   * mark is there in every reading, and a recognition that saw it as punctuation is the only tell.
   */
  markRatio: number;
  /**
   * An O/0 or I/1 inside a run of letters that no strict pattern or layout places: one glyph in many
   * plate fonts, so no reading can tell (`HL0KTY1` read as `HLOKTY1`).
   */
  glyphAmbiguous: boolean;
  /**
   * The places of an O/0 or I/1 that a rule (a pattern, a layout, a separator group) chose rather
   * than a direct reading: its glyph was read, the letter or digit it stands for was not
   * (isPlacedByShape asks whether the plate's shape settles them).
   */
  settledPlaces: Set<number>;
  /** A letters-only reading (rankLettersOnlyCandidates): never confirmed. */
  lettersOnly?: boolean;
  box?: PlateCandidateInput['box'];
};

const WORDS = /^(?:[A-Z]+)$/;

/** The largest runner-up / chosen probability over the letters and digits of one reading. */
export function rivalRatio(chars: PlateCandidateInput['chars']): number | null {
  if (!chars?.length) return null;
  let worst = 0;
  for (const c of chars) {
    if (!/^[A-Za-z0-9]$/.test(c.char)) continue;
    const rival = c.alt.toUpperCase();
    if (!/^[A-Z0-9]$/.test(rival) || rival === c.char.toUpperCase() || c.p <= 0) continue;
    worst = Math.max(worst, c.altP / c.p);
  }
  return worst;
}

/** The largest non-character runner-up / chosen probability over the letters and digits of one reading. */
export function markRatio(chars: PlateCandidateInput['chars']): number {
  let worst = 0;
  for (const c of chars ?? []) {
    if (!/^[A-Za-z0-9]$/.test(c.char) || c.p <= 0 || !c.alt) continue;
    if (/^[A-Za-z0-9]$/.test(c.alt)) continue;
    worst = Math.max(worst, c.altP / c.p);
  }
  return worst;
}

/** A look-alike the recogniser itself gave at least this much of the chosen character's probability. */
const MIN_CORRECTION_SUPPORT = 0.01;

/**
 * Whether every character a pattern or layout changed (`2`→`Z` to fit `LLLDDDD`) was a runner-up of
 * the recognition at that place: a prior breaks a tie the recogniser left open, it never overrides
 * a character it was sure of (a foreign plate forced into a layout it does not have). O/0 and I/1
 * are one glyph in many plate fonts, where no recogniser can tell: the position settles them. Without
 * per-character scores (tesseract), or when they cannot be aligned, the correction stands.
 */
export function isCorrectionSupported(
  raw: string,
  corrected: string,
  input: Pick<PlateCandidateInput, 'text' | 'chars'>,
): boolean {
  const read = (input.chars ?? []).filter((c) => /^[A-Za-z0-9]$/.test(c.char));
  const seen = read.map((c) => c.char.toUpperCase()).join('');
  if (!read.length || fold(seen) !== fold(raw)) return true;
  // An edge mark trimmed by bestPatternMatch: align on the end that was kept.
  const offset =
    raw.length === corrected.length + 1 && !isSubstitutionOf(raw.slice(0, -1), corrected) ? 1 : 0;
  if (raw.length - offset < corrected.length) return true;
  for (let i = 0; i < corrected.length; i++) {
    const was = raw[i + offset]!;
    const now = corrected[i]!;
    if (was === now || fold(was) === fold(now)) continue;
    const c = read[i + offset]!;
    const supported =
      fold(c.alt.toUpperCase()) === fold(now) && c.p > 0 && c.altP / c.p >= MIN_CORRECTION_SUPPORT;
    if (!supported) return false;
  }
  return true;
}

const SAME_GLYPH: Record<string, string> = { O: '0', I: '1' };
/** O and I as 0 and 1: one glyph in many plate fonts. */
const fold = (s: string) => s.replace(/[OI]/g, (c) => SAME_GLYPH[c]!);

/** Same length and at most two characters changed (a pattern's corrections). */
function isSubstitutionOf(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) diff++;
  return diff <= 2;
}

/**
 * Text that is a date, a time or a phone number, not a plate: a camera's date stamp (`2014-05-08`,
 * `14:12:59`) or a number painted on a van (`314-845-5900`). In sensor noise the plate of a street
 * photo was lost and its stamp's date, read twice, was confirmed. A stamp is a line of digits and
 * separators only (STAMP_LINE) holding a date with a real month and day in three groups or an hour
 * and its minutes; a phone number is nine digits or more with its separators. No plate series is
 * only digits in such groups or with a colon, nor nine digits and nothing else; a letter anywhere makes the line no stamp (a Czech plate's
 * sticker between groups reads as a colon too: `1B1:9839`).
 */
const STAMP_LINE = /^[\d\s:.\-/]+$/;
const STAMPS: readonly RegExp[] = [
  /(?<!\d)(?:[01]?\d|2[0-3])\s?:\s?[0-5]\d(?!\d)/,
  /(?<!\d)(?:19|20)\d\d[-./](?:0?[1-9]|1[0-2])[-./](?:0?[1-9]|[12]\d|3[01])(?!\d)/,
  /(?<!\d)(?:0?[1-9]|[12]\d|3[01])[-./](?:0?[1-9]|1[0-2])[-./](?:19|20)?\d\d(?!\d)/,
];
const PHONE_NUMBER = /^(?=(?:\D*\d){9})[\d\s().+\-/]+$/;

/** Whether OCR text is shaped like a date, a time or a phone number (see STAMPS). */
export function isDateTimeOrPhone(text: string): boolean {
  const line = text.trim();
  return (STAMP_LINE.test(line) && STAMPS.some((re) => re.test(line))) || PHONE_NUMBER.test(line);
}

/**
 * A letter or digit outside A-Z and 0-9 (a CJK sign, a full-width or circled digit), which the plate
 * normaliser drops: a character the recogniser did not read as a plate's. Not the marks the
 * recogniser's Chinese alphabet holds as letters that look like separators (`一` `丨` `丶`) nor
 * modifier letters (`ˉ`).
 */
const LOST_CHARACTER = /(?![A-Za-z0-9])(?!\p{Lm})(?![一丨丶])[\p{L}\p{N}]/u;

/** Scores one OCR string as a plate. Higher is better; <= 0 means "not a plate". */
export function scorePlateCandidate(input: PlateCandidateInput): PlateCandidate | null {
  if (isDateTimeOrPhone(input.text)) return null;
  const raw = normalisePlate(disambiguateByGroups(input.text));
  if (raw.length < 4 || raw.length > 10) return null;
  let match = bestPatternMatch(raw);
  if (match.fixes && !isCorrectionSupported(raw, match.plate, input)) {
    match = { plate: raw, pattern: matchPlatePatterns(raw)[0] ?? null, fixes: 0 };
  }
  const plate = match.plate;
  const hasDigit = /\d/.test(plate);
  const hasLetter = /[A-Z]/.test(plate);
  // Only personalised plates may be all letters; any other word is text on the vehicle.
  if (!hasDigit && !(match.pattern && PERSONALISED.has(match.pattern))) return null;
  let score = input.confidence;
  if (!hasDigit) score -= WORDS.test(plate) ? 0.5 : 0.3;
  if (!hasLetter) score -= 0.25;
  if (hasDigit && hasLetter) score += 0.3;
  if (plate.length >= 5 && plate.length <= 8) score += 0.2;
  else if (plate.length < 5) score -= 0.2;
  if (match.pattern && !PERSONALISED.has(match.pattern)) score += 0.35 - 0.1 * match.fixes;
  else if (match.pattern) score += 0.1;
  if (matchesProductPlateRule(input.text)) score += 0.1;
  if (input.relativeHeight !== undefined) score += Math.min(0.3, input.relativeHeight * 3);
  const warnings: string[] = [];
  if (hasForbiddenLetters(plate))
    warnings.push(
      'Letters include a vowel or Q, which general-series SA plates never use: re-read the plate.',
    );
  if (match.fixes)
    warnings.push(`Corrected ${match.fixes} look-alike character(s) in digit positions.`);
  // A character lost in the line (the recogniser also knows Chinese plates: blurred by motion,
  // `WXY184` was read `皖AY184` twice): the plate the rest spells is not the plate as read. It
  // ranks, but no such reading confirms it.
  const lostCharacter = LOST_CHARACTER.test(input.text);
  const normalised = normalisePlate(input.text);
  const direct = !lostCharacter && sameGlyphs(plate, normalised);
  const confidence = Math.max(
    0,
    Math.min(
      1,
      input.confidence * (match.pattern && !PERSONALISED.has(match.pattern) ? 1 : 0.85) -
        0.05 * match.fixes,
    ),
  );
  return {
    plateNumber: plate,
    displayPlate: formatPlate(plate),
    pattern: match.pattern,
    confidence,
    score,
    warnings,
    sources: new Set(input.source ? [input.source] : []),
    directSources: new Set(input.source && direct ? [input.source] : []),
    exactSources: new Set(
      input.source && !lostCharacter && plate === normalised ? [input.source] : [],
    ),
    rivalRatio: rivalRatio(input.chars),
    markRatio: markRatio(input.chars),
    glyphAmbiguous:
      !match.pattern || PERSONALISED.has(match.pattern) ? hasGlyphAmbiguity(plate) : false,
    settledPlaces: new Set(
      direct ? [...plate].flatMap((c, i) => (c === normalised[i] ? [] : [i])) : [],
    ),
    ...(input.box ? { box: input.box } : {}),
  };
}

/** Ranks candidates: best first, duplicates merged. */
export function rankPlateCandidates(inputs: PlateCandidateInput[]): PlateCandidate[] {
  const byPlate = new Map<string, PlateCandidate>();
  for (const input of inputs) {
    const c = scorePlateCandidate(input);
    if (!c || c.score <= 0.3) continue;
    const existing = byPlate.get(c.plateNumber);
    if (!existing) byPlate.set(c.plateNumber, c);
    else {
      if (c.score > existing.score && c.box) existing.box = c.box;
      existing.score = Math.max(existing.score, c.score) + 0.1;
      existing.confidence = Math.max(existing.confidence, c.confidence);
      for (const source of c.sources) existing.sources.add(source);
      for (const source of c.directSources) existing.directSources.add(source);
      for (const source of c.exactSources) existing.exactSources.add(source);
      for (const place of c.settledPlaces) existing.settledPlaces.add(place);
      existing.markRatio = Math.max(existing.markRatio, c.markRatio);
      if (c.rivalRatio !== null)
        existing.rivalRatio =
          existing.rivalRatio === null ? c.rivalRatio : Math.min(existing.rivalRatio, c.rivalRatio);
    }
  }
  const ranked = [...byPlate.values()];
  // A plate split into groups (`BCD` `123` `FS`) also yields its parts, and a part can fit a shorter
  // grammar (`BCD 123`, Zimbabwe/Zambia). When a longer reading that fits a strict pattern contains
  // a part that does too, the longer one explains more of what was read: it ranks first.
  const strict = (c: PlateCandidate) => c.pattern !== null && !PERSONALISED.has(c.pattern);
  for (const whole of ranked) {
    if (!strict(whole)) continue;
    for (const part of ranked) {
      if (part === whole || !strict(part) || !whole.plateNumber.includes(part.plateNumber))
        continue;
      whole.score = Math.max(whole.score, part.score + 0.05);
    }
  }
  return ranked.sort((a, b) => b.score - a.score);
}

/** Letters-only readings considered when nothing with a digit was read: vanity and show plates. */
const LETTERS_ONLY = /^[A-Z]{4,8}$/;

/**
 * Plates of letters only (US vanity plates, show plates such as `G-WAGEN`), for when no reading had
 * a digit: rankPlateCandidates drops them, because a word on the vehicle (`TOYOTA`, a dealer's
 * name) reads the same way. Here they are the last resort before "no plate", best recognition
 * confidence (and bigger text) first, and each carries `lettersOnly`: the reader never shows one
 * as confirmed, since no reading can tell the plate from a badge. Nothing is corrected in them.
 */
export function rankLettersOnlyCandidates(inputs: PlateCandidateInput[]): PlateCandidate[] {
  const byPlate = new Map<string, PlateCandidate>();
  for (const input of inputs) {
    const plate = normalisePlate(input.text);
    if (!LETTERS_ONLY.test(plate)) continue;
    const score =
      input.confidence +
      (input.relativeHeight !== undefined ? Math.min(0.3, input.relativeHeight * 3) : 0);
    const existing = byPlate.get(plate);
    if (existing) {
      existing.score = Math.max(existing.score, score) + 0.1;
      existing.confidence = Math.max(existing.confidence, input.confidence);
      if (input.source) existing.sources.add(input.source);
      continue;
    }
    byPlate.set(plate, {
      plateNumber: plate,
      displayPlate: plate,
      pattern: null,
      confidence: Math.min(0.6, input.confidence),
      score,
      warnings: [
        'Letters only: a plate like this cannot be told from a word on the vehicle, check it.',
      ],
      sources: new Set(input.source ? [input.source] : []),
      directSources: new Set(input.source ? [input.source] : []),
      exactSources: new Set(input.source ? [input.source] : []),
      rivalRatio: rivalRatio(input.chars),
      markRatio: markRatio(input.chars),
      glyphAmbiguous: hasGlyphAmbiguity(plate),
      settledPlaces: new Set(),
      lettersOnly: true,
      ...(input.box ? { box: input.box } : {}),
    });
  }
  return [...byPlate.values()].sort((a, b) => b.score - a.score);
}

/** Equal, counting O/0 and I/1 as one glyph. */
function sameGlyphs(a: string, b: string): boolean {
  return a.length === b.length && fold(a) === fold(b);
}

/** O/0 or I/1 with letters on both sides (or a letter and the plate's edge). */
export function hasGlyphAmbiguity(plate: string): boolean {
  const isLetter = (c: string | undefined) => c !== undefined && /[A-Z]/.test(c) && !/[OI]/.test(c);
  return [...plate].some((c, i) => {
    if (!/[O0I1]/.test(c)) return false;
    const before = plate[i - 1];
    const after = plate[i + 1];
    return (
      (isLetter(before) || before === undefined) &&
      (isLetter(after) || after === undefined) &&
      (before ?? after) !== undefined
    );
  });
}

/** A rival letter or digit closer than this to a plate's chosen one makes the reading unsure. */
const CLEAR_RIVAL_RATIO = 0.15;

/**
 * A character whose runner-up letter or digit had more than a third of its probability (odds under 3
 * to 1) in the plate's clearest reading (rivalRatio) was not decided, even where no recognition read
 * the rival: a plate at 60 % of its size was read `2HFZ746` twice for `2MFZ746` (M at 0.45 of H).
 * Thin margin: the least sure confident right plate of the development photos had 0.31. In the
 * clearest reading, not the least sure one: taken over every reading that spelt the plate, the rule
 * flagged 4 of the 71 confident right plates there; a surer reading of the same plate (another crop,
 * scale or the grey re-read) is evidence too.
 */
const UNDECIDED_RIVAL_RATIO = 1 / 3;

/**
 * Fewer letters and digits than this are a model badge (`S300`), a fragment or a house number as
 * often as a plate: ranked, never confirmed (no plate of the development photos is shorter).
 */
const MIN_CONFIRMED_PLATE_CHARS = 5;

const FIXED_PLACE_SHAPES: readonly RegExp[] = [
  ...PLATE_PATTERNS.filter(([, , fixed]) => fixed === 'fixed-places').map(([, pattern]) => pattern),
  // Every foreign layout but the glyphs-only ones (they start with a digit and hold a single letter
  // group: a personalised `3K4772O` fits the Czech one).
  ...FOREIGN_LAYOUTS.filter(([, , only]) => only !== 'glyphs-only').map(([, layout]) =>
    layoutPattern(layout),
  ),
];
/**
 * Every series the reader knows, the personalised ones included (an SA plate `BL1ONDGP` is read into
 * the Gauteng series `BL10NDGP`): what a flipped glyph may fit.
 */
const KNOWN_SHAPES: readonly RegExp[] = [
  ...PLATE_PATTERNS.map(([, pattern]) => pattern),
  ...FOREIGN_LAYOUTS.map(([, layout]) => layoutPattern(layout)),
];

function layoutPattern(layout: string): RegExp {
  return new RegExp(`^${layout.replace(/L/g, '[A-Z]').replace(/D/g, '\\d')}$`);
}

/** Each glyph of SAME_GLYPH's pairs to the other one. */
const FLIP: Record<string, string> = Object.fromEntries(
  Object.entries(SAME_GLYPH).flatMap(([letter, digit]) => [
    [letter, digit],
    [digit, letter],
  ]),
);

/**
 * Whether the plate's shape settles the O/0 and I/1 at `places` (settledPlaces): the plate fits a
 * series whose places each hold only letters or only digits, and no other reading of its glyphs
 * that changes one of those places (any set of its O/0 and I/1 read as the other character,
 * including one of `places`) makes a plate of any series the reader knows. Such a plate (`ABC1123`
 * and the Mercosur `ABC1I23`, the EU `AB120CD` and the UK `AB12OCD`, `NZO6276` and a KwaZulu-Natal
 * town plate `NZ06276`, `IAB0234` and the Californian `1ABO234`) leaves the glyph to the readings.
 * An O/0 or I/1 the readings spelt is flipped only beside a settled one: `RK101AO`, read `RK101A0`,
 * keeps the 1 it read (as an I it would make the UK `RK10IAO`).
 */
export function isPlacedByShape(plate: string, places: ReadonlySet<number>): boolean {
  if (!FIXED_PLACE_SHAPES.some((re) => re.test(plate))) return false;
  if ([...places].some((i) => !FLIP[plate[i]!])) return false;
  const glyphs = [...plate].flatMap((c, i) => (FLIP[c] ? [i] : []));
  // Every subset of the glyphs' places holding a settled one: at most 2^10 for a 10-character plate.
  for (let mask = 1; mask < 1 << glyphs.length; mask++) {
    const flipped = glyphs.filter((_, bit) => mask & (1 << bit));
    if (!flipped.some((i) => places.has(i))) continue;
    const other = [...plate].map((c, i) => (flipped.includes(i) ? FLIP[c]! : c)).join('');
    if (KNOWN_SHAPES.some((re) => re.test(other))) return false;
  }
  return true;
}

/**
 * The recognitions that count towards confirming a candidate. Where the plate's shape settles its
 * O/0 and I/1 (isPlacedByShape), those that read its glyphs (directSources): an O/0 or I/1 is one
 * glyph in many plate fonts (PaddleOCR reads a Slovak plate's O as 0 at p = 1.00, as it reads its
 * zeros; no measure of the glyph's shape tells them apart: docs/vision/accuracy.md), and the place
 * says which of the two it is, as it says it for every other character there. Otherwise only those
 * that spelt it letter for letter (exactSources): nothing else places the glyph.
 */
export function readersOf(candidate: PlateCandidate): Set<string> {
  return isPlacedByShape(candidate.plateNumber, candidate.settledPlaces)
    ? candidate.directSources
    : candidate.exactSources;
}

/** Two plate readings that a look-alike or a lost/extra character apart (`7FAV033` / `7EAV033`). */
export function isNearVariant(a: string, b: string): boolean {
  if (a === b) return false;
  if (a.length === b.length) {
    let diff = 0;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) diff++;
    return diff <= 2;
  }
  if (Math.abs(a.length - b.length) !== 1) return false;
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  for (let i = 0; i < long.length; i++)
    if (long.slice(0, i) + long.slice(i + 1) === short) return true;
  return false;
}

/**
 * Whether the best plate can be shown without a warning: two recognitions (detection passes,
 * enlarged re-reads, another preprocessing) read exactly it, letter for letter, or glyph for glyph
 * where the plate's shape settles its O/0 and I/1 (readersOf: elsewhere an O/0 or I/1 that a layout,
 * pattern or separator group placed was not read, so it does not count), no reading took a
 * character of it for nearly a non-character (a mark), and any recognition
 * that read a near variant of it (a look-alike or one character more or less) is outvoted by
 * clear-cut readings, no character was left undecided between two (UNDECIDED_RIVAL_RATIO), and
 * it is long enough to be a whole plate. The SA/SADC grammar and
 * the group rules rank candidates but never confirm one: a pattern fits a misread as easily as the
 * truth, and a look-alike they changed (8/B, 5/S, 2/Z, or an O/0 or I/1 that the plate's shape does
 * not settle) was not read. Any rival differing from it by an O/0 or I/1 alone leaves it unconfirmed.
 */
export function isPlateConfirmed(ranked: PlateCandidate[]): boolean {
  const best = ranked[0];
  if (!best || best.lettersOnly || best.glyphAmbiguous) return false;
  const readers = readersOf(best);
  if (readers.size < 2) return false;
  if (best.plateNumber.length < MIN_CONFIRMED_PLATE_CHARS) return false;
  if (best.rivalRatio !== null && best.rivalRatio > UNDECIDED_RIVAL_RATIO) return false;
  // A character that may be a mark, not a letter or digit, in any reading: the count is unsure.
  if (best.markRatio >= CLEAR_RIVAL_RATIO) return false;
  // A near variant read by fewer recognitions is outvoted only when the best reading's characters
  // were clear-cut (no runner-up letter or digit came close in its clearest reading).
  const clear = best.rivalRatio !== null && best.rivalRatio < CLEAR_RIVAL_RATIO;
  // A rival that differs only by an O/0 or I/1 was placed otherwise by its own reading's rules: the
  // glyph is disputed, however clear the readings.
  return !ranked
    .slice(1)
    .some(
      (r) =>
        sameGlyphs(r.plateNumber, best.plateNumber) ||
        (isNearVariant(r.plateNumber, best.plateNumber) &&
          (!clear || r.sources.size >= readers.size)),
    );
}
