/**
 * A cheap skin-likelihood pre-screen for the tiles of a large photo (pure functions; the engine builds
 * the map from an area-averaged downscale and runs the detector only on tiles that pass).
 *
 * Why: the tiles (tiling.ts, ADR 0012) cost one TinyFaceDetector run each; a 12 MP photo without a face
 * paid 6 + 20 + 88 of them. A face, at any size the tiles can find, is a patch of skin-coloured pixels
 * at least a few map pixels across; a tile holding no such patch cannot hold a face. Skin colour is the
 * classic chrominance box in YCbCr (Chai & Ngan, 1999: Cb 77-127, Cr 133-173), which holds across skin
 * tones because it ignores luminance. The screen is skipped for a photo without colour (an infrared or
 * greyscale camera, where chrominance says nothing). Then a budget bounds the cost: on each level only
 * the most promising tiles run (face-like skin in a colour photo, with a few slots kept for face-like
 * structure whatever its colour; the highest face-scale contrast in a grey one), so a photo without a face
 * costs a bounded number of detector runs whatever it shows.
 */

export type Rect = { left: number; top: number; width: number; height: number };

/** A map of skin-coloured pixels and of luminance as summed-area tables over a downscaled photo. */
export type SkinMap = {
  width: number;
  height: number;
  /** Full-resolution pixels per map pixel. */
  scale: number;
  /** (width + 1) * (height + 1) running sums of skin pixels. */
  integral: Uint32Array;
  /** The same for luminance and squared luminance (local contrast). */
  luma: Float64Array;
  luma2: Float64Array;
  /** The same for the luminance of skin pixels only (shading and features inside a skin patch). */
  skinLuma: Float64Array;
  skinLuma2: Float64Array;
  /** False for a photo without colour: the screen does not apply. */
  colour: boolean;
};

/** Chai & Ngan's skin box in YCbCr (ITU-R BT.601, full range). */
export function isSkinColour(r: number, g: number, b: number): boolean {
  const cb = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b;
  const cr = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b;
  return cb >= 77 && cb <= 127 && cr >= 133 && cr <= 173;
}

/** A pixel whose chrominance is this far (|Cb - 128| + |Cr - 128|) from grey has colour. */
const COLOURED_PIXEL = 4;
/** A photo with fewer coloured pixels than this share is treated as greyscale (no screen). */
const MIN_COLOURED_SHARE = 0.05;

/**
 * The skin map of an RGB (3 channels) image already downscaled by `scale` (full-resolution pixels per
 * pixel of `rgb`). The downscale should average areas (sharp's default reduction does), so sensor noise
 * does not scatter single skin-coloured pixels over a background.
 */
export function skinMap(rgb: Uint8Array, width: number, height: number, scale: number): SkinMap {
  const w1 = width + 1;
  const integral = new Uint32Array(w1 * (height + 1));
  const luma = new Float64Array(w1 * (height + 1));
  const luma2 = new Float64Array(w1 * (height + 1));
  const skinLuma = new Float64Array(w1 * (height + 1));
  const skinLuma2 = new Float64Array(w1 * (height + 1));
  let coloured = 0;
  for (let y = 0; y < height; y++) {
    let row = 0;
    let rowY = 0;
    let rowY2 = 0;
    let rowSkinY = 0;
    let rowSkinY2 = 0;
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const r = rgb[i]!;
      const g = rgb[i + 1]!;
      const b = rgb[i + 2]!;
      const lum = 0.299 * r + 0.587 * g + 0.114 * b;
      const cb = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b;
      const cr = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b;
      if (Math.abs(cb - 128) + Math.abs(cr - 128) >= COLOURED_PIXEL) coloured++;
      if (cb >= 77 && cb <= 127 && cr >= 133 && cr <= 173) {
        row++;
        rowSkinY += lum;
        rowSkinY2 += lum * lum;
      }
      rowY += lum;
      rowY2 += lum * lum;
      const at = (y + 1) * w1 + x + 1;
      const above = y * w1 + x + 1;
      integral[at] = integral[above]! + row;
      luma[at] = luma[above]! + rowY;
      luma2[at] = luma2[above]! + rowY2;
      skinLuma[at] = skinLuma[above]! + rowSkinY;
      skinLuma2[at] = skinLuma2[above]! + rowSkinY2;
    }
  }
  return {
    width,
    height,
    scale,
    integral,
    luma,
    luma2,
    skinLuma,
    skinLuma2,
    colour: coloured >= MIN_COLOURED_SHARE * width * height,
  };
}

type MapRect = { x0: number; y0: number; x1: number; y1: number };

function toMap(map: SkinMap, rect: Rect): MapRect {
  const clamp = (v: number, max: number) => Math.max(0, Math.min(max, v));
  return {
    x0: clamp(Math.floor(rect.left / map.scale), map.width),
    y0: clamp(Math.floor(rect.top / map.scale), map.height),
    x1: clamp(Math.ceil((rect.left + rect.width) / map.scale), map.width),
    y1: clamp(Math.ceil((rect.top + rect.height) / map.scale), map.height),
  };
}

