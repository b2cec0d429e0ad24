/**
 * Small faces in large photos: each dev photo's face pasted into a generated 4000x3000 photo at 1 %..5 %
 * of its width (testing/small-faces.ts), then embedded like any upload. Reports, per size, how many are
 * found and how far the descriptor lands from the same photo at full size, from another photo of the same
 * person (a genuine pair) and from the nearest other person.
 *
 *   node --import tsx packages/vision/src/faces/eval-small-faces.ts [--pairs <pairs.json>]
 *
 * `npm run eval:faces` runs it too and writes the table into docs/vision/accuracy.md "## Faces".
 */

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { isFaceError } from './errors';
import { embedFace, loadFaceModels } from './face-engine';
import { compareDescriptors } from './match-score';
import { smallFaceInLargePhoto, syntheticBackground } from './testing/small-faces';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const DEFAULT_PAIRS = path.resolve(repoRoot, '../shared/data/faces/pairs.json');

type Pair = { a: string; b: string; same: boolean; source?: string };

export const SMALL_FACE_FRACTIONS = [0.01, 0.015, 0.02, 0.03, 0.05] as const;
export const SMALL_FACE_CANVAS = { width: 4000, height: 3000 } as const;

export type SmallFaceRow = {
  fraction: number;
  faces: number;
  found: number;
  /** Distances of the found faces to the same photo embedded at its own size. */
  samePhoto: number[];
  /** To another photo of the same person. */
  genuine: number[];
  /** Smallest distance to any other person's reference photo. */
  nearestOther: number[];
  ms: number[];
};

/**
 * One genuine pair per identity (the first in file order): `a` goes into the large photo, `b` is the
 * other photo of the same person.
 */
function onePairPerIdentity(pairs: readonly Pair[]): Pair[] {
  const seen = new Set<string>();
  const out: Pair[] = [];
  for (const p of pairs) {
    if (!p.same) continue;
    const identity = p.a.replace(/[^_]+$/, '');
    if (seen.has(identity)) continue;
    seen.add(identity);
    out.push(p);
  }
  return out;
}

export async function smallFaceSweep(pairsFile: string = DEFAULT_PAIRS): Promise<SmallFaceRow[]> {
  const pairs = JSON.parse(readFileSync(pairsFile, 'utf8')) as Pair[];
  const dir = path.dirname(pairsFile);
  const chosen = onePairPerIdentity(pairs);
  const read = (f: string) => readFileSync(path.join(dir, f));
  const refs = await Promise.all(
    chosen.map(async (p) => ({
      pair: p,
      a: await embedFace(read(p.a)),
      b: await embedFace(read(p.b)),
    })),
  );
  const background = await syntheticBackground(SMALL_FACE_CANVAS.width, SMALL_FACE_CANVAS.height);
  const rows: SmallFaceRow[] = [];
  for (const fraction of SMALL_FACE_FRACTIONS) {
    const row: SmallFaceRow = {
      fraction,
      faces: refs.length,
      found: 0,
      samePhoto: [],
      genuine: [],
      nearestOther: [],
      ms: [],
    };
    for (const ref of refs) {
      const { image } = await smallFaceInLargePhoto(
        read(ref.pair.a),
        ref.a.box,
        { ...SMALL_FACE_CANVAS, faceFraction: fraction },
        background,
      );
      try {
        const e = await embedFace(image);
        row.found++;
        row.ms.push(e.ms);
        row.samePhoto.push(compareDescriptors(e.descriptor, ref.a.descriptor).distance);
        row.genuine.push(compareDescriptors(e.descriptor, ref.b.descriptor).distance);
        row.nearestOther.push(
          Math.min(
            ...refs
              .filter((o) => o !== ref)
              .flatMap((o) => [o.a.descriptor, o.b.descriptor])
              .map((d) => compareDescriptors(e.descriptor, d).distance),
          ),
        );
      } catch (error) {
        if (!isFaceError(error)) throw error;
      }
    }
    rows.push(row);
  }
  return rows;
}

const f3 = (v: number) => v.toFixed(3);
function meanMax(v: number[]): string {
  if (!v.length) return '-';
  return `${f3(v.reduce((a, b) => a + b, 0) / v.length)} / ${f3(Math.max(...v))}`;
}
function median(v: number[]): string {
  if (!v.length) return '-';
  const s = [...v].sort((a, b) => a - b);
  return `${Math.round(s[Math.floor(s.length / 2)]!)} ms`;
}

/** The table for docs/vision/accuracy.md. */
export function smallFaceTable(rows: readonly SmallFaceRow[]): string[] {
  return [
    '| face width (px of 4000) | found | distance to the same photo, mean / max | to another photo of the same person, mean / max | nearest other person, min | median time |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${(100 * r.fraction).toFixed(1)} % (${Math.round(r.fraction * SMALL_FACE_CANVAS.width)} px) | ${r.found}/${r.faces} | ${meanMax(r.samePhoto)} | ${meanMax(r.genuine)} | ${r.nearestOther.length ? f3(Math.min(...r.nearestOther)) : '-'} | ${median(r.ms)} |`,
    ),
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  const i = args.indexOf('--pairs');
  (async () => {
    await loadFaceModels();
    const rows = await smallFaceSweep(i >= 0 ? path.resolve(args[i + 1] ?? '') : DEFAULT_PAIRS);
    console.log(smallFaceTable(rows).join('\n'));
  })().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
