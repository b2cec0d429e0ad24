/**
 * Face engine against real photos: the group photos that ship inside the face-api npm package
 * (sample1.jpg, three different women), cropped and composed at test time. Loads the real models
 * (~1 s) and stays well under a minute.
 */

import { readFileSync } from 'node:fs';

import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';

import { FaceError } from './errors';
import {
  checkFaceQuality,
  compareFaceToDescriptor,
  compareFaces,
  detectFaces,
  embedFace,
  engineTensorCount,
  loadFaceModels,
  warmUpFaceEngine,
} from './face-engine';
import { FACE_MATCH_THRESHOLD, compareDescriptors, cosineSimilarity } from './match-score';
import {
  faceApiSamplePath,
  noFaceImage,
  sampleFace,
  twoFacesSideBySide,
} from './testing/sample-faces';
import * as tasks from './worker-tasks';

const golden = JSON.parse(
  readFileSync(new URL('./testing/golden-sample1-left.json', import.meta.url), 'utf8'),
) as { descriptor: number[] };

let left: Buffer;
let middle: Buffer;
let right: Buffer;

beforeAll(async () => {
  await loadFaceModels();
  [left, middle, right] = await Promise.all([
    sampleFace('left'),
    sampleFace('middle'),
    sampleFace('right'),
  ]);
}, 60_000);

async function faceErrorOf(promise: Promise<unknown>): Promise<FaceError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(FaceError);
    return error as FaceError;
  }
  throw new Error('expected a FaceError, got a result');
}

describe('embedFace', () => {
  it('returns a 128-d descriptor, the box in original pixels, 68 landmarks and a quality verdict', async () => {
    const e = await embedFace(left);
    expect(e.descriptor).toHaveLength(128);
    expect(e.descriptor.every(Number.isFinite)).toBe(true);
    expect(e.landmarks).toHaveLength(68);
    // The face sits inside the 400x480 crop, roughly in its middle.
    expect(e.box.x).toBeGreaterThan(0);
    expect(e.box.x + e.box.width).toBeLessThan(400);
    expect(e.box.width).toBeGreaterThan(100);
    expect(e.quality.metrics.faceCount).toBe(1);
    expect(e.quality.metrics.sharpness).toBeGreaterThan(0.04);
  });

  it('matches the golden descriptor (cosine >= 0.99)', async () => {
    const e = await embedFace(left);
    expect(cosineSimilarity(e.descriptor, golden.descriptor)).toBeGreaterThanOrEqual(0.99);
  });

  it('reports boxes in the original pixels of a large photo', async () => {
    const big = await sharp(left).resize(1600).jpeg().toBuffer(); // 4x, analysed at 1024
    const [small, large] = [await embedFace(left), await embedFace(big)];
    expect(large.box.x / small.box.x).toBeCloseTo(4, 0);
    expect(large.box.width / small.box.width).toBeCloseTo(4, 0);
  });

  it('adds passive anti-spoof scores when asked', async () => {
    const e = await embedFace(left, { antispoof: true });
    expect(e.antispoof?.real).toBeGreaterThanOrEqual(0);
    expect(e.antispoof?.real).toBeLessThanOrEqual(1);
    expect(e.antispoof?.live).toBeGreaterThanOrEqual(0);
    expect(e.antispoof?.live).toBeLessThanOrEqual(1);
  });

  it("throws 'no_face' for an image without a face, never a descriptor", async () => {
    const error = await faceErrorOf(embedFace(await noFaceImage()));
    expect(error.kind).toBe('no_face');
    expect(error.message).toBe(
      'No face found in the image. Ask the driver to face the camera and retake the photo.',
    );
  });

  it("throws 'multiple_faces' for two people side by side and for the group photo", async () => {
    expect((await faceErrorOf(embedFace(await twoFacesSideBySide('left', 'middle')))).kind).toBe(
      'multiple_faces',
    );
    expect((await faceErrorOf(embedFace(readFileSync(faceApiSamplePath(1))))).kind).toBe(
      'multiple_faces',
    );
  });

  it("throws 'invalid_image' for bytes that are not an image", async () => {
    const error = await faceErrorOf(embedFace(new TextEncoder().encode('not an image')));
    expect(error.kind).toBe('invalid_image');
  });

  it("throws 'low_quality' with the issues when quality is required and the photo is blurred", async () => {
    const blurred = await sharp(left).blur(6).jpeg().toBuffer();
    const result = embedFace(blurred, { requireQuality: true });
    const error = await faceErrorOf(result);
    // Heavy blur either still finds the face (-> blurry) or loses it entirely (-> no_face).
    expect(['low_quality', 'no_face']).toContain(error.kind);
    if (error.kind === 'low_quality') expect(error.issues).toContain('blurry');
  });

  it('finds a dim, low-contrast face on the contrast-stretched retry and still matches it', async () => {
    // Contrast cut to 6 % around a dark level: neither detector finds the face in these pixels.
    const dim = await sharp(left).linear(0.06, 2).png().toBuffer();
    const e = await embedFace(dim);
    expect(e.detectionPass).toBeGreaterThanOrEqual(3);
    const reference = await embedFace(left);
    expect(
      compareDescriptors(e.descriptor, reference.descriptor).matchScore,
    ).toBeGreaterThanOrEqual(FACE_MATCH_THRESHOLD);
    const otherPerson = await embedFace(right);
    expect(compareDescriptors(e.descriptor, otherPerson.descriptor).matchScore).toBeLessThan(
      FACE_MATCH_THRESHOLD,
    );
  });

  it('averages each crop with its mirror: a mirrored photo describes nearly the same', async () => {
    const mirrored = await sharp(left).flop().png().toBuffer();
    const distance = async (options: { flipAverage: boolean }) => {
      const [a, b] = [await embedFace(left, options), await embedFace(mirrored, options)];
      return compareDescriptors(a.descriptor, b.descriptor).distance;
    };
    const averaged = await distance({ flipAverage: true });
    const single = await distance({ flipAverage: false });
    expect(averaged).toBeLessThan(single);
    expect(averaged).toBeLessThan(0.15);
  });

  it('does not leak tensors', async () => {
    await embedFace(left);
    const before = await engineTensorCount();
    await embedFace(left, { antispoof: true });
    await embedFace(await twoFacesSideBySide('left', 'right')).catch(() => undefined);
    expect(await engineTensorCount()).toBe(before);
  });
});