function sum(table: ArrayLike<number>, width: number, { x0, y0, x1, y1 }: MapRect): number {
  const w = width + 1;
  return table[y1 * w + x1]! - table[y0 * w + x1]! - table[y1 * w + x0]! + table[y0 * w + x0]!;
}

/** Skin pixels of the map inside a rectangle given in full-resolution pixels. */
export function skinPixelsIn(map: SkinMap, rect: Rect): number {
  return sum(map.integral, map.width, toMap(map, rect));
}

/**
 * The largest luminance standard deviation over windows the size of `face` (full-resolution px) inside
 * `rect`, stepped by half a window: eyes, brows and mouth against skin give a face's window contrast,
 * where a flat wall, sky or road gives only noise (averaged away by the downscale).
 */
export function faceScaleContrast(map: SkinMap, rect: Rect, face: number): number {
  const r = toMap(map, rect);
  const side = Math.max(2, Math.round(face / map.scale));
  const step = Math.max(1, Math.floor(side / 2));
  let best = 0;
  for (let y = r.y0; y + side <= r.y1 || y === r.y0; y += step) {
    for (let x = r.x0; x + side <= r.x1 || x === r.x0; x += step) {
      const win = { x0: x, y0: y, x1: Math.min(r.x1, x + side), y1: Math.min(r.y1, y + side) };
      const n = (win.x1 - win.x0) * (win.y1 - win.y0);
      if (n <= 0) continue;
      const mean = sum(map.luma, map.width, win) / n;
      const variance = sum(map.luma2, map.width, win) / n - mean * mean;
      best = Math.max(best, Math.sqrt(Math.max(0, variance)));
    }
  }
  return best;
}

/**
 * Face-like structure without colour: the largest, over windows the size of `face` (full-resolution px)
 * inside `rect` stepped by a third of a window, of the SMALLEST luminance standard deviation of the
 * window's four quadrants. A face has features in every quadrant (an eye and brow in each upper one, the
 * nose, mouth corners and jaw line below); a straight edge (a wall, a sign, a road marking) crosses at
 * most two or three quadrants of any window and a corner at most three, leaving one flat, and a gradient
 * is flat in all of them. Ranks tiles by face structure where colour cannot (a greyscale print held up,
 * a face under sodium or infrared light in a colour photo), where plain window contrast (faceScaleContrast)
 * ranks every tile crossed by an edge first (issue 20 part w).
 */
export function faceScaleStructure(map: SkinMap, rect: Rect, face: number): number {
  const r = toMap(map, rect);
  const side = Math.max(2, Math.round(face / map.scale));
  const half = Math.max(1, Math.floor(side / 2));
  const step = Math.max(1, Math.floor(side / 3));
  const deviation = (x0: number, y0: number, x1: number, y1: number) => {
    const win = { x0, y0, x1: Math.min(r.x1, x1), y1: Math.min(r.y1, y1) };
    const n = (win.x1 - win.x0) * (win.y1 - win.y0);
    if (n <= 0) return 0;
    const mean = sum(map.luma, map.width, win) / n;
    return Math.sqrt(Math.max(0, sum(map.luma2, map.width, win) / n - mean * mean));
  };
  let best = 0;
  for (let y = r.y0; y + side <= r.y1 || y === r.y0; y += step) {
    for (let x = r.x0; x + side <= r.x1 || x === r.x0; x += step) {
      const quadrants = Math.min(
        deviation(x, y, x + half, y + half),
        deviation(x + half, y, x + side, y + half),
        deviation(x, y + half, x + half, y + side),
        deviation(x + half, y + half, x + side, y + side),
      );
      best = Math.max(best, quadrants);
    }
  }
  return best;
}

/**
 * How much a tile looks like it holds a face, from the skin map: the largest (skin share) x (luminance
 * standard deviation of the skin pixels) over windows the size of `face` (full-resolution px) inside
 * `rect`, stepped by a third of a window. A face is a face-sized patch of skin with structure inside it
 * (shading, eyes, brows, nostrils, mouth), where a skin-coloured wall, sand, a gradient or a large object
 * is skin everywhere but flat once sensor noise is averaged away, and the edge of such an area against
 * something else mixes non-skin pixels in, which the skin-only deviation ignores. Pixel count ranked those
 * areas first (issue 20 part v: a 75 px face's tile came 13th of 20 on a scene with a skin-coloured
 * gradient and disc).
 */
