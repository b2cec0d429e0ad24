/**
 * Which MRZ fields can be claimed as right. ICAO check digits cover the document number, the dates,
 * the personal number and (composite) the optional data; nothing covers the names, the document
 * code, the countries or the sex. A covered field is certain when its check passes (in a zone whose
 * checks fail, only with a second engine's reading of it as well). An uncovered one
 * is certain only when a second, independent reading of the zone (the other engine: tesseract vs
 * PaddleOCR; another preprocessing for the same engine votes but does not confirm) has the very same
 * characters there, or the visual zone prints the same name (or, for a country code, the same code).
 * Otherwise it is returned in `uncertain` and the guard confirms it: a misread name (M as N, W as U)
 * passes every check, so agreement is the only evidence there is.
 */
import { type MrzFormat, type MrzReading, isKnownState } from './mrz';

type Span = [line: number, start: number, end: number];

type FieldRule = {
  /** Output field names this rule decides. */
  fields: string[];
  spans: Span[];
  /** The check that covers the spans, when there is one. */
  check?: string;
};

function rules(format: MrzFormat): FieldRule[] {
  if (format === 'TD1') {
    return [
      { fields: ['documentCode'], spans: [[0, 0, 2]] },
      { fields: ['issuingCountry'], spans: [[0, 2, 5]] },
      {
        fields: ['passportNumber', 'documentNumber'],
        spans: [[0, 5, 15]],
        check: 'documentNumber',
      },
      { fields: ['personalNumber'], spans: [[0, 15, 30]], check: 'composite' },
      { fields: ['dateOfBirth'], spans: [[1, 0, 7]], check: 'birthDate' },
      { fields: ['sex'], spans: [[1, 7, 8]] },
      { fields: ['expiryDate'], spans: [[1, 8, 15]], check: 'expiryDate' },
      { fields: ['nationality'], spans: [[1, 15, 18]] },
      { fields: [], spans: [[1, 18, 30]], check: 'composite' },
      { fields: ['surname', 'givenNames'], spans: [[2, 0, 30]] },
    ];
  }
  const length = format === 'TD3' || format === 'MRVA' ? 44 : 36;
  const personal: FieldRule =
    format === 'TD3'
      ? { fields: ['personalNumber'], spans: [[1, 28, 43]], check: 'personalNumber' }
      : format === 'TD2'
        ? { fields: ['personalNumber'], spans: [[1, 28, 36]], check: 'composite' }
        : { fields: ['personalNumber'], spans: [[1, 28, length]] };
  return [
    { fields: ['documentCode'], spans: [[0, 0, 2]] },
    { fields: ['issuingCountry'], spans: [[0, 2, 5]] },
    { fields: ['surname', 'givenNames'], spans: [[0, 5, length]] },
    { fields: ['passportNumber', 'documentNumber'], spans: [[1, 0, 10]], check: 'documentNumber' },
    { fields: ['nationality'], spans: [[1, 10, 13]] },
    { fields: ['dateOfBirth'], spans: [[1, 13, 20]], check: 'birthDate' },
    { fields: ['sex'], spans: [[1, 20, 21]] },
    { fields: ['expiryDate'], spans: [[1, 21, 28]], check: 'expiryDate' },
    personal,
    ...(format === 'TD3'
      ? [{ fields: [], spans: [[1, 43, 44]] as Span[], check: 'composite' }]
      : []),
  ];
}

const spanText = (lines: string[], spans: Span[]) =>
  spans.map(([l, s, e]) => lines[l]?.slice(s, e) ?? '').join('|');

/**
 * Alignments already made: confirmMrzFields aligns each other reading's line once per field on that
 * line (up to nine on a TD3's second line) and is called again after every further reading, with the
 * same lines. Results are frozen (read only) and the cache is bounded.
 */
const alignments = new Map<string, readonly string[] | null>();
const MAX_ALIGNMENTS = 2000;

/**
 * For each character of `a`, what `b` has there once the two are aligned by edit distance (fewest
 * insertions, deletions and substitutions): `b`'s character, `''` where `b` lacks it, and any extra
 * characters `b` has just before it prefixed. Null when more than `maxEdits` edits separate them
 * (the lines are not two readings of one print that merely lost or gained a character).
 */
