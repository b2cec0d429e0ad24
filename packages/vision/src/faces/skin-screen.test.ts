import { describe, expect, it } from 'vitest';

import {
  COLOUR_BLIND_SLOTS,
  faceLikeSkin,
  faceScaleContrast,
  faceScaleStructure,
  isSkinColour,
  mayHoldFace,
  promisingTiles,
  skinMap,
  skinPixelsIn,
} from './skin-screen';
import { tileGrid } from './tiling';

type Rgb = [number, number, number];

/** A width x height RGB map filled with `fill`, with `patches` painted over it. */
function image(
  width: number,
  height: number,
  fill: (x: number, y: number) => Rgb,
  patches: Array<{
    x: number;
    y: number;
    w: number;
    h: number;
    colour: (x: number, y: number) => Rgb;
  }> = [],
): Uint8Array {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const patch = patches.find((p) => x >= p.x && x < p.x + p.w && y >= p.y && y < p.y + p.h);
      data.set(patch ? patch.colour(x, y) : fill(x, y), (y * width + x) * 3);
    }
  return data;
}

const sky: Rgb = [90, 130, 200];
const grass: Rgb = [60, 140, 50];
const skinTones: Rgb[] = [
  [224, 172, 140], // light
  [190, 130, 95], // medium
  [120, 75, 50], // dark
];

describe('isSkinColour', () => {
  it('accepts light, medium and dark skin tones and rejects sky, grass and grey', () => {
    for (const tone of skinTones) expect(isSkinColour(...tone)).toBe(true);
    expect(isSkinColour(...sky)).toBe(false);
    expect(isSkinColour(...grass)).toBe(false);
    expect(isSkinColour(128, 128, 128)).toBe(false);
  });
});

describe('skinMap', () => {
  it('counts skin pixels in a rectangle given in full-resolution pixels', () => {
    // A 100x80 map of a 800x640 photo (8 px per map px), a 10x10 skin patch at (40, 30).
    const rgb = image(100, 80, () => sky, [
      { x: 40, y: 30, w: 10, h: 10, colour: () => skinTones[1]! },
    ]);
    const map = skinMap(rgb, 100, 80, 8);

    expect(map.colour).toBe(true);
    expect(skinPixelsIn(map, { left: 0, top: 0, width: 800, height: 640 })).toBe(100);
    expect(skinPixelsIn(map, { left: 320, top: 240, width: 40, height: 80 })).toBe(50);
    expect(skinPixelsIn(map, { left: 0, top: 0, width: 300, height: 640 })).toBe(0);
  });

  it('treats a photo without colour (an infrared camera) as greyscale', () => {
    const rgb = image(64, 48, (x) => [x * 3, x * 3, x * 3]);

    expect(skinMap(rgb, 64, 48, 8).colour).toBe(false);
  });
});

describe('faceScaleContrast', () => {
  it('is high where dark features sit on skin and near zero on a flat area', () => {
    const eyes = (x: number, y: number): Rgb =>
      y % 6 < 2 && x % 6 < 3 ? [40, 40, 40] : [170, 170, 170];
    const rgb = image(96, 96, () => [120, 120, 120], [
      { x: 60, y: 60, w: 12, h: 12, colour: eyes },
    ]);
    const map = skinMap(rgb, 96, 96, 4);

    const face = faceScaleContrast(map, { left: 200, top: 200, width: 184, height: 184 }, 40);
    const flat = faceScaleContrast(map, { left: 0, top: 0, width: 200, height: 200 }, 40);
    expect(face).toBeGreaterThan(30);
    expect(flat).toBeLessThan(1);
  });
});

