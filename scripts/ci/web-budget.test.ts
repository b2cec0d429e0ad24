import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('./web-budget.mjs', import.meta.url));

type Chunk = { code: string; sources?: string[] };

/** A dist folder shaped like Vite's: index.html with the entry and a modulepreload, chunks, maps. */
function aDist(chunks: Record<string, Chunk>, preload: string[] = []) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'web-budget-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><html><head>
    <script type="module" crossorigin src="/assets/index-AAAAAAAA.js"></script>
    ${preload.map((f) => `<link rel="modulepreload" crossorigin href="/assets/${f}">`).join('\n')}
    </head><body><div id="root"></div></body></html>`,
  );
  for (const [name, chunk] of Object.entries(chunks)) {
    writeFileSync(path.join(dir, 'assets', name), chunk.code);
    const map = { version: 3, sources: chunk.sources ?? [], mappings: '' };
    writeFileSync(path.join(dir, 'assets', `${name}.map`), JSON.stringify(map));
  }
  return dir;
}

function runBudget(dist: string) {
  const json = path.join(dist, 'result.json');
  const run = spawnSync(process.execPath, [SCRIPT, '--dist', dist, '--json', json], {
    encoding: 'utf8',
  });
  return {
    status: run.status,
    stdout: run.stdout,
    result: JSON.parse(readFileSync(json, 'utf8')) as {
      ok: boolean;
      initialJsFiles: string[];
      heavyInInitial: { name: string }[];
      lazy: { chunk: string }[];
    },
  };
}

const dists: string[] = [];
afterEach(() => {
  for (const dir of dists.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('web budget (scripts/ci/web-budget.mjs)', () => {
  it('counts the entry and its static imports as initial, and lazy routes (and theirs) apart', () => {
    const dist = aDist(
      {
        'index-AAAAAAAA.js': {
          code: 'import{a}from"./shared-BBBBBBBB.js";const r=()=>import(`./users-CCCCCCCC.js`);',
          sources: ['../../src/main.tsx'],
        },
        'shared-BBBBBBBB.js': { code: 'export const a=1;', sources: ['../../src/lib/cn.ts'] },
        'users-CCCCCCCC.js': {
          code: 'import{a}from"./shared-BBBBBBBB.js";const m=()=>import("./qr-DDDDDDDD.js");',
          sources: ['../../src/features/users/components/users.tsx'],
        },
        'qr-DDDDDDDD.js': { code: 'export default 1;', sources: ['../../node_modules/qrcode/x'] },
      },
      [],
    );
    dists.push(dist);

    const { status, result } = runBudget(dist);

    expect(status).toBe(0);
    expect(result.ok).toBe(true);
    expect(result.initialJsFiles.sort()).toEqual([
      'assets/index-AAAAAAAA.js',
      'assets/shared-BBBBBBBB.js',
    ]);
    expect(result.lazy.map((l) => l.chunk).sort()).toEqual(['users', 'users → qr']);
  });

  it('fails when a heavy screen is bundled into the initial load', () => {
    const dist = aDist(
      {
        'index-AAAAAAAA.js': { code: 'export{};', sources: ['../../src/main.tsx'] },
        'camera-EEEEEEEE.js': {
          code: 'export{};',
          sources: ['../../src/components/camera/camera-capture-dialog.tsx'],
        },
      },
      ['camera-EEEEEEEE.js'],
    );
    dists.push(dist);

    const { status, result, stdout } = runBudget(dist);

    expect(status).toBe(1);
    expect(result.heavyInInitial.map((h) => h.name)).toEqual(['camera capture']);
    expect(stdout).toContain('Heavy module in the initial load: camera capture');
  });

  it('fails above 200 KB of gzip in the initial load', () => {
    // Random bytes do not compress: 210 KB of them stay over the budget after gzip.
    const dist = aDist({
      'index-AAAAAAAA.js': { code: `/*${randomBytes(210_000).toString('base64')}*/` },
    });
    dists.push(dist);

    const { status, stdout } = runBudget(dist);

    expect(status).toBe(1);
    expect(stdout).toContain('OVER BUDGET');
  });
});
