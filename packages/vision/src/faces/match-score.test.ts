import { describe, expect, it } from 'vitest';

import { FaceError } from './errors';
import {
  ACCEPT_DISTANCE,
  DESCRIPTOR_LENGTH,
  EER_DISTANCE,
  FACE_MATCH_THRESHOLD,
  compareDescriptors,
  cosineSimilarity,
  distanceToMatchScore,
  euclideanDistance,
  fitEqualErrorDistance,
  isFaceMatch,
  mappingThrough,
  matchDecision,
  matchScoreToDistance,
  rawMatchScore,
} from './match-score';

const descriptor = (seed: number) =>
  Array.from({ length: DESCRIPTOR_LENGTH }, (_, i) => Math.sin(seed * 31 + i * 0.7) * 0.1);

describe('distanceToMatchScore', () => {
  it('scores the same photo (distance 0) 100', () => {
    expect(distanceToMatchScore(0)).toBe(100);
  });

  it('puts the accept distance exactly on the threshold', () => {
    expect(FACE_MATCH_THRESHOLD).toBe(70);
    expect(distanceToMatchScore(ACCEPT_DISTANCE)).toBe(70);
    expect(distanceToMatchScore(ACCEPT_DISTANCE + 1e-4)).toBeLessThan(70);
    expect(distanceToMatchScore(ACCEPT_DISTANCE - 1e-4)).toBeGreaterThanOrEqual(70);
  });

  it('scores the equal-error distance about 50: the safety margin below 70', () => {
    expect(EER_DISTANCE).toBeGreaterThan(ACCEPT_DISTANCE);
    // 50 before the normalisation that makes distance 0 score exactly 100.
    expect(rawMatchScore(EER_DISTANCE)).toBeGreaterThan(49.5);
    expect(rawMatchScore(EER_DISTANCE)).toBeLessThan(52);
  });

  it('decreases monotonically and stays within 0..100', () => {
    let previous = 101;
    for (let d = 0; d <= 2; d += 0.01) {
      const score = distanceToMatchScore(d);
      expect(score).toBeLessThanOrEqual(previous);
      expect(score).toBeGreaterThanOrEqual(0);
      previous = score;
    }
  });

  it('gives typical same-person distances a clear match and different people well under 70', () => {
    expect(distanceToMatchScore(0.4)).toBeGreaterThan(85);
    expect(distanceToMatchScore(0.8)).toBeLessThan(50);
    expect(distanceToMatchScore(0.9)).toBeLessThan(35);
  });

  it('rounds down to one decimal so a rounded score never crosses the threshold', () => {
    for (let d = 0.59; d <= 0.61; d += 0.0001) {
      expect(distanceToMatchScore(d) >= 70).toBe(d <= ACCEPT_DISTANCE + 1e-12);
      expect(Number.isInteger(distanceToMatchScore(d) * 10)).toBe(true);
    }
  });

  it('rejects negative or non-finite distances', () => {
    expect(() => distanceToMatchScore(-0.1)).toThrow(RangeError);
    expect(() => distanceToMatchScore(Number.NaN)).toThrow(RangeError);
  });
});

describe('matchScoreToDistance', () => {
  it('inverts the mapping', () => {
    for (const score of [10, 30, 50, 70, 90, 99]) {
      expect(rawMatchScore(matchScoreToDistance(score))).toBeCloseTo(score, 6);
    }
    expect(matchScoreToDistance(70)).toBeCloseTo(ACCEPT_DISTANCE, 9);
  });
});

describe('mappingThrough', () => {
  it('passes through the anchors for other choices too', () => {
    const mapping = mappingThrough(0.55, 0.65);
    expect(rawMatchScore(0, mapping)).toBeCloseTo(100, 9);
    expect(rawMatchScore(0.55, mapping)).toBeCloseTo(70, 6);
    expect(Math.abs(rawMatchScore(0.65, mapping) - 50)).toBeLessThan(2);
  });

  it('refuses anchors in the wrong order, or too far apart for a curve that starts at 100', () => {
    expect(() => mappingThrough(0.7, 0.6)).toThrow(RangeError);
    expect(() => mappingThrough(0.3, 0.8)).toThrow(RangeError);
  });
});

describe('decision', () => {
  it('matches at and above 70 only', () => {
    expect(isFaceMatch(70)).toBe(true);
    expect(isFaceMatch(69.9)).toBe(false);
    expect(matchDecision(95)).toBe('match');
    expect(matchDecision(12)).toBe('no_match');
  });
});

describe('compareDescriptors', () => {
  it('scores identical descriptors 100', () => {
    const d = descriptor(1);
    expect(compareDescriptors(d, [...d])).toEqual({ distance: 0, matchScore: 100, match: true });
  });

  it('returns the euclidean distance and its score', () => {
    const a = descriptor(1);
    const b = descriptor(2);
    const result = compareDescriptors(a, b);
    expect(result.distance).toBeCloseTo(euclideanDistance(a, b), 4);
    expect(result.matchScore).toBe(distanceToMatchScore(euclideanDistance(a, b)));
  });

  it('accepts Float32Array descriptors', () => {
    const a = Float32Array.from(descriptor(3));
    expect(compareDescriptors(a, a).matchScore).toBe(100);
  });

  it('refuses descriptors of the wrong length or with NaN, as a typed error', () => {
    const bad = descriptor(1).slice(0, 64);
    expect(() => compareDescriptors(bad, descriptor(1))).toThrow(FaceError);
    const nan = descriptor(1);
    nan[5] = Number.NaN;
    try {
      compareDescriptors(descriptor(1), nan);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(FaceError);
      expect((error as FaceError).kind).toBe('invalid_descriptor');
    }
  });
});

describe('fitEqualErrorDistance', () => {
  it('finds the point equally many standard deviations from both means', () => {
    // genuine mean 0.4 sd 0.1, impostor mean 0.9 sd 0.05 -> (0.4*0.05 + 0.9*0.1) / 0.15 = 0.7333
    const genuine = [0.3, 0.4, 0.5];
    const impostor = [0.85, 0.9, 0.95];
    const fit = fitEqualErrorDistance(genuine, impostor);
    expect(fit.distance).toBeCloseTo(0.7333, 3);
    expect(fit.z).toBeCloseTo((fit.distance - 0.4) / 0.1, 6);
  });
});

describe('cosineSimilarity', () => {
  it('is 1 for parallel vectors and 0 for a zero vector', () => {
    expect(cosineSimilarity([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 9);
    expect(cosineSimilarity([0, 0], [1, 1])).toBe(0);
  });
});
