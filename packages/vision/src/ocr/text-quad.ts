/**
 * Rectification of tilted text lines before recognition (issue 20, plates at any angle).
 *
 * PaddleOCR's detector finds each text line as a rotated rectangle (the minimum-area rectangle of its
 * text region, four corners). Recognising the axis-aligned box around a tilted line shows the
 * recogniser slanted characters squeezed into a taller box, with neighbouring text above and below;
 * recognising the quad instead samples it level (the runtime's `cropRotated`, a perspective warp of
 * the four corners onto an upright rectangle). Pure geometry, unit-tested on generated quads.
 */

export type Point = { x: number; y: number };
/** Corners in reading order: top-left, top-right, bottom-right, bottom-left. */
export type Quad = [Point, Point, Point, Point];

/** Below this tilt the axis-aligned crop is the same text: left as it was (no resampling). */
export const MIN_RECTIFY_DEGREES = 2;
/** Beyond this the corner order is ambiguous (a 45° square has no top edge): not rectified. */
export const MAX_RECTIFY_DEGREES = 40;

const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/**
 * The four corners as top-left, top-right, bottom-right, bottom-left of the text read left to right:
 * the long sides are the text's top and bottom (a text line is wider than tall), the top-left corner
 * is the one that starts the upper long side. Null when the points are not a usable quad.
 */
export function orderTextQuad(points: readonly Point[]): Quad | null {
  if (points.length !== 4 || points.some((p) => !Number.isFinite(p.x) || !Number.isFinite(p.y)))
    return null;
  const c = {
    x: points.reduce((s, p) => s + p.x, 0) / 4,
    y: points.reduce((s, p) => s + p.y, 0) / 4,
  };
  // Corners in angular order around the centre (clockwise in image coordinates, y down).
  const ring = [...points].sort(
    (a, b) => Math.atan2(a.y - c.y, a.x - c.x) - Math.atan2(b.y - c.y, b.x - c.x),
  );
  // The long side pair: edges 0-1 and 2-3, or 1-2 and 3-0.
  const side01 = dist(ring[0]!, ring[1]!) + dist(ring[2]!, ring[3]!);
  const side12 = dist(ring[1]!, ring[2]!) + dist(ring[3]!, ring[0]!);
  const start = side01 >= side12 ? 0 : 1;
  // Of the two long edges (start→start+1 and start+2→start+3), the top one has the smaller mean y.
  const edge = (i: number) => [ring[i % 4]!, ring[(i + 1) % 4]!] as const;
  const [a0, a1] = edge(start);
  const [b0, b1] = edge(start + 2);
  const topFirst = a0.y + a1.y <= b0.y + b1.y ? start : start + 2;
  const tl = ring[topFirst % 4]!;
  const tr = ring[(topFirst + 1) % 4]!;
  const br = ring[(topFirst + 2) % 4]!;
  const bl = ring[(topFirst + 3) % 4]!;
  if (dist(tl, tr) < 1 || dist(tl, bl) < 1) return null;
  return [tl, tr, br, bl];
}

/** Tilt of the text line in degrees, mean of its top and bottom edges (image y down: positive descends to the right). */
export function quadTiltDegrees(quad: Readonly<Quad>): number {
  const [tl, tr, br, bl] = quad;
  const top = Math.atan2(tr.y - tl.y, tr.x - tl.x);
  const bottom = Math.atan2(br.y - bl.y, br.x - bl.x);
  return (((top + bottom) / 2) * 180) / Math.PI;
}

/**
 * The corners to recognise a detected line through, or undefined to recognise its axis-aligned box as
 * before: only a line tilted by MIN..MAX_RECTIFY_DEGREES and wider than tall once levelled (the
 * runtime turns a quad taller than wide by 90°, which a plate never needs).
 */
export function rectifiableQuad(points: readonly Point[] | undefined): Quad | undefined {
  if (!points) return undefined;
  const quad = orderTextQuad(points);
  if (!quad) return undefined;
  const tilt = Math.abs(quadTiltDegrees(quad));
  if (tilt < MIN_RECTIFY_DEGREES || tilt > MAX_RECTIFY_DEGREES) return undefined;
  const [tl, tr, br, bl] = quad;
  const width = Math.max(dist(tl, tr), dist(bl, br));
  const height = Math.max(dist(tl, bl), dist(tr, br));
  if (width < height) return undefined;
  return quad;
}

/** A quad in the coordinates of a crop: `(p - origin) * factor`. */
export function quadInCrop(quad: Readonly<Quad>, origin: Point, factor: number): Quad {
  const at = (p: Point) => ({ x: (p.x - origin.x) * factor, y: (p.y - origin.y) * factor });
  return [at(quad[0]), at(quad[1]), at(quad[2]), at(quad[3])];
}

/** Height of the text in a box: the levelled quad's when it has one, else the box's. */
export function textHeight(box: { height: number; points?: readonly Point[] }): number {
  const q = box.points?.length === 4 ? box.points : undefined;
  if (!q) return box.height;
  return Math.max(dist(q[0]!, q[3]!), dist(q[1]!, q[2]!));
}
