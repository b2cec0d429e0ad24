/** The figures of `npm run bench` (scripts/bench/all.ts) turned into its summary table. */
import type { BenchMeasurement, BenchMetric, BenchResult } from '../lib/bench-result';

export type RunOutcome = {
  status: 'ok' | 'failed' | 'timed out';
  seconds: number;
  result?: BenchResult;
  refMs: number;
};

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const TIME_METRICS: BenchMetric[] = ['p50Ms', 'p95Ms', 'p99Ms', 'valueMs'];
const METRIC_LABEL: Record<string, string> = {
  p50Ms: 'p50',
  p95Ms: 'p95',
  p99Ms: 'p99',
  valueMs: 'time',
  throughputPerS: 'req/ref',
};
/** The figure a ratio is given for: the targeted one, else the first time or throughput figure. */
export function headline(m: BenchMeasurement): BenchMetric | undefined {
  // Memory and scores do not scale with the machine's CPU speed: no ratio for them.
  if (
    m.target &&
    !(['peakRssMiB', 'rssMiB', 'score'] as const).includes(m.target.metric as never)
  ) {
    return m.target.metric;
  }
  return (['p50Ms', 'valueMs', 'throughputPerS'] as const).find((k) => m[k] !== undefined);
}
/** Time ÷ reference time; throughput as work done per reference time (req/s × ref s). */
export function ratio(m: BenchMeasurement, refMs: number): number | undefined {
  const metric = headline(m);
  const value = metric ? m[metric] : undefined;
  if (value === undefined || !metric) return undefined;
  return TIME_METRICS.includes(metric) ? value / refMs : (value * refMs) / 1000;
}

/**
 * The summary table of `npm run bench`: per measurement, the median of each figure over the runs
 * that produced one, the target with met/MISSED, and the median ratio to the reference measured
 * around each run. Runs that failed or timed out are listed in `failed`.
 */
export function summarize(outcomes: Map<string, RunOutcome[]>) {
  const rows: string[] = [];
  const missed: string[] = [];
  const failed: string[] = [];
  const refs: number[] = [];
  for (const [name, runs] of outcomes) {
    refs.push(...runs.map((r) => r.refMs));
    const withResults = runs.filter((r) => r.result);
    const notOk = runs.filter((r) => r.status !== 'ok');
    if (notOk.length > 0) {
      failed.push(`${name}: ${notOk.map((r) => r.status).join(', ')}`);
    }
    if (withResults.length === 0) {
      rows.push(
        `| ${name} | (no figures: ${runs.map((r) => r.status).join(', ') || 'not run'}) | ${runs.length} | | | | | | | | | ${notOk.length ? '**FAILED**' : 'see its section'} | |`,
      );
      continue;
    }
    const ids = withResults[0]!.result!.measurements.map((m) => m.id);
    for (const id of ids) {
      const perRun = withResults
        .map((r) => ({ m: r.result!.measurements.find((x) => x.id === id), refMs: r.refMs }))
        .filter((x): x is { m: BenchMeasurement; refMs: number } => x.m !== undefined);
      const first = perRun[0]!.m;
      const med = (key: keyof BenchMeasurement) => {
        const values = perRun
          .map((x) => x.m[key])
          .filter((v): v is number => typeof v === 'number');
        return values.length ? median(values) : undefined;
      };
      const agg: BenchMeasurement = {
        id,
        label: first.label,
        ...Object.fromEntries(
          (
            [
              'p50Ms',
              'p95Ms',
              'p99Ms',
              'valueMs',
              'throughputPerS',
              'peakRssMiB',
              'rssMiB',
              'score',
            ] as const
          ).flatMap((k) => {
            const v = med(k);
            return v === undefined ? [] : [[k, v]];
          }),
        ),
      };
      const ratios = perRun
        .map((x) => ratio(x.m, x.refMs))
        .filter((v): v is number => v !== undefined);
      const fmt = (v: number | undefined, digits = 0) => (v === undefined ? '' : v.toFixed(digits));
      let verdict = '';
      let targetText = '—';
      if (first.target) {
        const { metric, op, value } = first.target;
        const actual = agg[metric];
        const unit =
          metric === 'throughputPerS'
            ? '/s'
            : metric.endsWith('MiB')
              ? ' MiB'
              : metric === 'score'
                ? ''
                : ' ms';
        const label = ['p50Ms', 'p95Ms', 'p99Ms', 'score'].includes(metric)
          ? (METRIC_LABEL[metric] ?? metric)
          : '';
        targetText = `${label ? `${label} ` : ''}${op === '<=' ? '≤' : '≥'} ${value}${unit}`;
        const ok = typeof actual === 'number' && (op === '<=' ? actual <= value : actual >= value);
        verdict = ok ? 'met' : '**MISSED**';
        if (!ok) missed.push(`${first.label} (${fmt(actual)} vs ${targetText})`);
      }
      const time = agg.p50Ms ?? agg.valueMs;
      const ratioMetric = headline(first);
      const ratioText = ratios.length
        ? `${median(ratios).toFixed(ratioMetric === 'throughputPerS' ? 1 : 2)} (${METRIC_LABEL[ratioMetric ?? ''] ?? ''})`
        : '';
      rows.push(
        `| ${name} | ${first.label} | ${perRun.length} | ${fmt(time)} | ${fmt(agg.p95Ms)} | ${fmt(agg.p99Ms)} | ${fmt(agg.throughputPerS, agg.throughputPerS !== undefined && agg.throughputPerS < 10 ? 2 : 0)} | ${fmt(agg.peakRssMiB)} | ${fmt(agg.rssMiB)} | ${fmt(agg.score)} | ${targetText} | ${verdict} | ${ratioText} |`,
      );
    }
  }
  return { rows, missed, failed, refs };
}
