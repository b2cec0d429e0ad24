/**
 * The tile search for small faces (ADR 0012), without the detector: levels of tiles coarse to fine
 * (tiling.ts), each level's most promising tiles within a budget (skin-screen.ts), stop at the first level
 * with a confident face, then search for competing faces (searchTiles). The engine passes `search` (TinyFaceDetector on one tile); tests pass a fake.
 */

import { competingFaceSide } from './quality';
import { type SkinMap, faceScaleStructure, mayHoldFace, promisingTiles } from './skin-screen';
import { type Box, type Rect, clampTileBudget, mergeDetections } from './tiling';

export type TileSearch = {
  /** Detector runs on tiles, the search for competing faces included. */
  searched: number;
  /** Tiles the skin screen left out before a face was found (levels without a face). */
  screenedOut: number;
  /** Tiles over the budget before a face was found (levels without a face). */
  overBudget: number;
  /** Tiles per level searched before a face is found (the option, clamped: clampTileBudget). */
  budget: number;
  /** Tiles searched on each level before a face was found (at most `budget` each). */
  perLevel: number[];
};

export type TileDetection = { box: Box; score: number };

export type TileSearchInput<C extends TileDetection> = {
  levels: readonly Rect[][];
  skin: SkinMap;
  budget: number;
  /** Full-resolution pixels per pixel of the candidates' boxes. */
  k: number;
  minScore: number;
  sameFaceIou: number;
  search: (tile: Rect) => Promise<C[]>;
};

/**
 * A tile may hold a competing face without skin when its face-like structure at the competing face's
 * size (faceScaleStructure) reaches this share of the found face's own, measured the same way: a
 * greyscale print or a face under a colour cast keeps a face's structure, flat or plain-edged areas do
 * not. Lenient on purpose: a face smaller, blurrier or lower in contrast than the found one still passes.
 */
export const COMPETING_STRUCTURE_SHARE = 0.25;

const area = (b: Box) => b.width * b.height;

/** The largest candidate scoring `minScore` or more. */
function largestConfident<C extends TileDetection>(candidates: readonly C[], minScore: number) {
  return [...candidates].sort((a, b) => area(b.box) - area(a.box)).find((c) => c.score >= minScore);
}

/**
 * Searches the levels coarse to fine, at most `budget` tiles per level (the most promising:
 * promisingTiles), and stops at the first level with a confident face. Then the budget, which bounds the
 * cost of a photo WITHOUT a face, no longer applies: every tile not yet searched on that level and on
 * every coarser one is searched when it may hold a competing face (competingFaceSide of the found face),
 * admitted as the first search admits tiles, by skin (mayHoldFace at that size) or, whatever its colour,
 * by face-like structure (COMPETING_STRUCTURE_SHARE). A face larger than the finer tiles is only whole on
 * a coarser tile, so the coarser levels are searched again (ADR 0012). Candidates come back merged, largest first.
 */
export async function searchTiles<C extends TileDetection>({
  levels,
  skin,
  budget,
  k,
  minScore,
  sameFaceIou,
  search,
}: TileSearchInput<C>): Promise<{ candidates: C[]; tiles: TileSearch }> {
  const perLevel = clampTileBudget(budget, Math.max(1, ...levels.map((l) => l.length)));
  const tiles: TileSearch = {
    searched: 0,
    screenedOut: 0,
    overBudget: 0,
    budget: perLevel,
    perLevel: [],
  };
  const run = async (tile: Rect) => {
    tiles.searched++;
    return search(tile);
  };
  /** Per level so far: the tiles not searched. */
  const unsearched: Rect[][] = [];
  for (const all of levels) {
    const found: C[] = [];
    const level = promisingTiles(skin, all, perLevel);
    for (const tile of level.tiles) found.push(...(await run(tile)));
    tiles.perLevel.push(level.tiles.length);
    const chosen = new Set<Rect>(level.tiles);
    unsearched.push(all.filter((t) => !chosen.has(t)));
    const main = largestConfident(mergeDetections(found, sameFaceIou), minScore);
    if (!main) {
      tiles.screenedOut += level.screenedOut;
      tiles.overBudget += level.overBudget;
      continue;
    }
    const mayCompete = competingScreen(skin, main.box, k);
    for (const tile of unsearched.flat()) {
      if (mayCompete(tile)) found.push(...(await run(tile)));
    }
    const merged = mergeDetections(found, sameFaceIou);
    return { candidates: merged.sort((a, b) => area(b.box) - area(a.box)), tiles };
  }
  return { candidates: [], tiles };
}

/** Whether a tile may hold a face competing with `main` (analysed px; k = full-resolution px per analysed px). */
function competingScreen(skin: SkinMap, main: Box, k: number): (tile: Rect) => boolean {
  const side = Math.max(1, competingFaceSide(main) * k);
  const face = {
    left: main.x * k,
    top: main.y * k,
    width: main.width * k,
    height: main.height * k,
  };
  const minStructure = COMPETING_STRUCTURE_SHARE * faceScaleStructure(skin, face, side);
  return (tile) =>
    mayHoldFace(skin, tile, side) || faceScaleStructure(skin, tile, side) >= minStructure;
}
