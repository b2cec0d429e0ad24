/**
 * Face alignment geometry for the recognition net (pure: no tfjs, no Node-only imports).
 *
 * face-api's `faceRecognitionNet` is a port of dlib's ResNet face model, which was trained on "face
 * chips" cut by dlib's `get_face_chip_details(shape, 150, 0.25)`: the least-squares similarity
 * transform (rotation + uniform scale + shift) that maps the detected landmarks 17..67 (brows, nose,
 * eyes, mouth; the jaw line is left out because it moves with pose and expression) onto dlib's mean face
 * shape, padded by 25 % on each side, in a 150x150 image. Feeding the net the crop it was trained on is
 * the cheapest accuracy gain there is: every landmark constrains the fit, so one badly placed point (a
 * squint, a half-closed eye, a slight turn) moves the crop far less than it moves a box built from the
 * two eye centres and the mouth centre.
 */

import type { Point } from './landmarks';

/**
 * dlib's mean face shape for iBUG landmarks 17..67 in a unit square (dlib/image_transforms/
 * interpolation.h, `get_face_chip_details`; Boost Software License). Index i here is landmark 17 + i.
 */
const MEAN_FACE_X = [
  0.000213256, 0.0752622, 0.18113, 0.29077, 0.393397, 0.586856, 0.689483, 0.799124, 0.904991,
  0.98004, 0.490127, 0.490127, 0.490127, 0.490127, 0.36688, 0.426036, 0.490127, 0.554217, 0.613373,
  0.121737, 0.187122, 0.265825, 0.334606, 0.260918, 0.182743, 0.645647, 0.714428, 0.793132,
  0.858516, 0.79751, 0.719335, 0.254149, 0.340985, 0.428858, 0.490127, 0.551395, 0.639268, 0.726104,
  0.642159, 0.556721, 0.490127, 0.423532, 0.338094, 0.290379, 0.428096, 0.490127, 0.552157,
  0.689874, 0.553364, 0.490127, 0.42689,
] as const;
const MEAN_FACE_Y = [
  0.106454, 0.038915, 0.0187482, 0.0344891, 0.0773906, 0.0773906, 0.0344891, 0.0187482, 0.038915,
  0.106454, 0.203352, 0.307009, 0.409805, 0.515625, 0.587326, 0.609345, 0.628106, 0.609345,
  0.587326, 0.216423, 0.178758, 0.179852, 0.231733, 0.245099, 0.244077, 0.231733, 0.179852,
  0.178758, 0.216423, 0.244077, 0.245099, 0.780233, 0.745405, 0.727388, 0.742578, 0.727388,
  0.745405, 0.780233, 0.864805, 0.902192, 0.909281, 0.902192, 0.864805, 0.784792, 0.778746,
  0.785343, 0.778746, 0.784792, 0.824182, 0.831803, 0.824182,
] as const;
/** First iBUG landmark of the template (17: outer end of the subject's right brow). */
export const TEMPLATE_FIRST_LANDMARK = 17;
/** dlib's chip size and padding for the face recognition ResNet. */
export const CHIP_SIZE = 150;
export const CHIP_PADDING = 0.25;

/** The template's points in chip pixels for a chip of `size` with `padding` (dlib's formula). */
export function chipTemplate(size = CHIP_SIZE, padding = CHIP_PADDING): Point[] {
  return MEAN_FACE_X.map((mx, i) => ({
    x: ((padding + mx) / (2 * padding + 1)) * size,
    y: ((padding + MEAN_FACE_Y[i]!) / (2 * padding + 1)) * size,
  }));
}

/** x' = a*x - b*y + tx, y' = b*x + a*y + ty: rotation by atan2(b, a), scale hypot(a, b). */
export type Similarity = { a: number; b: number; tx: number; ty: number };

export const applySimilarity = (t: Similarity, p: Point): Point => ({
  x: t.a * p.x - t.b * p.y + t.tx,
  y: t.b * p.x + t.a * p.y + t.ty,
});

/**
 * Least-squares similarity transform mapping `from[i]` onto `to[i]` (no reflection): the closed form of
 * Umeyama's method in 2-D. Throws on fewer than two points or when all `from` points coincide.
 */
export function fitSimilarity(from: readonly Point[], to: readonly Point[]): Similarity {
  const n = from.length;
  if (n < 2 || to.length !== n) throw new RangeError('Need at least two point pairs');
  let fx = 0;
  let fy = 0;
  let gx = 0;
  let gy = 0;
  for (let i = 0; i < n; i++) {
    fx += from[i]!.x;
    fy += from[i]!.y;
    gx += to[i]!.x;
    gy += to[i]!.y;
  }
  fx /= n;
  fy /= n;
  gx /= n;
  gy /= n;
  let dot = 0;
  let cross = 0;
  let norm = 0;
  for (let i = 0; i < n; i++) {
    const x = from[i]!.x - fx;
    const y = from[i]!.y - fy;
    const u = to[i]!.x - gx;
    const v = to[i]!.y - gy;
    dot += x * u + y * v;
    cross += x * v - y * u;
    norm += x * x + y * y;
  }
  if (!(norm > 1e-12)) throw new RangeError('Degenerate points: all source points coincide');
  const a = dot / norm;
  const b = cross / norm;
  return { a, b, tx: gx - (a * fx - b * fy), ty: gy - (b * fx + a * fy) };
}

/**
 * The chip -> image transform for 68 iBUG landmarks (image pixels): chip pixel (u, v) samples image
 * point applySimilarity(t, {x: u, y: v}). In the 8-number form tf.image.transform takes, that is
 * [a, -b, tx, b, a, ty, 0, 0].
 */
export function chipToImageTransform(
  landmarks: readonly Point[],
  size = CHIP_SIZE,
  padding = CHIP_PADDING,
): Similarity {
  if (landmarks.length !== 68) throw new RangeError('Expected 68 iBUG landmarks');
  return fitSimilarity(
    chipTemplate(size, padding),
    landmarks.slice(TEMPLATE_FIRST_LANDMARK, TEMPLATE_FIRST_LANDMARK + MEAN_FACE_X.length),
  );
}

/**
 * The element-wise mean of descriptors of the same face (differently aligned crops, mirror images).
 * The net is neither mirror-symmetric nor indifferent to the crop, so these differ a little; their mean
 * cancels part of what depends on pose, lighting direction and landmark placement rather than identity.
 */
export function averageDescriptors(descriptors: readonly ArrayLike<number>[]): Float32Array {
  const first = descriptors[0];
  if (!first) throw new RangeError('No descriptors to average');
  const sums = new Float64Array(first.length);
  for (const d of descriptors) {
    if (d.length !== first.length) throw new RangeError('Descriptors differ in length');
    for (let i = 0; i < d.length; i++) sums[i] = sums[i]! + d[i]!;
  }
  return Float32Array.from(sums, (v) => v / descriptors.length);
}
