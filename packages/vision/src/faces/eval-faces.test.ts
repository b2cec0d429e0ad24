import { describe, expect, it } from 'vitest';

import { separation, statsAt } from './eval-faces';

const pair = (same: boolean, distance: number | null, matchScore: number | null = null) => ({
  a: 'a.jpg',
  b: 'b.jpg',
  same,
  distance,
  matchScore,
});

describe('separation', () => {
  it('measures the margin between the classes and the room either side of 0.60', () => {
    const s = separation([
      pair(true, 0.3),
      pair(true, 0.5),
      pair(false, 0.8),
      pair(false, 1.0),
      pair(true, null), // no face: left out
    ]);
    expect(s.sameMean).toBeCloseTo(0.4, 9);
    expect(s.sameMax).toBeCloseTo(0.5, 9);
    expect(s.diffMean).toBeCloseTo(0.9, 9);
    expect(s.diffMin).toBeCloseTo(0.8, 9);
    expect(s.margin).toBeCloseTo(0.3, 9);
    expect(s.sameRoom).toBeCloseTo(0.1, 9);
    expect(s.diffRoom).toBeCloseTo(0.2, 9);
    // Both classes have sample sd sqrt(0.02) (as fitEqualErrorDistance): d' = (0.9 - 0.4) / sqrt(0.02).
    expect(s.dPrime).toBeCloseTo(0.5 / Math.sqrt(0.02), 9);
  });

  it('reports overlapping classes as a negative margin', () => {
    const s = separation([pair(true, 0.7), pair(true, 0.5), pair(false, 0.65), pair(false, 0.9)]);
    expect(s.margin).toBeCloseTo(-0.05, 9);
    expect(s.sameRoom).toBeLessThan(0);
  });

  it('is invariant in d-prime, not in margin, when every distance shrinks by the same factor', () => {
    const base = [pair(true, 0.3), pair(true, 0.5), pair(false, 0.8), pair(false, 1.0)];
    const shrunk = base.map((p) => ({ ...p, distance: p.distance! * 0.9 }));
    expect(separation(shrunk).dPrime).toBeCloseTo(separation(base).dPrime, 9);
    expect(separation(shrunk).margin).toBeLessThan(separation(base).margin);
  });
});

describe('statsAt', () => {
  it('counts a pair without a face as a false reject when genuine, never as an accept', () => {
    const st = statsAt(
      [pair(true, 0.4, 85), pair(true, null, null), pair(false, 0.9, 30), pair(false, 0.55, 72)],
      70,
    );
    expect(st).toMatchObject({ falseRejects: 1, falseAccepts: 1, failures: 1, accuracy: 0.5 });
  });
});
