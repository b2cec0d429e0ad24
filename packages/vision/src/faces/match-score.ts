/**
 * Calibrated face match score: descriptor distance -> 0..100, with the accept decision at 70.
 *
 * Pure module: no Node-only imports (the web app may show the same score).
 *
 * The descriptor is face-api's 128-d `faceRecognitionNet`, a port of dlib's ResNet face model;
 * same-person photos have a small euclidean distance. The mapping is a logistic curve in the distance,
 * normalised so that distance 0 (the same photo) scores exactly 100, and fixed by two anchors
 * (docs/adr/0002-face-engine.md, "Match score"):
 *
 * - ACCEPT_DISTANCE (0.60) scores exactly FACE_MATCH_THRESHOLD (70). 0.60 is dlib's published operating
 *   point for this network (99.38 % on LFW), also the default of face_recognition and deepface for it;
 *   it is not tuned on our pairs.
 * - EER_DISTANCE scores about 50 (51.0): the equal-error distance of Gaussian fits to the genuine and impostor
 *   distances of the dev pairs (`fitEqualErrorDistance`). It sits above 0.60, so the accept threshold is
 *   stricter than the equal-error point: that gap is the safety margin (20 score points).
 *
 * Only four summary statistics of the dev pairs enter (two means, two spreads), and only the slope of
 * the curve depends on them; the accept decision (distance <= 0.60) does not.
 */

import { FACE_MATCH_THRESHOLD, isFaceMatch } from '@boomgate/contracts/faces';

import { FaceError } from './errors';

/** The product's threshold, defined once in contracts; re-exported for the engine's callers. */
export { FACE_MATCH_THRESHOLD, isFaceMatch };
export const DESCRIPTOR_LENGTH = 128;

/** Distance that scores exactly FACE_MATCH_THRESHOLD: dlib's published operating point. */
export const ACCEPT_DISTANCE = 0.6;
/** Dev-pair equal-error distance (Gaussian fit, rounded); scores 50. See eval-faces.ts. */
export const EER_DISTANCE = 0.75;

export type ScoreMapping = { midpoint: number; scale: number };

const logistic = (x: number) => 1 / (1 + Math.exp(-x));

/**
 * The logistic mapping through (0, 100), (acceptDistance, threshold) and about (eerDistance, 50):
 * score(d) = 100 * L((m - d) / s) / L(m / s), L the logistic function, m = eerDistance. The division
 * makes the same photo score exactly 100 and lifts the EER point a little above 50 (51.0 with the
 * committed anchors); s is solved so that the accept anchor is exact. Throws when no such curve exists
 * (the accept distance too small relative to the EER distance).
 */
export function mappingThrough(
  acceptDistance: number,
  eerDistance: number,
  threshold = FACE_MATCH_THRESHOLD,
): ScoreMapping {
  if (!(eerDistance > acceptDistance && acceptDistance > 0)) {
    throw new RangeError('Need 0 < acceptDistance < eerDistance');
  }
  const p = threshold / 100;
  // Solve 100 * L((m - a) / s) / L(m / s) = threshold for s, with m = eerDistance. The ratio is 1 for
  // s -> 0, dips below p and returns towards 1 for large s: take the smaller (steeper) root.
  const at = (s: number) =>
    logistic((eerDistance - acceptDistance) / s) / logistic(eerDistance / s);
  let lo = 1e-4;
  let hi = lo;
  while (at(hi) > p) {
    lo = hi;
    hi *= 1.25;
    if (hi > 100) throw new RangeError('No logistic mapping through these anchors');
  }
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (at(mid) > p) lo = mid;
    else hi = mid;
  }
  return { midpoint: eerDistance, scale: (lo + hi) / 2 };
}

export const SCORE_MAPPING: ScoreMapping = mappingThrough(ACCEPT_DISTANCE, EER_DISTANCE);

