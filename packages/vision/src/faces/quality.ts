/**
 * Capture quality rules for a face photo: exactly one face, big enough, sharp enough, roughly frontal,
 * usable exposure. Each failure carries a message the guard can act on ("move closer", "hold still").
 *
 * Pure module: the engine measures (face-engine.ts), these functions decide.
 */

export type FaceBox = { x: number; y: number; width: number; height: number };

export const QUALITY_ISSUES = [
  'no_face',
  'multiple_faces',
  'face_too_small',
  'face_cut_off',
  'blurry',
  'not_frontal',
  'head_tilted',
  'too_dark',
  'too_bright',
] as const;
export type QualityIssue = (typeof QUALITY_ISSUES)[number];

export const QUALITY_MESSAGES: Record<QualityIssue, string> = {
  no_face: 'No face found in the image. Ask the driver to face the camera and retake the photo.',
  multiple_faces:
    'More than one face in the image. Make sure only the driver is in the frame and retake the photo.',
  face_too_small:
    'The face is too small. Move closer so the face fills more of the frame and retake the photo.',
  face_cut_off:
    'The face is cut off at the edge of the photo. Centre the face in the frame and retake the photo.',
  blurry: 'The photo is blurry. Hold the camera still, let it focus and retake the photo.',
  not_frontal:
    'The driver is not facing the camera. Ask them to look straight at the camera and retake the photo.',
  head_tilted:
    'The head is tilted. Ask the driver to hold their head upright and retake the photo.',
  too_dark: 'The face is too dark. Turn on a light or move out of the shadow and retake the photo.',
  too_bright:
    'The face is over-exposed. Move out of direct sunlight or glare and retake the photo.',
};

export type QualityThresholds = {
  /** Smallest face side in analysed pixels (the descriptor net works on a 150 px face crop). */
  minFacePx: number;
  /** Smallest face height as a fraction of the image's shorter side. */
  minFaceFraction: number;
  /** Share of the face box allowed outside the image. */
  maxOutside: number;
  /** Lowest sharpness (variance of the Laplacian / variance of the intensities, on a 128 px grey crop). */
  minSharpness: number;
  /** Largest |yaw| in degrees. */
  maxYawDeg: number;
  /** Largest |roll| in degrees. */
  maxRollDeg: number;
  /** Mean face brightness bounds, 0..255. */
  minBrightness: number;
  maxBrightness: number;
};

/**
 * Defaults chosen for a hand-held tablet photo of a driver at arm's length. The sharpness floor is from
 * the 22 dev faces: as shot they measure 0.076-0.53; the same photos blurred with a Gaussian of sigma
 * 2 px (at the 128 px crop scale, i.e. visibly soft) measure 0.005-0.02 (docs/adr/0002-face-engine.md).
 */
export const DEFAULT_QUALITY_THRESHOLDS: QualityThresholds = {
  minFacePx: 80,
  minFaceFraction: 0.12,
  maxOutside: 0.1,
  minSharpness: 0.04,
  maxYawDeg: 25,
  maxRollDeg: 20,
  minBrightness: 40,
  maxBrightness: 215,
};

/** Measured on the analysed image (EXIF-rotated, at most 1024 px on the long side), not the original. */
export type FaceQualityMetrics = {
  /** Faces that compete with the main one, the main one included (see `countCompetingFaces`). */
  faceCount: number;
  imageWidth: number;
  imageHeight: number;
  /** Main face box in the analysed image's pixels. */
  box: FaceBox;
  sharpness: number;
  yawDeg: number;
  rollDeg: number;
  /** Mean grey level of the face crop, 0..255. */
  brightness: number;
};

export type FaceQuality = {
  ok: boolean;
  /** Failed checks, most important first. */
  issues: QualityIssue[];
  /** The first issue's message, or 'OK'. */
  message: string;
  metrics: FaceQualityMetrics;
};

function outsideShare(box: FaceBox, width: number, height: number): number {
  const x0 = Math.max(0, box.x);
  const y0 = Math.max(0, box.y);
  const x1 = Math.min(width, box.x + box.width);
  const y1 = Math.min(height, box.y + box.height);
  const inside = Math.max(0, x1 - x0) * Math.max(0, y1 - y0);
  const area = box.width * box.height;
  return area > 0 ? 1 - inside / area : 1;
}