export function alignTo(a: string, b: string, maxEdits: number): readonly string[] | null {
  // Length-prefixed, so no two (maxEdits, a, b) share a key whatever the strings hold (joined by
  // newlines, `a\nb` + `c` and `a` + `b\nc` did).
  const key = `${maxEdits}:${a.length}:${a}${b}`;
  const known = alignments.get(key);
  if (known !== undefined) return known;
  if (alignments.size >= MAX_ALIGNMENTS) alignments.clear();
  const aligned = alignStrings(a, b, maxEdits);
  alignments.set(key, aligned);
  return aligned;
}

function alignStrings(a: string, b: string, maxEdits: number): readonly string[] | null {
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > maxEdits) return null;
  // The edit-distance table, row by row in one array: d(i, j) = d[i * (m + 1) + j].
  const w = m + 1;
  const d = new Int32Array((n + 1) * w);
  for (let j = 0; j <= m; j++) d[j] = j;
  for (let i = 1; i <= n; i++) {
    d[i * w] = i;
    for (let j = 1; j <= m; j++)
      d[i * w + j] = Math.min(
        d[(i - 1) * w + j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
        d[(i - 1) * w + j]! + 1,
        d[i * w + j - 1]! + 1,
      );
  }
  if (d[n * w + m]! > maxEdits) return null;
  const out: string[] = Array.from({ length: n }, () => '');
  const extra: string[] = Array.from({ length: n + 1 }, () => '');
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    if (
      i > 0 &&
      j > 0 &&
      d[i * w + j] === d[(i - 1) * w + j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)
    ) {
      out[i - 1] = b[j - 1]!;
      i--;
      j--;
    } else if (i > 0 && d[i * w + j] === d[(i - 1) * w + j]! + 1) {
      out[i - 1] = '';
      i--;
    } else {
      extra[i] = b[j - 1]! + extra[i];
      j--;
    }
  }
  return Object.freeze(out.map((c, k) => (extra[k] ? `${extra[k]}${c}` : c)));
}

/**
 * What another reading has at the chosen reading's spans, character by character. Its lines are first
 * aligned to the chosen ones, so a reading that dropped or doubled a character elsewhere on the line
 * (a `<` run one longer) still counts at the fields it read alike; extra characters inside a span
 * make it differ. Lines too far apart to align are compared place by place.
 */
function alignedSpanText(chosen: string[], other: string[], spans: Span[]): string {
  return spans
    .map(([l, s, e]) => {
      const a = chosen[l] ?? '';
      const b = other[l] ?? '';
      const aligned = alignTo(a, b, Math.max(4, Math.ceil(a.length * 0.15)));
      if (!aligned) return b.slice(s, e);
      // Characters b inserted just before the span's first place lie outside it.
      const first = aligned[s] ?? '';
      return [first.slice(-1), ...aligned.slice(s + 1, e)].join('');
    })
    .join('|');
}

/** MRZ transliteration of printed text (ICAO 9303 part 3): upper case, accents dropped, words only. */
export function vizWords(text: string): Set<string> {
  const plain = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/Æ/g, 'AE')
    .replace(/Ø/g, 'OE')
    .replace(/ß/g, 'SS');
  return new Set(plain.split(/[^A-Z]+/).filter((w) => w.length >= 2));
}

/**
 * True when every word of an MRZ name is printed as a whole word in the visual zone. A one-letter
 * word (an initial, or a name truncated by a misread) is never confirmed so: single letters are
 * everywhere in OCR'd text.
 */
export function nameInViz(name: string, words: Set<string>): boolean {
  const parts = name.split(/\s+/).filter(Boolean);
  return parts.length > 0 && parts.every((p) => p.length >= 2 && words.has(p));
}

/**
 * True when a country code (issuing state, nationality) is printed as a whole word in the visual
 * zone: ICAO 9303 prints the issuing state's code on the data page ("Code / Code: LUX"), and cards
 * often print the nationality code. A one-letter code (`D<<`) is never confirmed so.
 */