/** Raw (unrounded) score for a distance. */
export function rawMatchScore(distance: number, mapping: ScoreMapping = SCORE_MAPPING): number {
  const { midpoint: m, scale: s } = mapping;
  if (!Number.isFinite(distance) || distance < 0) throw new RangeError('distance must be >= 0');
  return (100 * logistic((m - distance) / s)) / logistic(m / s);
}

/**
 * 0..100 score, rounded DOWN to one decimal so that `score >= 70` is exactly `distance <= 0.60`
 * (rounding up could turn 69.96 into an accept).
 */
export function distanceToMatchScore(
  distance: number,
  mapping: ScoreMapping = SCORE_MAPPING,
): number {
  const raw = rawMatchScore(distance, mapping);
  return Math.min(100, Math.max(0, Math.floor(raw * 10 + 1e-9) / 10));
}

/** Inverse of the mapping: the distance that scores `score` (e.g. to show the threshold as a distance). */
export function matchScoreToDistance(score: number, mapping: ScoreMapping = SCORE_MAPPING): number {
  const { midpoint: m, scale: s } = mapping;
  if (!(score > 0 && score <= 100)) throw new RangeError('score must be in (0, 100]');
  const l = Math.min(1 - 1e-15, (score / 100) * logistic(m / s));
  return Math.max(0, m - s * Math.log(l / (1 - l)));
}

export type MatchDecision = 'match' | 'no_match';

export function matchDecision(matchScore: number): MatchDecision {
  return isFaceMatch(matchScore) ? 'match' : 'no_match';
}

export function assertDescriptor(descriptor: ArrayLike<number>, name = 'descriptor'): void {
  if (
    !descriptor ||
    descriptor.length !== DESCRIPTOR_LENGTH ||
    !Array.prototype.every.call(
      descriptor,
      (v: unknown) => typeof v === 'number' && Number.isFinite(v),
    )
  ) {
    throw new FaceError(
      'invalid_descriptor',
      `The ${name} is not a valid face descriptor (expected ${DESCRIPTOR_LENGTH} finite numbers).`,
    );
  }
}

export function euclideanDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i]! - b[i]!;
    sum += d * d;
  }
  return Math.sqrt(sum);
}

export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

export type DescriptorComparison = {
  /** Euclidean distance between the descriptors (0 = identical; same person usually < 0.6). */
  distance: number;
  /** Calibrated 0..100; >= FACE_MATCH_THRESHOLD means the same person. */
  matchScore: number;
  match: boolean;
};

export function compareDescriptors(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
): DescriptorComparison {
  assertDescriptor(a, 'first descriptor');
  assertDescriptor(b, 'second descriptor');
  const distance = euclideanDistance(a, b);
  const matchScore = distanceToMatchScore(distance);
  return { distance: Math.round(distance * 1e4) / 1e4, matchScore, match: isFaceMatch(matchScore) };
}

// ---- Fitting (used by eval-faces.ts to show where the anchors come from) ----

function meanSd(values: readonly number[]): { mean: number; sd: number } {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, values.length - 1);
  return { mean, sd: Math.sqrt(variance) };
}

/**
 * Equal-error distance of Gaussian fits N(mg, sg) (genuine) and N(mi, si) (impostor): the d where
 * P(genuine > d) = P(impostor < d), i.e. (d - mg) / sg = (mi - d) / si. Uses only the means and spreads,
 * so it does not hinge on the one or two closest pairs the way the empirical EER does.
 */
export function fitEqualErrorDistance(
  genuine: readonly number[],
  impostor: readonly number[],
): {
  distance: number;
  genuine: { mean: number; sd: number };
  impostor: { mean: number; sd: number };
  z: number;
} {
  if (genuine.length < 2 || impostor.length < 2)
    throw new RangeError('Need >= 2 distances per class');
  const g = meanSd(genuine);
  const i = meanSd(impostor);
  const distance = (g.mean * i.sd + i.mean * g.sd) / (g.sd + i.sd);
  return { distance, genuine: g, impostor: i, z: (distance - g.mean) / g.sd };
}