describe('promisingTiles', () => {
  const W = 4000;
  const H = 3000;
  const S = 8; // full-resolution px per map px
  const mapW = W / S;
  const mapH = H / S;

  it('searches only the tiles holding a skin patch as large as a face, in a colour photo', () => {
    // A 60 px face (1.5 % of the width) at (2500, 1200): 7.5 map px.
    const rgb = image(mapW, mapH, (x, y) => (y < mapH / 2 ? sky : grass), [
      { x: 2500 / S, y: 1200 / S, w: 8, h: 8, colour: () => skinTones[2]! },
    ]);
    const map = skinMap(rgb, mapW, mapH, S);
    const level = tileGrid(W, H, 500, 0.25);

    const chosen = promisingTiles(map, level, 12);

    // The skin tiles (those holding the patch) first, then the few slots kept for structure whatever
    // its colour (issue 20 part w): the total stays small and within the budget.
    const skinTiles = chosen.tiles.filter((t) => mayHoldFace(map, t));
    expect(skinTiles.length).toBeGreaterThan(0);
    expect(skinTiles.length).toBeLessThanOrEqual(4);
    expect(chosen.tiles.slice(0, skinTiles.length)).toEqual(skinTiles);
    expect(chosen.tiles.length).toBe(skinTiles.length + COLOUR_BLIND_SLOTS);
    expect(chosen.screenedOut).toBe(level.length - chosen.tiles.length);
    expect(
      chosen.tiles.some(
        (t) =>
          t.left <= 2504 && t.top <= 1200 && t.left + t.width >= 2568 && t.top + t.height >= 1264,
      ),
    ).toBe(true);
  });

  it('searches a grey photo within the budget, the highest-contrast tile first', () => {
    const eyes = (x: number, y: number): Rgb =>
      y % 4 < 2 && x % 4 < 2 ? [30, 30, 30] : [180, 180, 180];
    const rgb = image(mapW, mapH, () => [110, 110, 110], [
      { x: 300, y: 100, w: 8, h: 8, colour: eyes },
    ]);
    const map = skinMap(rgb, mapW, mapH, S);
    const level = tileGrid(W, H, 500, 0.25);

    const chosen = promisingTiles(map, level, 12);

    expect(map.colour).toBe(false);
    expect(chosen.tiles).toHaveLength(12);
    expect(chosen.overBudget).toBe(level.length - 12);
    // The first tile overlaps the patch (x 2400-2464, y 800-864).
    const first = chosen.tiles[0]!;
    expect(first.left < 2464 && first.left + first.width > 2400).toBe(true);
    expect(first.top < 864 && first.top + first.height > 800).toBe(true);
  });

  it('ranks a face-sized patch of shaded skin above larger flat skin-coloured areas and their edges', () => {
    // A sand-coloured wall (skin-coloured, flat) over the left half, a dark door cut into it (an edge of
    // skin against non-skin), and one 8x8 map px face (64 px) on grass at (3200, 2000): shaded skin
    // (light and medium tones) with two dark eyes.
    const sand: Rgb = [200, 160, 120];
    const face = (x: number, y: number): Rgb =>
      y === 252 && (x === 401 || x === 405) ? [40, 30, 25] : y % 2 ? skinTones[0]! : skinTones[1]!;
    const rgb = image(mapW, mapH, (x) => (x < mapW / 2 ? sand : grass), [
      { x: 100, y: 150, w: 40, h: 120, colour: () => [40, 50, 70] },
      { x: 400, y: 250, w: 8, h: 8, colour: face },
    ]);
    const map = skinMap(rgb, mapW, mapH, S);
    const level = tileGrid(W, H, 500, 0.25);
    const holdsFace = (t: { left: number; top: number; width: number; height: number }) =>
      t.left <= 3200 && t.top <= 2000 && t.left + t.width >= 3264 && t.top + t.height >= 2064;

    // Every wall tile has far more skin pixels than the face's tile...
    const faceTile = level.find(holdsFace)!;
    const wallTile = level.find((t) => t.left + t.width <= W / 2)!;
    expect(skinPixelsIn(map, wallTile)).toBeGreaterThan(20 * skinPixelsIn(map, faceTile));
    // ...but the face's skin has structure, the wall's none, and the door's edge mixes in non-skin.
    expect(faceLikeSkin(map, faceTile, 40)).toBeGreaterThan(3 * faceLikeSkin(map, wallTile, 40));
    const chosen = promisingTiles(map, level, 2);
    const overlapsFace = (t: { left: number; top: number; width: number; height: number }) =>
      t.left < 3264 && t.top < 2064 && t.left + t.width > 3200 && t.top + t.height > 2000;
    expect(chosen.tiles.every(overlapsFace)).toBe(true);
    // The tiles over the budget are kept, most promising first, for a search once a face is found.
    expect(chosen.tiles.length + chosen.rest.length + chosen.screenedOut).toBe(level.length);
    expect(chosen.overBudget).toBe(chosen.rest.length);
  });

  it('keeps a few slots for a face without skin colour: a grey face in a colour scene, edges ranked below it', () => {
    // A colour scene (sky over grass) with a skin-coloured wall and shaded patches that fill the skin
    // slots, two white boards (straight edges, the highest plain contrast) and a grey 8x8 map px face at
    // (1200, 2000): a greyscale print held up, no skin pixel in it.
    const sand: Rgb = [200, 160, 120];
    const shaded = (x: number, y: number): Rgb => (y % 2 ? skinTones[0]! : skinTones[1]!);
    const greyFace = (x: number, y: number): Rgb => {
      const eye = y === 251 && (x === 151 || x === 155);
      const mouth = y === 255 && x >= 152 && x <= 154;
      const v = eye || mouth ? 40 : 150 + 25 * ((x + y) % 2);
      return [v, v, v];
    };
    const rgb = image(mapW, mapH, (x, y) => (y < mapH / 2 ? sky : grass), [
      { x: 260, y: 20, w: 200, h: 100, colour: () => sand },
      ...Array.from({ length: 14 }, (_, i) => ({
        x: 30 * i + 20,
        y: 150,
        w: 8,
        h: 8,
        colour: shaded,
      })),
      { x: 20, y: 250, w: 40, h: 120, colour: () => [250, 250, 250] as Rgb },
      { x: 300, y: 250, w: 40, h: 120, colour: () => [250, 250, 250] as Rgb },
      { x: 150, y: 250, w: 8, h: 8, colour: greyFace },
    ]);
    const map = skinMap(rgb, mapW, mapH, S);
    expect(map.colour).toBe(true);
    const level = tileGrid(W, H, 500, 0.25);
    const holdsFace = (t: { left: number; top: number; width: number; height: number }) =>
      t.left <= 1200 && t.top <= 2000 && t.left + t.width >= 1264 && t.top + t.height >= 2064;
    const faceTile = level.find(holdsFace)!;
    // The face's tile holds no skin and ranks below the posts by plain contrast, but first by structure.
    expect(mayHoldFace(map, faceTile)).toBe(false);
    const post = level.find((t) => t.left <= 2400 && t.left + t.width >= 2432 && t.top >= 2000)!;
    expect(faceScaleContrast(map, post, 40)).toBeGreaterThan(faceScaleContrast(map, faceTile, 40));
    expect(faceScaleStructure(map, faceTile, 40)).toBeGreaterThan(
      2 * faceScaleStructure(map, post, 40),
    );

    const chosen = promisingTiles(map, level, 12);
    expect(chosen.tiles).toHaveLength(12);
    expect(chosen.tiles.filter((t) => !mayHoldFace(map, t)).length).toBeLessThanOrEqual(
      COLOUR_BLIND_SLOTS,
    );
    expect(chosen.tiles.some(holdsFace)).toBe(true);
    expect(chosen.tiles.length + chosen.rest.length + chosen.screenedOut).toBe(level.length);
    expect(chosen.overBudget).toBe(chosen.rest.length);
    // Without the reserve (a budget of 3 or less), skin alone decides, as before.
    expect(promisingTiles(map, level, 3).tiles.some(holdsFace)).toBe(false);
  });
});
