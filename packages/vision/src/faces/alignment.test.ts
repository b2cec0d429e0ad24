import { describe, expect, it } from 'vitest';

import {
  CHIP_PADDING,
  CHIP_SIZE,
  TEMPLATE_FIRST_LANDMARK,
  type Similarity,
  applySimilarity,
  averageDescriptors,
  chipTemplate,
  chipToImageTransform,
  fitSimilarity,
} from './alignment';
import type { Point } from './landmarks';

/** A similarity from rotation (degrees), scale and shift. */
function similarity(deg: number, scale: number, tx: number, ty: number): Similarity {
  const r = (deg * Math.PI) / 180;
  return { a: scale * Math.cos(r), b: scale * Math.sin(r), tx, ty };
}

/** 68 synthetic landmarks: a jaw line anywhere (ignored by the fit) + the template moved by `t`. */
function landmarksFrom(t: Similarity, jitter: (i: number) => Point = () => ({ x: 0, y: 0 })) {
  const jaw = Array.from({ length: TEMPLATE_FIRST_LANDMARK }, (_, i) => ({ x: 1000 + i, y: -500 }));
  const face = chipTemplate().map((p, i) => {
    const q = applySimilarity(t, p);
    const j = jitter(i);
    return { x: q.x + j.x, y: q.y + j.y };
  });
  return [...jaw, ...face];
}

describe('chipTemplate', () => {
  it("places dlib's mean face (landmarks 17..67) inside a 150 px chip with 25 % padding", () => {
    const t = chipTemplate();
    expect(t).toHaveLength(68 - TEMPLATE_FIRST_LANDMARK);
    const scale = CHIP_SIZE / (1 + 2 * CHIP_PADDING);
    const pad = CHIP_PADDING * scale;
    for (const p of t) {
      expect(p.x).toBeGreaterThanOrEqual(pad - 1e-9);
      expect(p.x).toBeLessThanOrEqual(CHIP_SIZE - pad + 1e-9);
      expect(p.y).toBeGreaterThanOrEqual(pad - 1e-9);
      expect(p.y).toBeLessThanOrEqual(CHIP_SIZE - pad + 1e-9);
    }
    // The outer brow ends (17, 26) mirror each other about the nose bridge (27..30) and sit level.
    const bridge = t[27 - TEMPLATE_FIRST_LANDMARK]!.x;
    const [b17, b26] = [t[0]!, t[26 - TEMPLATE_FIRST_LANDMARK]!];
    expect(bridge - b17.x).toBeCloseTo(b26.x - bridge, 1);
    expect(b17.y).toBeCloseTo(b26.y, 6);
    // Eyes above the nose tip, nose tip above the mouth.
    expect(t[36 - TEMPLATE_FIRST_LANDMARK]!.y).toBeLessThan(t[30 - TEMPLATE_FIRST_LANDMARK]!.y);
    expect(t[30 - TEMPLATE_FIRST_LANDMARK]!.y).toBeLessThan(t[62 - TEMPLATE_FIRST_LANDMARK]!.y);
  });

  it('scales with the chip size and padding', () => {
    const a = chipTemplate(150, 0.25)[10]!;
    const b = chipTemplate(300, 0.25)[10]!;
    expect(b.x).toBeCloseTo(2 * a.x, 9);
    const c = chipTemplate(150, 0)[10]!;
    expect(c.x).toBeCloseTo(0.490127 * 150, 6);
  });
});