export function faceLikeSkin(map: SkinMap, rect: Rect, face: number): number {
  const r = toMap(map, rect);
  const side = Math.max(2, Math.round(face / map.scale));
  const step = Math.max(1, Math.floor(side / 3));
  let best = 0;
  for (let y = r.y0; y + side <= r.y1 || y === r.y0; y += step) {
    for (let x = r.x0; x + side <= r.x1 || x === r.x0; x += step) {
      const win = { x0: x, y0: y, x1: Math.min(r.x1, x + side), y1: Math.min(r.y1, y + side) };
      const n = (win.x1 - win.x0) * (win.y1 - win.y0);
      const skin = n > 0 ? sum(map.integral, map.width, win) : 0;
      if (skin < 2) continue;
      const mean = sum(map.skinLuma, map.width, win) / skin;
      const variance = sum(map.skinLuma2, map.width, win) / skin - mean * mean;
      best = Math.max(best, (skin / n) * Math.sqrt(Math.max(0, variance)));
    }
  }
  return best;
}

/**
 * The smallest face the detector finds on a tile, as a share of the tile's side: ~40-48 px at its 416 px
 * input (ADR 0012), so a tenth of the side. A little under it, so a face at the limit is not screened out.
 */
export const SMALLEST_FACE_OF_TILE = 0.08;
/** Share of a face's box that is skin at least (eyes, brows, hair and background fill the rest). */
export const MIN_SKIN_SHARE = 0.2;

/** The smallest face the detector could find on a tile, in full-resolution px. */
export const smallestFaceOn = (tile: Rect) =>
  SMALLEST_FACE_OF_TILE * Math.max(tile.width, tile.height);

/**
 * Whether a tile may hold a face `face` px wide (default: the smallest the detector could find on this
 * tile): the map has at least MIN_SKIN_SHARE of that face in skin pixels inside it (and at least one).
 * Always true for a photo without colour.
 */
export function mayHoldFace(map: SkinMap, tile: Rect, facePx = smallestFaceOn(tile)): boolean {
  if (!map.colour) return true;
  const face = facePx / map.scale;
  return skinPixelsIn(map, tile) >= Math.max(1, MIN_SKIN_SHARE * face * face);
}

/**
 * Of each level's budget in a colour photo, this many slots (a quarter of the budget at most) go to the
 * tiles with the most face-like structure regardless of colour (faceScaleStructure), skin screen or not:
 * a face that is not skin-coloured (a greyscale print or ID photo held up, a face under sodium or
 * infrared light) holds too little face-like skin to rank among the first tiles, or none at all (issue
 * 20 part w). The rest of the budget goes to face-like skin as before; the total stays the budget.
 */
export const COLOUR_BLIND_SLOTS = 3;

/**
 * The tiles of one level worth a detector run, at most `budget` of them. In a photo without colour: every
 * tile, by face-scale contrast (faceScaleContrast). In a colour photo: the tiles that may hold a face
 * (mayHoldFace) by face-like skin (faceLikeSkin), except COLOUR_BLIND_SLOTS of the budget kept for the
 * tiles of most face-like structure whatever their colour (faceScaleStructure; slots the skin tiles do not
 * fill go to them too only up to that share). Returns the chosen tiles (the skin-ranked first), the
 * skin-screened tiles that fell over the budget (`rest`, most promising first), how many tiles the screen
 * left out and were not chosen, and how many fell over the budget (screenedOut + overBudget + tiles =
 * the level).
 */
export function promisingTiles<T extends Rect>(
  map: SkinMap,
  level: readonly T[],
  budget: number,
): { tiles: T[]; rest: T[]; screenedOut: number; overBudget: number } {
  const rank = (tiles: readonly T[], promise: (t: T) => number) =>
    tiles
      .map((tile, i) => ({ tile, i, p: promise(tile) }))
      .sort((a, b) => b.p - a.p || a.i - b.i)
      .map((r) => r.tile);
  if (!map.colour) {
    const ranked = rank(level, (t) => faceScaleContrast(map, t, smallestFaceOn(t)));
    return {
      tiles: ranked.slice(0, budget),
      rest: ranked.slice(budget),
      screenedOut: 0,
      overBudget: Math.max(0, ranked.length - budget),
    };
  }
  const kept = level.filter((t) => mayHoldFace(map, t));
  const skinRanked = rank(kept, (t) => faceLikeSkin(map, t, smallestFaceOn(t)));
  const reserve = Math.min(COLOUR_BLIND_SLOTS, Math.floor(budget / 4));
  const chosen = skinRanked.slice(0, budget - reserve);
  if (reserve > 0) {
    const taken = new Set<T>(chosen);
    const blind = rank(
      level.filter((t) => !taken.has(t)),
      (t) => faceScaleStructure(map, t, smallestFaceOn(t)),
    );
    chosen.push(...blind.slice(0, reserve));
  }
  const taken = new Set<T>(chosen);
  const rest = skinRanked.filter((t) => !taken.has(t));
  // Slots left when the blind picks were skin tiles already ranked below the skin share.
  chosen.push(...rest.splice(0, Math.max(0, budget - chosen.length)));
  return {
    tiles: chosen,
    rest,
    screenedOut: level.length - chosen.length - rest.length,
    overBudget: rest.length,
  };
}
