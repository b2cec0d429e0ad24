import { describe, expect, it } from 'vitest';

import { countCompetingFaces } from './quality';
import { skinMap } from './skin-screen';
import { type Rect, DEFAULT_TILING, tileGrid, tileLevels } from './tiling';
import { searchTiles } from './tile-search';

type Rgb = [number, number, number];

/** The photo the tests search: 4000 x 3000 full-resolution px, an 8x smaller map (500 x 375). */
const PHOTO = { width: 4000, height: 3000 };
const SCALE = 8;
const sky: Rgb = [90, 130, 200];
const skinLight: Rgb = [224, 172, 140];
const skinDark: Rgb = [120, 75, 50];
const skinFlat: Rgb = [190, 130, 95];
const greyLight: Rgb = [220, 220, 220];
const greyDark: Rgb = [60, 60, 60];

type Patch = { rect: Rect; colour: (x: number, y: number) => Rgb };
const checker =
  (a: Rgb, b: Rgb) =>
  (x: number, y: number): Rgb =>
    (x + y) % 2 === 0 ? a : b;
const skinFace = (rect: Rect): Patch => ({ rect, colour: checker(skinLight, skinDark) });
const greyFace = (rect: Rect): Patch => ({ rect, colour: checker(greyLight, greyDark) });
const flatSkin = (rect: Rect): Patch => ({ rect, colour: () => skinFlat });

/** The skin map of a sky-coloured photo with `patches` (full-resolution rects) painted over it. */
function photo(patches: Patch[]) {
  const w = PHOTO.width / SCALE;
  const h = PHOTO.height / SCALE;
  const rgb = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const patch = patches.find(
        ({ rect: r }) =>
          x * SCALE >= r.left &&
          x * SCALE < r.left + r.width &&
          y * SCALE >= r.top &&
          y * SCALE < r.top + r.height,
      );
      rgb.set(patch ? patch.colour(x, y) : sky, (y * w + x) * 3);
    }
  return skinMap(rgb, w, h, SCALE);
}

const square = (left: number, top: number, side: number): Rect => ({
  left,
  top,
  width: side,
  height: side,
});

/**
 * A fake detector: a face is found on a tile that holds it whole, when the tile is at most 1.25 times
 * wider than the face's box (larger faces fill too much of the detector's input) and `isVisibleOn` the
 * tile (default: always; a blurred face is seen only on finer tiles). Boxes in full-resolution px (k = 1).
 */
function fakeDetector(
  faces: Array<{ box: Rect; isVisibleOn?: (tile: Rect) => boolean }>,
  searched: Rect[] = [],
) {
  return async (tile: Rect) => {
    searched.push(tile);
    return faces
      .filter(({ box, isVisibleOn = () => true }) => {
        const isWhole =
          box.left >= tile.left &&
          box.top >= tile.top &&
          box.left + box.width <= tile.left + tile.width &&
          box.top + box.height <= tile.top + tile.height;
        return isWhole && Math.max(box.width, box.height) <= 0.8 * tile.width && isVisibleOn(tile);
      })
      .map(({ box }) => ({
        box: { x: box.left, y: box.top, width: box.width, height: box.height },
        score: 0.9,
      }));
  };
}

const search = (input: {
  levels: Rect[][];
  skin: ReturnType<typeof photo>;
  budget: number;
  detect: ReturnType<typeof fakeDetector>;
}) =>
  searchTiles({
    levels: input.levels,
    skin: input.skin,
    budget: input.budget,
    k: 1,
    minScore: 0.5,
    sameFaceIou: 0.3,
    search: input.detect,
  });

const competing = (
  candidates: Array<{ box: { x: number; y: number; width: number; height: number } }>,
) => countCompetingFaces(candidates.map((c) => c.box));

