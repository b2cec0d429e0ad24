/**
 * Face landmark geometry shared by the quality check (Node) and the liveness logic (browser).
 *
 * Pure module: no Node-only imports. Works with the 68-point iBUG layout (face-api, dlib) and the
 * 468/478-point MediaPipe face mesh (Human, MediaPipe in the browser).
 *
 * Conventions: image coordinates (x right, y down). "Left"/"right" are the SUBJECT's, as the landmark
 * models label them on an unmirrored camera frame (the subject's left eye is on the image's right).
 */

export type Point = { x: number; y: number };
/** A landmark as the engines give it: `{x, y}` (face-api) or `[x, y]` / `[x, y, z]` (mesh). */
export type LandmarkPoint = Point | readonly [number, number] | readonly [number, number, number];

export type LandmarkLayout = {
  name: 'ibug68' | 'mesh468';
  /** Six eye contour points p1..p6 for the eye aspect ratio (p1/p4 = corners). */
  rightEye: readonly [number, number, number, number, number, number];
  leftEye: readonly [number, number, number, number, number, number];
  noseTip: number;
  /** Face contour at eye/cheek height on the subject's right (image left) and left (image right). */
  rightContour: number;
  leftContour: number;
};

export const IBUG68: LandmarkLayout = {
  name: 'ibug68',
  rightEye: [36, 37, 38, 39, 40, 41],
  leftEye: [42, 43, 44, 45, 46, 47],
  noseTip: 30,
  rightContour: 0,
  leftContour: 16,
};

export const MESH468: LandmarkLayout = {
  name: 'mesh468',
  rightEye: [33, 160, 158, 133, 153, 144],
  leftEye: [362, 385, 387, 263, 373, 380],
  noseTip: 1,
  rightContour: 234,
  leftContour: 454,
};

export function layoutFor(count: number): LandmarkLayout {
  if (count === 68) return IBUG68;
  if (count === 468 || count === 478) return MESH468;
  throw new RangeError(`Unsupported landmark count ${count}: expected 68, 468 or 478 points.`);
}

export function toPoint(p: LandmarkPoint): Point {
  if (Array.isArray(p)) return { x: p[0] as number, y: p[1] as number };
  return p as Point;
}

function at(points: readonly LandmarkPoint[], index: number): Point {
  const p = points[index];
  if (p === undefined) throw new RangeError(`Landmark ${index} missing`);
  return toPoint(p);
}

export function distance(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

function mean(points: Point[]): Point {
  let x = 0;
  let y = 0;
  for (const p of points) {
    x += p.x;
    y += p.y;
  }
  return { x: x / points.length, y: y / points.length };
}

/** Eye aspect ratio (Soukupová & Čech 2016): ~0.25-0.35 open, falls towards 0 when the eye closes. */
export function eyeAspectRatioOf(
  points: readonly LandmarkPoint[],
  eye: LandmarkLayout['rightEye'],
): number {
  const [p1, p2, p3, p4, p5, p6] = eye.map((i) => at(points, i)) as [
    Point,
    Point,
    Point,
    Point,
    Point,
    Point,
  ];
  const width = distance(p1, p4);
  if (width === 0) return 0;
  return (distance(p2, p6) + distance(p3, p5)) / (2 * width);
}

export function eyeAspectRatio(points: readonly LandmarkPoint[]): {
  right: number;
  left: number;
  mean: number;
} {
  const layout = layoutFor(points.length);
  const right = eyeAspectRatioOf(points, layout.rightEye);
  const left = eyeAspectRatioOf(points, layout.leftEye);
  return { right, left, mean: (right + left) / 2 };
}

export function eyeCentres(points: readonly LandmarkPoint[]): { right: Point; left: Point } {
  const layout = layoutFor(points.length);
  return {
    right: mean(layout.rightEye.map((i) => at(points, i))),
    left: mean(layout.leftEye.map((i) => at(points, i))),
  };
}

/** Distance between the eye centres, the natural unit for landmark motion. */
export function interocularDistance(points: readonly LandmarkPoint[]): number {
  const { right, left } = eyeCentres(points);
  return distance(right, left);
}

const DEG = 180 / Math.PI;

/**
 * Approximate head yaw in degrees, positive when the subject turns to THEIR left (nose towards the
 * image's right on an unmirrored frame). The nose tip is projected onto the line between the two face
 * contour points; on a frontal face it sits half-way. Modelling the head as a cylinder, the offset from
 * the middle is sin(yaw). This ratio is unchanged by any planar (affine) motion of the face, so moving or
 * tilting a flat photo in front of the camera does not fake a head turn.
 */
export function estimateYawDeg(points: readonly LandmarkPoint[]): number {
  const layout = layoutFor(points.length);
  const a = at(points, layout.rightContour);
  const b = at(points, layout.leftContour);
  const n = at(points, layout.noseTip);
  const ux = b.x - a.x;
  const uy = b.y - a.y;
  const len2 = ux * ux + uy * uy;
  if (len2 === 0) return 0;
  const t = ((n.x - a.x) * ux + (n.y - a.y) * uy) / len2;
  const s = Math.max(-1, Math.min(1, 2 * t - 1));
  return Math.asin(s) * DEG;
}

/** Head roll in degrees: the angle of the line through the eye centres (positive = clockwise on the image). */
export function estimateRollDeg(points: readonly LandmarkPoint[]): number {
  const { right, left } = eyeCentres(points);
  return Math.atan2(left.y - right.y, left.x - right.x) * DEG;
}
