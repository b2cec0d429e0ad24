/**
 * `npm run bench:vision:plates`: CPU time of the plate reader on every real street photo of
 * ../shared/data/plates_openalpr (read in place, never copied), in this process, one read at a time on
 * one ONNX thread. A first pass warms the engines; the last pass is reported: median / p95 CPU and
 * wall, the slowest photos, and per region (and per split half, as `npm run eval` splits them) the
 * plates read right, right and confident, and silent errors, so a speed change that costs accuracy
 * shows here. CPU time is process.cpuUsage() around decode + read (all threads of the process); on a
 * shared machine it is the figure that does not grow with the load, and the ratio to the CPU
 * reference (scripts/lib/cpu-reference.ts, timed before and after) compares runs across machines.
 * Options: --data DIR, --passes N (default 2), --only a,b (file-name prefixes, for a quick look).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { referenceMs } from '../../../scripts/lib/cpu-reference';
import { decodeImage } from '../src/image/decode-image';
import { readPlate } from '../src/readers/read-plate';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const dataDir = resolve(arg('--data') ?? join(repoRoot, '../shared/data'), 'plates_openalpr');
const passes = Math.max(1, Number(arg('--passes') ?? 2));
const only = arg('--only')?.split(',');

type Item = { file?: string; path?: string; expected: { plate: string } };
const items = (
  JSON.parse(readFileSync(join(dataDir, 'manifest.json'), 'utf8')) as { items: Item[] }
).items.filter((i) => !only || only.some((p) => (i.path ?? i.file)!.startsWith(p)));

const quantile = (values: number[], q: number) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? 0;
};
/** The split of `npm run eval` (scripts/eval.ts `half`). */
const half = (file: string) =>
  createHash('sha256').update(file).digest()[0]! % 2 === 0 ? 'tune' : 'held-out';

type Row = { file: string; cpu: number; wall: number; got: string; verdict: string };
const ctx = { intraOpThreads: 1 };
const refBefore = referenceMs();
const load = [loadavg()[0]!];
let rows: Row[] = [];
for (let pass = 0; pass < passes; pass++) {
  rows = [];
  for (const item of items) {
    const file = (item.path ?? item.file)!;
    const bytes = readFileSync(join(dataDir, file));
    const cpu = process.cpuUsage();
    const started = performance.now();
    const result = await readPlate(await decodeImage(bytes), ctx);
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const plate = result.ok ? result.fields.plateNumber : undefined;
    const got = typeof plate === 'string' ? plate : '';
    const flagged = !result.ok || (result.uncertain ?? []).includes('plateNumber');
    const right = got === item.expected.plate;
    const verdict = right
      ? flagged
        ? 'right, flagged'
        : 'right'
      : flagged
        ? 'wrong, flagged'
        : 'SILENT ERROR';
    rows.push({ file, cpu: (used.user + used.system) / 1000, wall, got, verdict });
  }
}
load.push(loadavg()[0]!);
const refAfter = referenceMs();
const ref = (refBefore + refAfter) / 2;

const cpuMs = rows.map((r) => r.cpu);
const wallMs = rows.map((r) => r.wall);
const p95 = quantile(cpuMs, 0.95);
console.log(
  `plates_openalpr, ${rows.length} photos, pass ${passes} of ${passes}, 1 ONNX thread, ` +
    `${cpus()[0]?.model ?? 'cpu'} x${cpus().length}, Node ${process.version}, ` +
    `load ${load.map((l) => l.toFixed(1)).join(' → ')}`,
);
console.log(
  `CPU median ${quantile(cpuMs, 0.5).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, total ` +
    `${(cpuMs.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s; wall median ` +
    `${quantile(wallMs, 0.5).toFixed(0)} ms, p95 ${quantile(wallMs, 0.95).toFixed(0)} ms`,
);
console.log(
  `CPU reference ${refBefore.toFixed(1)} / ${refAfter.toFixed(1)} ms (before / after); ` +
    `CPU p95 ÷ reference = ${(p95 / ref).toFixed(1)}`,
);

const groups = new Map<string, Row[]>();
for (const r of rows) {
  const region = r.file.slice(0, 2).toUpperCase();
  for (const key of ['all', region, `${region} ${half(r.file)}`, `all ${half(r.file)}`])
    groups.set(key, [...(groups.get(key) ?? []), r]);
}
console.log(
  '\n| photos | n | right | right and confident | silent errors |\n|---|---|---|---|---|',
);
for (const [key, g] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
  const right = g.filter((r) => r.verdict.startsWith('right')).length;
  const confident = g.filter((r) => r.verdict === 'right').length;
  const silent = g.filter((r) => r.verdict === 'SILENT ERROR').length;
  console.log(`| ${key} | ${g.length} | ${right} | ${confident} | ${silent} |`);
}
console.log('\nSlowest (CPU ms, wall ms, read, verdict):');
for (const r of [...rows].sort((a, b) => b.cpu - a.cpu).slice(0, 10))
  console.log(`  ${r.file}  ${r.cpu.toFixed(0)}  ${r.wall.toFixed(0)}  ${r.got}  ${r.verdict}`);
console.log('\nNot right and confident:');
for (const r of rows.filter((r) => r.verdict !== 'right'))
  console.log(`  ${r.file}  ${r.got || '(none)'}  ${r.verdict}`);
process.exit(0);
