import { describe, expect, it } from 'vitest';

import {
  DEFAULT_QUALITY_THRESHOLDS,
  QUALITY_MESSAGES,
  type FaceQualityMetrics,
  assessFaceQuality,
  countCompetingFaces,
  laplacianVariance,
  meanOf,
  sharpness,
} from './quality';

const good: FaceQualityMetrics = {
  faceCount: 1,
  imageWidth: 1024,
  imageHeight: 576,
  box: { x: 400, y: 150, width: 220, height: 260 },
  sharpness: 0.2,
  yawDeg: 5,
  rollDeg: -3,
  brightness: 120,
};

const issuesOf = (patch: Partial<FaceQualityMetrics>) =>
  assessFaceQuality({ ...good, ...patch }).issues;

describe('assessFaceQuality', () => {
  it('accepts a sharp, frontal, well-exposed single face', () => {
    const q = assessFaceQuality(good);
    expect(q).toMatchObject({ ok: true, issues: [], message: 'OK' });
  });

  it('reports no face and nothing else', () => {
    const q = assessFaceQuality({ ...good, faceCount: 0 });
    expect(q.ok).toBe(false);
    expect(q.issues).toEqual(['no_face']);
    expect(q.message).toBe(
      'No face found in the image. Ask the driver to face the camera and retake the photo.',
    );
  });

  it('reports more than one face', () => {
    expect(issuesOf({ faceCount: 2 })).toEqual(['multiple_faces']);
  });

  it('reports a face too small in pixels or relative to the frame', () => {
    expect(issuesOf({ box: { x: 500, y: 250, width: 60, height: 70 } })).toEqual([
      'face_too_small',
    ]);
    // 90 px is enough pixels but only 9 % of a 1000 px high frame.
    expect(
      issuesOf({
        imageWidth: 1000,
        imageHeight: 1000,
        box: { x: 450, y: 450, width: 90, height: 90 },
      }),
    ).toEqual(['face_too_small']);
  });

  it('reports a face cut off by the image edge', () => {
    expect(issuesOf({ box: { x: -100, y: 150, width: 220, height: 260 } })).toEqual([
      'face_cut_off',
    ]);
    expect(issuesOf({ box: { x: -10, y: 150, width: 220, height: 260 } })).toEqual([]);
  });

  it('reports blur, turned and tilted heads, dark and bright faces', () => {
    expect(issuesOf({ sharpness: 0.01 })).toEqual(['blurry']);
    expect(issuesOf({ yawDeg: -40 })).toEqual(['not_frontal']);
    expect(issuesOf({ rollDeg: 30 })).toEqual(['head_tilted']);
    expect(issuesOf({ brightness: 20 })).toEqual(['too_dark']);
    expect(issuesOf({ brightness: 240 })).toEqual(['too_bright']);
  });

  it('reports a dark face as dark, not also as blurry', () => {
    expect(issuesOf({ brightness: 20, sharpness: 0.01 })).toEqual(['too_dark']);
  });

  it('lists every issue, the first one as the message', () => {
    const q = assessFaceQuality({ ...good, faceCount: 3, yawDeg: 45, sharpness: 0.001 });
    expect(q.issues).toEqual(['multiple_faces', 'not_frontal', 'blurry']);
    expect(q.message).toBe(QUALITY_MESSAGES.multiple_faces);
  });

  it('has a readable retake message for every issue', () => {
    for (const message of Object.values(QUALITY_MESSAGES)) {
      expect(message).toMatch(/retake the photo\.$/);
    }
  });

  it('takes custom thresholds', () => {
    const strict = { ...DEFAULT_QUALITY_THRESHOLDS, maxYawDeg: 3 };
    expect(assessFaceQuality(good, strict).issues).toEqual(['not_frontal']);
  });
});

describe('countCompetingFaces', () => {
  const box = (side: number) => ({ x: 0, y: 0, width: side, height: side });

  it('counts faces of comparable size', () => {
    expect(countCompetingFaces([])).toBe(0);
    expect(countCompetingFaces([box(200)])).toBe(1);
    expect(countCompetingFaces([box(200), box(180)])).toBe(2);
    expect(countCompetingFaces([box(200), box(100)])).toBe(2);
  });

  it('ignores much smaller faces (a passer-by far behind, the ghost portrait on an ID card)', () => {
    expect(countCompetingFaces([box(200), box(60)])).toBe(1);
    expect(countCompetingFaces([box(60), box(200), box(40)])).toBe(1);
  });
});

describe('sharpness', () => {
  const size = 64;
  // A deterministic textured image: sums of sines at several frequencies.
  const textured = Array.from({ length: size * size }, (_, i) => {
    const x = i % size;
    const y = Math.floor(i / size);
    return 128 + 40 * Math.sin(x * 1.3) * Math.cos(y * 0.9) + 30 * Math.sin((x + y) * 0.4);
  });
  const boxBlur = (img: number[], passes: number) => {
    let cur = img;
    for (let p = 0; p < passes; p++) {
      const next = [...cur];
      for (let y = 1; y < size - 1; y++) {
        for (let x = 1; x < size - 1; x++) {
          let s = 0;
          for (let dy = -1; dy <= 1; dy++)
            for (let dx = -1; dx <= 1; dx++) s += cur[(y + dy) * size + x + dx]!;
          next[y * size + x] = s / 9;
        }
      }
      cur = next;
    }
    return cur;
  };

  it('drops when the image is blurred', () => {
    const sharp = sharpness(textured, size, size);
    const soft = sharpness(boxBlur(textured, 3), size, size);
    expect(sharp).toBeGreaterThan(DEFAULT_QUALITY_THRESHOLDS.minSharpness);
    expect(soft).toBeLessThan(sharp / 4);
  });

  it('does not depend on the contrast (a dim photo is not a blurry photo)', () => {
    const dim = textured.map((v) => 20 + (v - 128) * 0.3);
    expect(sharpness(dim, size, size)).toBeCloseTo(sharpness(textured, size, size), 6);
  });

  it('is 0 for a flat image and for images too small to measure', () => {
    expect(sharpness(new Array(size * size).fill(90), size, size)).toBe(0);
    expect(sharpness([1, 2, 3, 4], 2, 2)).toBe(0);
  });

  it('computes the Laplacian variance of a known pattern', () => {
    // Vertical stripes 0/255 of width 1: the Laplacian is -510 / +510 alternating inside (mean 0).
    const stripes = Array.from({ length: 30 }, (_, i) => ((i % 6) % 2 ? 255 : 0));
    expect(laplacianVariance(stripes, 6, 5)).toBeCloseTo(510 ** 2, 6);
    expect(meanOf([10, 20, 30])).toBe(20);
  });
});
