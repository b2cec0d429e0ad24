import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { FACE_COMPARE_USAGE, runFaceCompare } from './cli';

// Usage errors are found before any model loads, so these run in the fast unit project.
const tmp = mkdtempSync(path.join(os.tmpdir(), 'face-cli-unit-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runFaceCompare(args, {
    stdout: (l) => out.push(l),
    stderr: (l) => err.push(l),
  });
  return { code, out, err: err.join('\n') };
}

describe('runFaceCompare usage', () => {
  it('exits 2 with the usage when there are no arguments or only one image', async () => {
    for (const args of [[], ['face-compare'], ['a.jpg'], ['a.jpg', 'b.jpg', 'c.jpg']]) {
      const { code, out, err } = await run(args);
      expect(code).toBe(2);
      expect(out).toEqual([]);
      expect(err).toContain('Usage:');
    }
  });

  it('exits 2 when --pairs has no file, an unreadable file or not a list of pairs', async () => {
    const notJson = path.join(tmp, 'bad.json');
    writeFileSync(notJson, '{ nope');
    const noB = path.join(tmp, 'nob.json');
    writeFileSync(noB, JSON.stringify([{ a: 'x.jpg' }]));
    const obj = path.join(tmp, 'obj.json');
    writeFileSync(obj, JSON.stringify({ a: 'x.jpg', b: 'y.jpg' }));
    for (const args of [
      ['--pairs'],
      ['--pairs', path.join(tmp, 'missing.json')],
      ['--pairs', notJson],
      ['--pairs', noB],
      ['--pairs', obj],
      ['--pairs', noB, 'extra.jpg'],
    ]) {
      const { code, err } = await run(args);
      expect(code, args.join(' ')).toBe(2);
      expect(err).toMatch(/^face-compare: /);
    }
  });

  it('prints the usage for --help and exits 0', async () => {
    const { code, out } = await run(['face-compare', '--help']);
    expect(code).toBe(0);
    expect(out).toEqual([FACE_COMPARE_USAGE]);
  });
});
