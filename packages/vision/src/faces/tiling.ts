/**
 * Tiles for finding small faces in large photos (pure geometry; the engine runs the detector on them).
 *
 * The first detection passes see the photo at most 1024 px wide and the detector shrinks that again to
 * its 416 px input, so a face 2 % of a 4000 px photo's width arrives at ~17 px: below what
 * TinyFaceDetector finds (~44 px at its 416 px input, measured on dev faces pasted into 416 px images).
 * Tiling the full-resolution photo shows the detector each part at a larger scale. Levels go from
 * coarse to fine (tile side halves each level) and the engine stops at the first level that finds a
 * face, so a face just too small for the first passes costs a few tiles, not all of them.
 */

export type Rect = { left: number; top: number; width: number; height: number };
export type Box = { x: number; y: number; width: number; height: number };

export type TilingOptions = {
  /** Smallest tile side, full-resolution px (tiles smaller than this would mostly upscale). */
  minTile: number;
  /** Neighbouring tiles share this share of their side, so a face on a seam is whole in one tile. */
  overlap: number;
  /** Upper bound on the tiles of all levels together (the cost of a photo with no face at all). */
  maxTiles: number;
};

export const DEFAULT_TILING: TilingOptions = { minTile: 384, overlap: 0.25, maxTiles: 120 };

/** Start positions of tiles of side `tile` covering [0, length), evenly spread, first at 0, last at the end. */
function starts(length: number, tile: number, overlap: number): number[] {
  if (tile >= length) return [0];
  const n = Math.ceil((length - tile) / (tile * (1 - overlap))) + 1;
  const step = (length - tile) / (n - 1);
  return Array.from({ length: n }, (_, i) => Math.round(i * step));
}

/** The tiles of one level: squares of side `tile` (clipped to the photo) covering it with overlap. */
export function tileGrid(width: number, height: number, tile: number, overlap: number): Rect[] {
  const tiles: Rect[] = [];
  const w = Math.min(tile, width);
  const h = Math.min(tile, height);
  for (const top of starts(height, h, overlap)) {
    for (const left of starts(width, w, overlap)) tiles.push({ left, top, width: w, height: h });
  }
  return tiles;
}

/**
 * Levels of tiles, coarse to fine: tile side = long side / 2, / 4, / 8 ... while the side stays at least
 * `minTile` and the running total of tiles stays within `maxTiles`.
 */
export function tileLevels(
  width: number,
  height: number,
  options: TilingOptions = DEFAULT_TILING,
): Rect[][] {
  const levels: Rect[][] = [];
  let total = 0;
  for (let side = Math.max(width, height) / 2; side >= options.minTile; side /= 2) {
    const level = tileGrid(width, height, Math.round(side), options.overlap);
    if (total + level.length > options.maxTiles) break;
    total += level.length;
    levels.push(level);
  }
  return levels;
}

/**
 * The tiles searched per level before a face is found, clamped to [1, `tiles`] (the most tiles a level
 * has): 0 or less would search nothing and never find a face; more than a level has changes nothing.
 * A budget that is not a whole number of tiles is a caller's mistake: RangeError.
 */
export function clampTileBudget(budget: number, tiles: number): number {
  if (!Number.isInteger(budget)) {
    throw new RangeError(`The tile budget must be a whole number of tiles, got ${budget}.`);
  }
  return Math.max(1, Math.min(budget, tiles));
}

function iou(a: Box, b: Box): number {
  const inter = intersection(a, b);
  const union = a.width * a.height + b.width * b.height - inter;
  return union > 0 ? inter / union : 0;
}

function intersection(a: Box, b: Box): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return Math.max(0, w) * Math.max(0, h);
}

/**
 * Non-maximum suppression over detections from overlapping tiles, in full-image coordinates: the
 * highest score wins; a box overlapping a kept one by IoU > `maxIou`, or lying mostly (> `maxInside` of
 * its area) inside it or around it (a face cut by a tile edge, or found whole and in part), is the
 * same face.
 */
export function mergeDetections<T extends { box: Box; score: number }>(
  detections: readonly T[],
  maxIou = 0.3,
  maxInside = 0.6,
): T[] {
  const kept: T[] = [];
  for (const d of [...detections].sort((a, b) => b.score - a.score)) {
    const same = kept.some((k) => {
      if (iou(k.box, d.box) > maxIou) return true;
      const smaller = Math.min(k.box.width * k.box.height, d.box.width * d.box.height);
      return smaller > 0 && intersection(k.box, d.box) / smaller > maxInside;
    });
    if (!same) kept.push(d);
  }
  return kept;
}