describe('searchTiles', () => {
  it('rechecks a coarser level when a finer one finds a face: a competing face larger than the fine tiles is found', async () => {
    // A (300 px, blurred: the detector sees it only on the 500 px tiles) ranks first on both levels; B
    // (520 px) is larger than a 500 px tile, so only a 1000 px tile shows it, and that tile fell over the
    // budget of 1 on the coarser level before A was found on the finer one.
    const a = square(500, 500, 300);
    const b = square(3200, 2200, 520);
    const skin = photo([skinFace(a), flatSkin(b)]);
    const levels = [1000, 500].map((side) => tileGrid(PHOTO.width, PHOTO.height, side, 0.25));
    const detect = fakeDetector([{ box: a, isVisibleOn: (t) => t.width <= 600 }, { box: b }]);

    const { candidates } = await search({ levels, skin, budget: 1, detect });

    expect(candidates.map((c) => c.box.width).sort()).toEqual([300, 520]);
    expect(competing(candidates)).toBe(2);
  });

  it('finds a competing greyscale face that the skin screen leaves out (the colour-blind admission)', async () => {
    const a = square(400, 400, 60);
    const b = square(2400, 1800, 60);
    const skin = photo([skinFace(a), greyFace(b)]);
    const levels = [tileGrid(PHOTO.width, PHOTO.height, 500, 0.25)];
    const searched: Rect[] = [];
    const detect = fakeDetector([{ box: a }, { box: b }], searched);

    const { candidates } = await search({ levels, skin, budget: 1, detect });

    expect(competing(candidates)).toBe(2);
    // Flat sky tiles can hold no face of either kind and are still left out.
    expect(searched.length).toBeLessThan(levels[0]!.length);
  });

  it('screens competing tiles with the same size rule as countCompetingFaces (sqrt of the area)', async () => {
    // A's box is 300 x 100 (sqrt of area 173): a 100 px face competes (>= 87 px). Its flat skin patch
    // (6 x 6 map px) is skin enough for a 100 px face but not for one of 0.5 x max(w, h) = 150 px.
    const a: Rect = { left: 400, top: 400, width: 300, height: 100 };
    const b = square(2400, 1800, 100);
    const skin = photo([skinFace(a), flatSkin({ left: 2400, top: 1800, width: 48, height: 48 })]);
    const levels = [tileGrid(PHOTO.width, PHOTO.height, 500, 0.25)];
    const detect = fakeDetector([{ box: a }, { box: b }]);

    const { candidates } = await search({ levels, skin, budget: 1, detect });

    expect(competing(candidates)).toBe(2);
  });

  it('searches at most the budget on every level of a photo without a face', async () => {
    const skin = photo([
      flatSkin(square(200, 200, 800)),
      greyFace(square(2000, 1000, 600)),
      skinFace({ left: 3000, top: 2000, width: 900, height: 900 }),
    ]);
    const levels = tileLevels(PHOTO.width, PHOTO.height, DEFAULT_TILING);
    expect(levels.map((l) => l.length)).toEqual([6, 20, 88]);

    const { candidates, tiles } = await search({
      levels,
      skin,
      budget: 12,
      detect: fakeDetector([]),
    });

    expect(candidates).toEqual([]);
    expect(tiles.perLevel).toHaveLength(3);
    for (const searched of tiles.perLevel) expect(searched).toBeLessThanOrEqual(12);
    expect(tiles.perLevel[2]).toBe(12);
    expect(tiles.perLevel.reduce((s, n) => s + n, 0)).toBe(tiles.searched);
  });

  it('clamps a budget below 1 to one tile per level and rejects a budget that is not an integer', async () => {
    const a = square(400, 400, 60);
    const skin = photo([skinFace(a)]);
    const levels = [tileGrid(PHOTO.width, PHOTO.height, 500, 0.25)];
    const detect = fakeDetector([{ box: a }]);

    const { candidates, tiles } = await search({ levels, skin, budget: 0, detect });

    expect(candidates).toHaveLength(1);
    expect(tiles.budget).toBe(1);
    await expect(search({ levels, skin, budget: 1.5, detect })).rejects.toThrow(RangeError);
    await expect(search({ levels, skin, budget: Number.NaN, detect })).rejects.toThrow(RangeError);
  });
});