export function codeInViz(code: string, words: Set<string>): boolean {
  // ICAO 9303 codes are three letters (one-letter `D` is never confirmed this way); a two-letter
  // word is too common in read text to stand for a code.
  return /^[A-Z]{3}$/.test(code) && words.has(code);
}

const isCountryRule = (rule: FieldRule) =>
  rule.fields.length === 1 &&
  (rule.fields[0] === 'issuingCountry' || rule.fields[0] === 'nationality');

function nameField(surname: string, givenNames: string, length: number): string {
  const part = (s: string) => s.trim().split(/\s+/).filter(Boolean).join('<');
  const given = part(givenNames);
  return `${part(surname)}${given ? `<<${given}` : ''}`.padEnd(length, '<').slice(0, length);
}

/**
 * True when a reading's names start where they should. On every format but TD1 the names follow the
 * issuing state's code on the first line; a code that is no ICAO code (after the look-alike fixes of
 * parseMrz) is as likely a lost or doubled character as a misread one, and then the names are
 * shifted: blurred, `P<CANMARTIN` was read `P<ANMRTIN` by one engine and `NCANGRT1N` by the other,
 * both surname `RTIN`. Such a reading neither vouches for names nor has its own names confirmed.
 */
export const namesAnchored = (r: MrzReading) =>
  r.format === 'TD1' || isKnownState(r.mrzLines[0]?.slice(2, 5) ?? '');

/** A checked field's parsed value in a reading (`passportNumber` is the document number). */
const fieldValue = (r: MrzReading, field: string): unknown =>
  r[(field === 'passportNumber' ? 'documentNumber' : field) as keyof MrzReading];

export type MrzConfirmation = {
  /** Output field names that no check digit or second reading confirms. */
  uncertain: string[];
  fieldConfidence: Record<string, number>;
  /** Every character of the lines is covered by a passing check or confirmed by a second reading. */
  linesConfirmed: boolean;
};

/**
 * One engine reading of the zone. `group` is `<engine>:<image>` (e.g. `tesseract:region0-binarised@1.00`):
 * readings in one group are not independent at all (the same image through tesseract's legacy and
 * combined engines, which share the legacy classifier). Readings of one engine on other preprocessings
 * of the same pixels (a binarised copy, another scale, the page's boxes against the crop's) are other
 * groups but still one *source*: their misreads go together (tesseract read a worn `ER` as `UJ` on a
 * crop and on its binarised copy alike), so they vote but never confirm one another.
 */
export type MrzEvidence = { reading: MrzReading; group: string };

/** The independent source behind a reading: its engine (`tesseract`, `paddle`). */
export const engineOf = (group: string) => group.split(':')[0]!;

/**
 * Support for the chosen value of one field. Confirmed when two independent sources (engines; the
 * visual zone, `extra`, counts as one more) read exactly it, no rival value was read by as many
 * sources, and no rival has more votes (groups: every preprocessing of every engine).
 */
function supported(
  evidence: MrzEvidence[],
  valueOf: (r: MrzReading) => string,
  chosen: string,
  extra = 0,
): boolean {
  const groups = new Map<string, Set<string>>();
  const engines = new Map<string, Set<string>>();
  for (const e of evidence) {
    const v = valueOf(e.reading);
    if (!groups.has(v)) groups.set(v, new Set());
    if (!engines.has(v)) engines.set(v, new Set());
    groups.get(v)!.add(e.group);
    engines.get(v)!.add(engineOf(e.group));
  }
  const ownSources = (engines.get(chosen)?.size ?? 0) + extra;
  const ownVotes = (groups.get(chosen)?.size ?? 0) + extra;
  const rivals = [...groups.keys()].filter((v) => v !== chosen);
  const rivalSources = Math.max(0, ...rivals.map((v) => engines.get(v)!.size));
  const rivalVotes = Math.max(0, ...rivals.map((v) => groups.get(v)!.size));
  return ownSources >= 2 && ownSources > rivalSources && ownVotes >= rivalVotes;
}

