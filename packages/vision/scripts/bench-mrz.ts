/**
 * `npm run bench:vision:mrz`: CPU time of the passport (MRZ) reader on each real specimen of
 * ../shared/data/mrz_passporteye (read in place, never copied), in this process, one read at a time
 * on one ONNX thread. A first pass warms the engines (model loads, tesseract workers); the second
 * is reported, per image and as median / p95. CPU time is process.cpuUsage() around one read: all
 * threads of the process, tesseract's worker threads included; on a shared machine it is the figure
 * that does not grow with the load (the wall clock does). Each row also says whether the MRZ lines
 * equal the transcription and which fields the reader flagged, so a speed change that costs accuracy
 * shows here. The CPU reference of the other benches (scripts/lib/cpu-reference.ts, a fixed
 * single-thread workload) is timed before and after, and the median and p95 are also given divided by
 * it, so runs on a loaded or another machine compare. Options: --data DIR, --passes N (default 2; the
 * last is reported), --only SUBSTRING (specimens whose file name holds it, e.g. for --cpu-prof).
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { referenceMs } from '../../../scripts/lib/cpu-reference';
import { decodeImage } from '../src/image/decode-image';
import { closeTesseract } from '../src/ocr/tesseract';
import { readPassport } from '../src/readers/read-passport';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const dataDir = resolve(arg('--data') ?? join(repoRoot, '../shared/data'), 'mrz_passporteye');
const passes = Math.max(1, Number(arg('--passes') ?? 2));

type Item = { file?: string; path?: string; expected: { mrz_lines: string[] } };
const only = arg('--only');
const { items } = JSON.parse(readFileSync(join(dataDir, 'manifest.json'), 'utf8')) as {
  items: Item[];
};
const selected = items.filter((i) => !only || (i.path ?? i.file)!.includes(only));

const quantile = (values: number[], q: number) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? 0;
};

const ctx = { intraOpThreads: 1 };
const load = [loadavg()[0]!];
const refBefore = referenceMs();
let rows: string[] = [];
let cpuMs: number[] = [];
for (let pass = 0; pass < passes; pass++) {
  rows = [];
  cpuMs = [];
  for (const item of selected) {
    const file = (item.path ?? item.file)!;
    const bytes = readFileSync(join(dataDir, file));
    const cpu = process.cpuUsage();
    const started = performance.now();
    const result = await readPassport(await decodeImage(bytes), ctx);
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const ms = (used.user + used.system) / 1000;
    cpuMs.push(ms);
    const lines = result.ok ? ((result.fields.mrzLines as string[] | undefined) ?? []) : [];
    const uncertain = result.ok ? (result.uncertain ?? []) : [];
    const exact = lines.join('|') === item.expected.mrz_lines.join('|');
    const verdict = !result.ok
      ? 'not read'
      : exact
        ? 'exact'
        : uncertain.includes('mrzLines')
          ? 'wrong, flagged'
          : 'WRONG, NOT FLAGGED';
    rows.push(
      `| ${file} | ${Math.round(ms)} | ${Math.round(wall)} | ${verdict} | ${result.ok ? String(result.fields.checksValid) : '-'} | ${uncertain.join(', ')} |`,
    );
  }
  load.push(loadavg()[0]!);
}
await closeTesseract();
const refMs = (refBefore + referenceMs()) / 2;
const median = quantile(cpuMs, 0.5);
const p95 = quantile(cpuMs, 0.95);

process.stdout
  .write(`Command: \`npm run bench:vision:mrz\` (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, load average ${Math.min(...load).toFixed(1)}-${Math.max(...load).toFixed(1)}; pass ${passes} of ${passes} reported)

| specimen | CPU ms | wall ms | MRZ lines | checksValid | uncertain |
|---|---|---|---|---|---|
${rows.join('\n')}

CPU median ${Math.round(median)} ms, p95 ${Math.round(p95)} ms (${cpuMs.length} specimens); CPU reference ${refMs.toFixed(1)} ms in this run, so median ÷ ref ${(median / refMs).toFixed(2)}, p95 ÷ ref ${(p95 / refMs).toFixed(2)}.
`);
process.exit(0);