describe('compareFaces', () => {
  it('scores the same image ~100', async () => {
    const r = await compareFaces(left, left);
    expect(r.matchScore).toBeGreaterThanOrEqual(95);
    expect(r.match).toBe(true);
  });

  it('scores the same photo re-encoded at another size as a match', async () => {
    const smaller = await sharp(left).resize(300).jpeg({ quality: 70 }).toBuffer();
    const r = await compareFaces(left, smaller);
    expect(r.matchScore).toBeGreaterThanOrEqual(90);
  });

  it('scores two different people below 70', async () => {
    for (const [a, b] of [
      [left, middle],
      [left, right],
      [middle, right],
    ] as const) {
      const r = await compareFaces(a, b);
      expect(r.matchScore).toBeLessThan(FACE_MATCH_THRESHOLD);
      expect(r.match).toBe(false);
    }
  });

  it('fails with a typed error, not a score, when one side has no face', async () => {
    expect((await faceErrorOf(compareFaces(left, await noFaceImage()))).kind).toBe('no_face');
  });
});

describe('compareFaceToDescriptor', () => {
  it('compares a live photo with a stored descriptor', async () => {
    const same = await compareFaceToDescriptor(left, golden.descriptor);
    expect(same.matchScore).toBeGreaterThanOrEqual(95);
    const other = await compareFaceToDescriptor(right, golden.descriptor);
    expect(other.matchScore).toBeLessThan(FACE_MATCH_THRESHOLD);
  });

  it("refuses a stored descriptor that is not 128 numbers ('invalid_descriptor')", async () => {
    const error = await faceErrorOf(compareFaceToDescriptor(left, [1, 2, 3]));
    expect(error.kind).toBe('invalid_descriptor');
  });
});

describe('warmUpFaceEngine', () => {
  it('runs every network once without leaking tensors', async () => {
    const before = await engineTensorCount();
    expect(await warmUpFaceEngine()).toBeGreaterThan(0);
    expect(await engineTensorCount()).toBe(before);
  });
});

describe('detectFaces', () => {
  it('finds the three faces of the group photo, largest first, with landmarks', async () => {
    const faces = await detectFaces(readFileSync(faceApiSamplePath(1)));
    expect(faces).toHaveLength(3);
    const areas = faces.map((f) => f.box.width * f.box.height);
    expect([...areas].sort((a, b) => b - a)).toEqual(areas);
    for (const f of faces) expect(f.landmarks).toHaveLength(68);
  });
});

describe('checkFaceQuality', () => {
  it('accepts a good capture and explains a bad one', async () => {
    const bigger = await sharp(left).resize(800).jpeg({ quality: 90 }).toBuffer();
    const good = await checkFaceQuality(bigger);
    expect(good.quality.metrics.faceCount).toBe(1);
    expect(good.antispoof).toBeDefined();

    const none = await checkFaceQuality(await noFaceImage());
    expect(none.quality.ok).toBe(false);
    expect(none.quality.issues).toEqual(['no_face']);

    const two = await checkFaceQuality(await twoFacesSideBySide('left', 'right'));
    expect(two.quality.issues).toEqual(['multiple_faces']);
    expect(two.quality.message).toMatch(/only the driver/);
  });
});

describe('worker tasks', () => {
  it('return plain, structured-clonable data, errors included', async () => {
    const embedded = await tasks.embedFace({ image: new Uint8Array(left) });
    expect(embedded.ok).toBe(true);
    expect(structuredClone(embedded)).toEqual(embedded);

    const failed = await tasks.compareFaces({ a: new Uint8Array(left), b: await noFaceImage() });
    expect(failed).toEqual({
      ok: false,
      error: {
        kind: 'no_face',
        message:
          'No face found in the image. Ask the driver to face the camera and retake the photo.',
      },
    });

    const vsStored = await tasks.compareFaceToDescriptor({
      image: new Uint8Array(middle),
      descriptor: golden.descriptor,
    });
    expect(vsStored.ok && vsStored.matchScore < FACE_MATCH_THRESHOLD).toBe(true);

    const check = await tasks.checkFaceQuality({
      image: await twoFacesSideBySide('left', 'right'),
    });
    expect(check.ok && check.quality.issues).toEqual(['multiple_faces']);
  });
});