describe('fitSimilarity', () => {
  const from: Point[] = [
    { x: 0, y: 0 },
    { x: 10, y: 0 },
    { x: 0, y: 20 },
    { x: 7, y: 13 },
  ];

  it('recovers an exact rotation, scale and shift', () => {
    const truth = similarity(23, 2.5, -40, 17);
    const fit = fitSimilarity(
      from,
      from.map((p) => applySimilarity(truth, p)),
    );
    expect(fit.a).toBeCloseTo(truth.a, 9);
    expect(fit.b).toBeCloseTo(truth.b, 9);
    expect(fit.tx).toBeCloseTo(truth.tx, 9);
    expect(fit.ty).toBeCloseTo(truth.ty, 9);
  });

  it('never returns a reflection: a mirrored target gets the best proper rotation instead', () => {
    const mirrored = from.map((p) => ({ x: -p.x, y: p.y }));
    const fit = fitSimilarity(from, mirrored);
    // A similarity's linear part [[a, -b], [b, a]] has determinant a^2 + b^2 >= 0 by construction; the
    // least-squares fit to a pure reflection of this cloud shrinks rather than flipping.
    expect(Math.hypot(fit.a, fit.b)).toBeLessThan(1);
  });

  it('is the least-squares fit under noise (centroids map onto each other)', () => {
    const truth = similarity(-12, 0.8, 5, 9);
    const noise = [0.3, -0.2, 0.1, -0.25];
    const to = from.map((p, i) => {
      const q = applySimilarity(truth, p);
      return { x: q.x + noise[i]!, y: q.y - noise[i]! };
    });
    const fit = fitSimilarity(from, to);
    const centroid = (ps: Point[]) => ({
      x: ps.reduce((s, p) => s + p.x, 0) / ps.length,
      y: ps.reduce((s, p) => s + p.y, 0) / ps.length,
    });
    const mapped = applySimilarity(fit, centroid(from));
    expect(mapped.x).toBeCloseTo(centroid(to).x, 9);
    expect(mapped.y).toBeCloseTo(centroid(to).y, 9);
    expect(Math.atan2(fit.b, fit.a)).toBeCloseTo((-12 * Math.PI) / 180, 1);
  });

  it('refuses fewer than two pairs, mismatched lists and coincident points', () => {
    expect(() => fitSimilarity([{ x: 1, y: 1 }], [{ x: 1, y: 1 }])).toThrow(RangeError);
    expect(() => fitSimilarity(from, from.slice(1))).toThrow(RangeError);
    const same = [
      { x: 3, y: 3 },
      { x: 3, y: 3 },
    ];
    expect(() => fitSimilarity(same, from.slice(0, 2))).toThrow(/Degenerate/);
  });
});

describe('chipToImageTransform', () => {
  it('maps the chip onto a tilted, scaled, shifted face, ignoring the jaw line', () => {
    const truth = similarity(-30, 3.2, 410, 95);
    const t = chipToImageTransform(landmarksFrom(truth));
    expect(t.a).toBeCloseTo(truth.a, 6);
    expect(t.b).toBeCloseTo(truth.b, 6);
    expect(t.tx).toBeCloseTo(truth.tx, 4);
    expect(t.ty).toBeCloseTo(truth.ty, 4);
  });

  it('moves less than the one misplaced landmark does (every point constrains the fit)', () => {
    const truth = similarity(0, 2, 100, 100);
    // The subject's right eye's outer corner (36) detected 12 px off.
    const t = chipToImageTransform(
      landmarksFrom(truth, (i) =>
        i === 36 - TEMPLATE_FIRST_LANDMARK ? { x: -12, y: 6 } : { x: 0, y: 0 },
      ),
    );
    const centre = applySimilarity(t, { x: 75, y: 75 });
    const trueCentre = applySimilarity(truth, { x: 75, y: 75 });
    expect(Math.hypot(centre.x - trueCentre.x, centre.y - trueCentre.y)).toBeLessThan(1);
    expect(Math.atan2(t.b, t.a)).toBeCloseTo(0, 1);
  });

  it('refuses a landmark set that is not 68 points', () => {
    expect(() => chipToImageTransform(landmarksFrom(similarity(0, 1, 0, 0)).slice(0, 67))).toThrow(
      RangeError,
    );
  });
});

describe('averageDescriptors', () => {
  it('returns the element-wise mean', () => {
    expect(
      Array.from(averageDescriptors([[1, 2, 3], new Float32Array([3, 4, 5]), [2, 0, 1]])),
    ).toEqual([2, 2, 3]);
  });

  it('is the identity for one descriptor and refuses none or mismatched lengths', () => {
    expect(Array.from(averageDescriptors([[0.5, -0.25]]))).toEqual([0.5, -0.25]);
    expect(() => averageDescriptors([])).toThrow(RangeError);
    expect(() => averageDescriptors([[1, 2], [1]])).toThrow(/length/);
  });
});
