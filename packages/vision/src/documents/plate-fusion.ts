/**
 * Character-level fusion of several readings of one plate (a ROVER-style vote): the recognitions of
 * a plate (detection pass, enlarged re-read, grey confirming read) often disagree at one character
 * each (`1868321`, `1868371`, `J8683Z1` for `J868321`). Aligned position by position, each reading
 * votes with its per-character probability for the character it chose and with the runner-up's
 * probability for the runner-up; the fused plate takes the character with the most probability at
 * every position. Pure functions: no OCR here.
 */
import { normalisePlate } from '@boomgate/contracts/plates';

import { type PlateCandidate, type PlateCandidateInput, scorePlateCandidate } from './plate';

type Char = NonNullable<PlateCandidateInput['chars']>[number];

const ALNUM = /^[A-Z0-9]$/;

/** The reading's letters and digits with their scores, or null when they do not spell its text. */
export function alignedChars(input: Pick<PlateCandidateInput, 'text' | 'chars'>): Char[] | null {
  if (!input.chars?.length) return null;
  const chars = input.chars
    .map((c) => ({ ...c, char: c.char.toUpperCase(), alt: c.alt.toUpperCase() }))
    .filter((c) => ALNUM.test(c.char));
  return chars.map((c) => c.char).join('') === normalisePlate(input.text) ? chars : null;
}

const SAME_GLYPH: Record<string, string> = { O: '0', I: '1' };
const fold = (c: string) => SAME_GLYPH[c] ?? c;

/** Positions where two equally long strings differ. */
function differences(a: string, b: string): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) d++;
  return d;
}

/**
 * Fuses the readings that spell a plate as long as `plate` and differ from it in at most
 * `maxDifferences` places. Returns the fused reading (its `chars` carry the summed probability of
 * the winner and the runner-up per position, divided by the number of readings), or null when fewer
 * than two readings align. The fused reading has no `source`: it is not a recognition, so it can
 * never confirm a plate by itself.
 */
export function fuseReadings(
  plate: string,
  inputs: PlateCandidateInput[],
  maxDifferences = 2,
): PlateCandidateInput | null {
  const members: Array<{ input: PlateCandidateInput; chars: Char[] }> = [];
  for (const input of inputs) {
    const chars = alignedChars(input);
    if (!chars || chars.length !== plate.length) continue;
    if (differences(chars.map((c) => c.char).join(''), plate) > maxDifferences) continue;
    members.push({ input, chars });
  }
  if (members.length < 2) return null;
  const weight = members.reduce((s, m) => s + m.input.confidence, 0) || 1;
  const fused: Char[] = [];
  for (let i = 0; i < plate.length; i++) {
    // O/0 and I/1 vote together (one glyph in many plate fonts): the plate's own choice between
    // them, set by position and separators, stands; fusion settles only the other look-alikes.
    const own = (c: string) => (fold(c) === fold(plate[i]!) ? plate[i]! : c);
    const votes = new Map<string, number>();
    for (const { chars, input } of members) {
      const c = chars[i]!;
      const w = input.confidence;
      votes.set(own(c.char), (votes.get(own(c.char)) ?? 0) + w * c.p);
      if (ALNUM.test(c.alt) && own(c.alt) !== own(c.char))
        votes.set(own(c.alt), (votes.get(own(c.alt)) ?? 0) + w * c.altP);
    }
    // Ties go to the character the plate already has (stable; no prior decides here).
    const order = [...votes.entries()].sort(
      (a, b) => b[1] - a[1] || Number(b[0] === plate[i]) - Number(a[0] === plate[i]),
    );
    const [char, p] = order[0]!;
    const [alt, altP] = order[1] ?? ['', 0];
    fused.push({ char, p: p / weight, alt, altP: altP / weight });
  }
  const best = members.reduce((a, b) => (b.input.confidence > a.input.confidence ? b : a)).input;
  const relativeHeights = members
    .map((m) => m.input.relativeHeight)
    .filter((h): h is number => h !== undefined);
  return {
    text: fused.map((c) => c.char).join(''),
    confidence: fused.reduce((s, c) => s + c.p, 0) / fused.length,
    chars: fused,
    ...(relativeHeights.length ? { relativeHeight: Math.max(...relativeHeights) } : {}),
    ...(best.box ? { box: best.box } : {}),
  };
}

/** Equal, counting O/0 and I/1 as one glyph (settled by position, not by fusion). */
function sameGlyphs(a: string, b: string): boolean {
  return a.length === b.length && [...a].every((c, i) => fold(c) === fold(b[i]!));
}

/**
 * Ranked candidates with the best one replaced by the fusion of the readings around it, when the
 * fusion spells another plate: that plate ranks first (just above the old best). When a recognition
 * read the fused plate exactly, its candidate (with its sources) moves up; otherwise a new candidate
 * without sources is put first, which isPlateConfirmed never confirms (no recognition read it).
 */
export function applyFusion(
  ranked: PlateCandidate[],
  inputs: PlateCandidateInput[],
): PlateCandidate[] {
  const best = ranked[0];
  if (!best || best.lettersOnly) return ranked;
  const fusedInput = fuseReadings(best.plateNumber, inputs);
  if (!fusedInput) return ranked;
  const fused = scorePlateCandidate(fusedInput);
  if (!fused || sameGlyphs(fused.plateNumber, best.plateNumber)) return ranked;
  const existing = ranked.find((c) => c.plateNumber === fused.plateNumber);
  const warning = 'Fused from readings that disagree at a character: check it.';
  if (existing) {
    const moved = { ...existing, score: best.score + 0.01, warnings: [...existing.warnings] };
    if (!moved.warnings.includes(warning)) moved.warnings.push(warning);
    return [moved, ...ranked.filter((c) => c !== existing)];
  }
  return [
    {
      ...fused,
      score: best.score + 0.01,
      ...(best.box ? { box: best.box } : {}),
      warnings: [...fused.warnings, warning],
    },
    ...ranked,
  ];
}