/**
 * True when two engines or more read other values of a checked field's parsed values than the chosen
 * reading has, and fewer engines read the chosen ones. A check digit passes a misread by chance 1
 * time in 10, so it arbitrates between one engine and another, but not against two that agree: seen
 * from the side, pass-fra's `08CD50338` was read `08C050338` by both engines (failing its check)
 * and `D8C050338` by PaddleOCR's page reading alone, which a second misread made pass; the zone
 * voted from the readings claimed it. Parsed values, as `contested` compares them: engines that
 * misread only the check digit alike read the field itself as chosen.
 */
function outvoted(evidence: MrzEvidence[], reading: MrzReading, fields: string[]): boolean {
  const valueOf = (r: MrzReading) => fields.map((f) => String(fieldValue(r, f))).join('\n');
  const engines = new Map<string, Set<string>>();
  for (const e of evidence) {
    const v = valueOf(e.reading);
    if (!engines.has(v)) engines.set(v, new Set());
    engines.get(v)!.add(engineOf(e.group));
  }
  const chosen = valueOf(reading);
  const own = engines.get(chosen)?.size ?? 0;
  return [...engines].some(([v, set]) => v !== chosen && set.size >= 2 && set.size > own);
}

/**
 * `evidence` holds every engine reading of the zone (the chosen one included when it is one; a vote
 * derived from them is not evidence). `vizText` is OCR text of the rest of the page, if read: a
 * name printed there is one more independent reading of that name.
 */