export function assessFaceQuality(
  metrics: FaceQualityMetrics,
  thresholds: QualityThresholds = DEFAULT_QUALITY_THRESHOLDS,
): FaceQuality {
  const t = thresholds;
  const issues: QualityIssue[] = [];
  if (metrics.faceCount === 0) issues.push('no_face');
  else {
    if (metrics.faceCount > 1) issues.push('multiple_faces');
    const side = Math.min(metrics.box.width, metrics.box.height);
    const shorter = Math.min(metrics.imageWidth, metrics.imageHeight);
    if (side < t.minFacePx || metrics.box.height < t.minFaceFraction * shorter) {
      issues.push('face_too_small');
    }
    if (outsideShare(metrics.box, metrics.imageWidth, metrics.imageHeight) > t.maxOutside) {
      issues.push('face_cut_off');
    }
    if (Math.abs(metrics.yawDeg) > t.maxYawDeg) issues.push('not_frontal');
    if (Math.abs(metrics.rollDeg) > t.maxRollDeg) issues.push('head_tilted');
    if (metrics.brightness < t.minBrightness) issues.push('too_dark');
    if (metrics.brightness > t.maxBrightness) issues.push('too_bright');
    // Dark faces measure as blurry too; report the cause, not the symptom.
    if (metrics.sharpness < t.minSharpness && !issues.includes('too_dark')) issues.push('blurry');
  }
  const first = issues[0];
  return {
    ok: issues.length === 0,
    issues,
    message: first ? QUALITY_MESSAGES[first] : 'OK',
    metrics,
  };
}

/** A face counts as "another face" next to the main one from this share of its side up (a quarter of its area). */
export const COMPETING_FACE_SHARE = 0.5;

/** A face box's side: the square root of its area (boxes are not always square). */
export const faceSide = (box: FaceBox) => Math.sqrt(box.width * box.height);

/**
 * The smallest side (faceSide) of a face that competes with `main`. The one definition used by
 * countCompetingFaces and by the tile search's screen for competing faces (face-engine.ts), so the tiles
 * searched for a second face and the count of faces agree (issue 20 part x).
 */
export function competingFaceSide(main: FaceBox, minRelativeSize = COMPETING_FACE_SHARE): number {
  return minRelativeSize * faceSide(main);
}

/**
 * Faces that count as "another face" next to the main one: at least `minRelativeSize` of its side
 * (default 0.5, i.e. a quarter of its area; competingFaceSide). Much smaller faces (a passer-by far
 * behind, the small "ghost" portrait printed on ID cards) are ignored so they do not block a capture. The
 * main face is the largest box unless given; the count includes it.
 */
export function countCompetingFaces(
  boxes: readonly FaceBox[],
  minRelativeSize = COMPETING_FACE_SHARE,
  main?: FaceBox,
): number {
  if (boxes.length === 0) return 0;
  const reference = main ?? boxes.reduce((a, b) => (faceSide(b) > faceSide(a) ? b : a));
  const min = competingFaceSide(reference, minRelativeSize);
  return boxes.filter((b) => faceSide(b) >= min).length;
}

/**
 * Sharpness of a grey image: variance of the 4-neighbour Laplacian divided by the variance of the
 * intensities. Dividing by the contrast makes it independent of exposure; measuring it on a fixed-size
 * face crop makes it independent of the photo's resolution.
 */
export function sharpness(grey: ArrayLike<number>, width: number, height: number): number {
  if (width < 3 || height < 3) return 0;
  let sum = 0;
  let sumSq = 0;
  for (let i = 0; i < width * height; i++) {
    const v = grey[i]!;
    sum += v;
    sumSq += v * v;
  }
  const n = width * height;
  const intensityVar = sumSq / n - (sum / n) ** 2;
  if (intensityVar <= 1e-9) return 0;
  return laplacianVariance(grey, width, height) / intensityVar;
}

/** Variance of the 4-neighbour Laplacian over the interior pixels. */
export function laplacianVariance(grey: ArrayLike<number>, width: number, height: number): number {
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const lap = grey[i - 1]! + grey[i + 1]! + grey[i - width]! + grey[i + width]! - 4 * grey[i]!;
      sum += lap;
      sumSq += lap * lap;
      n++;
    }
  }
  if (n === 0) return 0;
  return sumSq / n - (sum / n) ** 2;
}

export function meanOf(grey: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < grey.length; i++) sum += grey[i]!;
  return grey.length ? sum / grey.length : 0;
}
