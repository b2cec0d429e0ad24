import { describe, expect, it } from 'vitest';

import { DEFAULT_TILING, clampTileBudget, mergeDetections, tileGrid, tileLevels } from './tiling';

describe('tileGrid', () => {
  it('covers the photo edge to edge with overlapping tiles', () => {
    const tiles = tileGrid(4000, 3000, 1000, 0.25);
    expect(tiles).toHaveLength(5 * 4);
    expect(Math.max(...tiles.map((t) => t.left + t.width))).toBe(4000);
    expect(Math.max(...tiles.map((t) => t.top + t.height))).toBe(3000);
    expect(Math.min(...tiles.map((t) => t.left))).toBe(0);
    // Neighbours share at least a quarter of a tile: a face up to 250 px is whole in some tile.
    const lefts = [...new Set(tiles.map((t) => t.left))].sort((a, b) => a - b);
    for (let i = 1; i < lefts.length; i++)
      expect(lefts[i]! - lefts[i - 1]!).toBeLessThanOrEqual(750);
  });

  it('every point of the photo, and every 200 px face, lies whole inside some tile', () => {
    const tiles = tileGrid(1920, 1080, 960, 0.25);
    for (let x = 0; x + 200 <= 1920; x += 97) {
      for (let y = 0; y + 200 <= 1080; y += 89) {
        const inside = tiles.some(
          (t) =>
            x >= t.left && y >= t.top && x + 200 <= t.left + t.width && y + 200 <= t.top + t.height,
        );
        expect(inside, `face at ${x},${y}`).toBe(true);
      }
    }
  });

  it('clips a tile larger than the photo to one tile', () => {
    expect(tileGrid(300, 200, 500, 0.25)).toEqual([{ left: 0, top: 0, width: 300, height: 200 }]);
  });
});

describe('tileLevels', () => {
  it('halves the tile side per level down to the smallest tile', () => {
    const levels = tileLevels(4000, 3000);
    expect(levels.map((l) => l[0]!.width)).toEqual([2000, 1000, 500]);
    expect(levels.map((l) => l.length)).toEqual([6, 20, 88]);
  });

  it('stops before the tile budget is exceeded', () => {
    const levels = tileLevels(4000, 3000, { ...DEFAULT_TILING, maxTiles: 30 });
    expect(levels.map((l) => l[0]!.width)).toEqual([2000, 1000]);
  });

  it('has no level for a photo whose half is below the smallest tile', () => {
    expect(tileLevels(640, 480)).toEqual([]);
  });
});

describe('mergeDetections', () => {
  it('keeps the best of overlapping boxes and a face cut by a tile edge as one face', () => {
    const whole = { box: { x: 100, y: 100, width: 40, height: 40 }, score: 0.9 };
    const shifted = { box: { x: 104, y: 102, width: 40, height: 40 }, score: 0.7 };
    const cut = { box: { x: 100, y: 100, width: 18, height: 40 }, score: 0.6 };
    const other = { box: { x: 400, y: 100, width: 40, height: 40 }, score: 0.8 };
    expect(mergeDetections([cut, shifted, other, whole])).toEqual([whole, other]);
  });

  it('keeps two faces side by side', () => {
    const a = { box: { x: 0, y: 0, width: 50, height: 50 }, score: 0.9 };
    const b = { box: { x: 45, y: 0, width: 50, height: 50 }, score: 0.8 };
    expect(mergeDetections([a, b])).toHaveLength(2);
  });
});

describe('clampTileBudget', () => {
  it('keeps a budget between 1 and the number of tiles', () => {
    expect(clampTileBudget(12, 20)).toBe(12);
    expect(clampTileBudget(20, 20)).toBe(20);
    expect(clampTileBudget(21, 20)).toBe(20);
    expect(clampTileBudget(1, 20)).toBe(1);
    expect(clampTileBudget(0, 20)).toBe(1);
    expect(clampTileBudget(-5, 20)).toBe(1);
  });

  it('refuses a budget that is not a whole number of tiles', () => {
    for (const budget of [2.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => clampTileBudget(budget, 20)).toThrow(RangeError);
    }
  });
});