export function confirmMrzFields(
  reading: MrzReading,
  evidence: MrzEvidence[],
  vizText?: string,
): MrzConfirmation {
  const same = evidence.filter(
    (e) =>
      e.reading.format === reading.format && e.reading.mrzLines.length === reading.mrzLines.length,
  );
  const words = vizText ? vizWords(vizText) : null;
  const anchored = namesAnchored(reading);
  const sameAnchored = same.filter((e) => namesAnchored(e.reading));

  const uncertain: string[] = [];
  const fieldConfidence: Record<string, number> = {};
  let linesConfirmed = reading.checksValid;
  const touchedIn = (r: MrzReading, spans: Span[]) =>
    r.checkCorrected.some(([l, i]) => spans.some(([sl, s, e]) => sl === l && i >= s && i < e));
  const touched = (spans: Span[]) => touchedIn(reading, spans);
  const hasComposite = 'composite' in reading.checks;
  const sawCorrection = (spans: Span[]) =>
    same.some(
      (e) =>
        e.reading !== reading &&
        reading.checkCorrected
          .filter(([l, i]) => spans.some(([sl, s, end]) => sl === l && i >= s && i < end))
          .every(([l, i]) => e.reading.rawLines[l]?.[i] === reading.mrzLines[l]![i]),
    );
  for (const rule of rules(reading.format)) {
    const own = spanText(reading.mrzLines, rule.spans);
    const valueOfOwn = (r: MrzReading) => {
      if (r === reading) return own;
      // The other reading's lines as corrected by place (a `0` in a letter field read as `O`),
      // or as read, when a lost character shifted its line under the corrections.
      const corrected = alignedSpanText(reading.mrzLines, r.mrzLines, rule.spans);
      return corrected === own || alignedSpanText(reading.mrzLines, r.rawLines, rule.spans) !== own
        ? corrected
        : own;
    };
    const isNames = rule.fields.includes('surname');
    const agreed = isNames
      ? anchored && supported(sameAnchored, valueOfOwn, own)
      : supported(same, valueOfOwn, own);
    let confidence: number;
    if (rule.check) {
      // A check that picked its own look-alike correction verifies nothing more: the composite check
      // or a second reading must then agree.
      // (Agreement of corrected readings proves nothing: the same misread gets the same correction;
      // only a reading that saw the corrected characters itself counts.)
      // Nor does a check when another reading passes that same check with other
      // characters there: one of the two passes by chance (1 in 10 for a misread field), and
      // nothing says which.
      // Compared on the parsed values (a line shifted by a lost character still parses them), and
      // only readings whose structure holds and whose check passed without their own correction.
      const contested = same.some(
        (e) =>
          e.reading !== reading &&
          e.reading.checks.structure !== false &&
          e.reading.checks[rule.check!] === true &&
          !touchedIn(e.reading, rule.spans) &&
          rule.fields.some((f) => fieldValue(e.reading, f) !== fieldValue(reading, f)),
      );
      // In a zone whose checks fail (misread somewhere, or misprinted), one passing check digit is
      // 1-in-10 evidence: at 60 % of its size, pass-fra's garbled second line passed its document
      // number and birth date checks. A covered field is then claimed only when another engine read
      // the same characters there, as read (not made so by the same correction), and never in a
      // zone whose layout does not hold.
      const zoneHolds =
        reading.checksValid ||
        (reading.checks.structure !== false &&
          agreed &&
          (!touched(rule.spans) || sawCorrection(rule.spans)));
      const verified =
        zoneHolds &&
        !contested &&
        !outvoted(same, reading, rule.fields) &&
        reading.checks[rule.check] === true &&
        (!touched(rule.spans) ||
          (hasComposite && rule.check !== 'composite' && reading.checks.composite === true) ||
          sawCorrection(rule.spans));
      confidence = verified ? 0.98 : 0.2;
    } else {
      // A zone whose checks fail was misread somewhere (or misprinted): agreement on the rest is
      // not enough to claim it.
      // A country code printed as a word in the visual zone is one more reading of it, as a name is.
      // The page prints the issuing state's code: a nationality other than it is never confirmed
      // by a word of the page (it could be that code outvoting an engine that read right).
      const byViz =
        words !== null &&
        isCountryRule(rule) &&
        (rule.fields[0] === 'issuingCountry' ||
          fieldValue(reading, 'nationality') === fieldValue(reading, 'issuingCountry')) &&
        codeInViz(own.replace(/<+$/, ''), words);
      const confirmedHere = agreed || (byViz && supported(same, valueOfOwn, own, 1));
      // A country code that is no ICAO code is a misread however many readings share it.
      const knownCode = !isCountryRule(rule) || isKnownState(own);
      confidence = confirmedHere && knownCode && reading.checksValid ? 0.95 : 0.5;
    }
    const confirmed = confidence >= 0.9;
    if (isNames && !confirmed) {
      // Names may still be confirmed one by one: by other readings or by the visual zone.
      let bothNames = true;
      let surnameSure = false;
      for (const name of ['surname', 'givenNames'] as const) {
        const value = reading[name].trim();
        // No given names means the surname runs to the end of the field: a claim about where the
        // surname ends, as sure as the surname. Seen from the side, pass-lux's `MAUS<<KETTY` was read
        // `MAUSK<KKETTY` (the separator lost): surname unsure, no given names claimed by the engine
        // that read it so and by the visual zone, which cannot print an absence (nameInViz of an
        // empty name is false).
        if (name === 'givenNames' && value === '' && !surnameSure) {
          fieldConfidence[name] = 0.4;
          uncertain.push(name);
          bothNames = false;
          continue;
        }
        const byViz = words !== null && nameInViz(value, words);
        const c =
          reading.checksValid &&
          anchored &&
          supported(sameAnchored, (r) => r[name].trim(), value, byViz ? 1 : 0)
            ? 0.9
            : 0.4;
        fieldConfidence[name] = c;
        if (name === 'surname') surnameSure = c >= 0.9;
        if (c < 0.9) {
          uncertain.push(name);
          bothNames = false;
        }
      }
      // The lines are right too when the name field holds exactly the confirmed names and fillers.
      if (!bothNames || own !== nameField(reading.surname, reading.givenNames, own.length))
        linesConfirmed = false;
      continue;
    }
    if (!confirmed) linesConfirmed = false;
    for (const field of rule.fields) {
      fieldConfidence[field] = confidence;
      if (!confirmed) uncertain.push(field);
    }
  }
  fieldConfidence.mrzLines = linesConfirmed ? 0.95 : 0.4;
  if (!linesConfirmed) uncertain.push('mrzLines');
  return { uncertain, fieldConfidence, linesConfirmed };
}
