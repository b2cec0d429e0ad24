import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runFaceCompare } from './cli';
import { noFaceImage, sampleFace } from './testing/sample-faces';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'face-cli-int-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

beforeAll(async () => {
  writeFileSync(path.join(tmp, 'left.jpg'), await sampleFace('left'));
  writeFileSync(path.join(tmp, 'right.jpg'), await sampleFace('right'));
  writeFileSync(path.join(tmp, 'empty.jpg'), await noFaceImage());
  writeFileSync(
    path.join(tmp, 'pairs.json'),
    JSON.stringify([
      { a: 'left.jpg', b: 'left.jpg', same: true },
      { a: 'left.jpg', b: 'right.jpg', same: false },
      { a: 'left.jpg', b: 'empty.jpg', same: false },
      { a: 'missing.jpg', b: 'left.jpg', same: false },
    ]),
  );
}, 60_000);

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runFaceCompare(args, {
    stdout: (l) => out.push(l),
    stderr: (l) => err.push(l),
  });
  return { code, lines: out.map((l) => JSON.parse(l) as Record<string, unknown>), err };
}

describe('face-compare', () => {
  it('prints one JSON object per pair, in order, paths relative to the pairs file, and exits 0', async () => {
    const { code, lines } = await run(['face-compare', '--pairs', path.join(tmp, 'pairs.json')]);
    expect(code).toBe(0);
    expect(lines.map((l) => [l.a, l.b])).toEqual([
      ['left.jpg', 'left.jpg'],
      ['left.jpg', 'right.jpg'],
      ['left.jpg', 'empty.jpg'],
      ['missing.jpg', 'left.jpg'],
    ]);
    const [same, different, noFace, missing] = lines;
    expect(same).toMatchObject({ ok: true, matchScore: 100 });
    expect(different).toMatchObject({ ok: true });
    expect(different!.matchScore as number).toBeLessThan(70);
    expect(Object.keys(same!).sort()).toEqual(['a', 'b', 'matchScore', 'ms', 'ok']);
    // A missing face is an error line, never a score.
    expect(noFace).toMatchObject({ ok: false });
    expect(noFace).not.toHaveProperty('matchScore');
    expect(noFace!.error).toMatch(/^b: no_face: No face found/);
    expect(missing).toMatchObject({ ok: false });
    expect(missing!.error).toMatch(/^a: cannot read .*missing\.jpg \(ENOENT\)/);
    for (const l of lines) expect(typeof l.ms).toBe('number');
  });

  it('compares two files given on the command line', async () => {
    const { code, lines } = await run([path.join(tmp, 'left.jpg'), path.join(tmp, 'right.jpg')]);
    expect(code).toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ a: path.join(tmp, 'left.jpg'), ok: true });
  });
});
