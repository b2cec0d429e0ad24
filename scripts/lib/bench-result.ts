import { writeFileSync } from 'node:fs';

/**
 * What a benchmark hands to `npm run bench` (scripts/bench/all.ts): given `--result-file F` (or
 * BENCH_RESULT_FILE=F), the bench writes its figures to F as JSON besides its own section of docs/benchmarks.md.
 * packages/vision's benches write the same shape without importing this file.
 */
export type BenchMetric =
  'p50Ms' | 'p95Ms' | 'p99Ms' | 'throughputPerS' | 'peakRssMiB' | 'rssMiB' | 'valueMs' | 'score';

export type BenchMeasurement = {
  id: string;
  label: string;
  p50Ms?: number;
  p95Ms?: number;
  p99Ms?: number;
  throughputPerS?: number;
  /** Peak resident memory of the measured process. */
  peakRssMiB?: number;
  /** A resident-memory figure that is not a peak (e.g. steady state). */
  rssMiB?: number;
  /** A single duration (cold start). */
  valueMs?: number;
  /** A 0–100 score (Lighthouse categories). */
  score?: number;
  /** The figure the product target applies to. */
  target?: { metric: BenchMetric; op: '<=' | '>='; value: number };
};

export type BenchResult = {
  bench: string;
  measurements: BenchMeasurement[];
  notes?: string[];
};

export function writeBenchResult(result: BenchResult) {
  const at = process.argv.indexOf('--result-file');
  const file = at >= 0 ? process.argv[at + 1] : process.env.BENCH_RESULT_FILE;
  if (file) writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
}

export const mib = (bytes: number) => Math.round(bytes / 2 ** 20);
