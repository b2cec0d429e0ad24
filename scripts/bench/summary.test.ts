import { describe, expect, it } from 'vitest';

import type { BenchMeasurement } from '../lib/bench-result';

import { type RunOutcome, median, ratio, summarize } from './summary';

const gateRun = (
  p95Ms: number,
  refMs: number,
  status: RunOutcome['status'] = 'ok',
): RunOutcome => ({
  status,
  seconds: 40,
  refMs,
  result: {
    bench: 'gate',
    measurements: [
      {
        id: 'gate decision',
        label: 'auto-gate decision end to end',
        p50Ms: p95Ms - 100,
        p95Ms,
        target: { metric: 'p95Ms', op: '<=', value: 1000 },
      },
    ],
  },
});

/** The cells of the table row whose measurement label contains `label`. */
const cells = (rows: string[], label: string) =>
  rows
    .find((row) => row.includes(label))!
    .split('|')
    .slice(1, -1)
    .map((cell) => cell.trim());

describe('npm run bench summary', () => {
  it('takes the median of the figures and of the ratios to each run’s own reference', () => {
    const outcomes = new Map([['gate', [gateRun(600, 100), gateRun(900, 300), gateRun(700, 50)]]]);

    const { rows, missed, failed, refs } = summarize(outcomes);

    const row = cells(rows, 'auto-gate decision');
    expect(row.slice(0, 5)).toEqual(['gate', 'auto-gate decision end to end', '3', '600', '700']);
    // p95 ÷ ref per run: 6, 3, 14 → median 6.
    expect(row.at(-1)).toBe('6.00 (p95)');
    expect(row.at(-2)).toBe('met');
    expect(row.at(-3)).toBe('p95 ≤ 1000 ms');
    expect(missed).toEqual([]);
    expect(failed).toEqual([]);
    expect(refs).toEqual([100, 300, 50]);
  });

  it('marks a missed target and keeps going', () => {
    const { rows, missed } = summarize(new Map([['gate', [gateRun(1200, 100)]]]));

    expect(cells(rows, 'auto-gate decision').at(-2)).toBe('**MISSED**');
    expect(missed).toEqual(['auto-gate decision end to end (1200 vs p95 ≤ 1000 ms)']);
  });

  it('reports a bench that failed or timed out, with the figures of the runs that finished', () => {
    const timedOut: RunOutcome = { status: 'timed out', seconds: 240, refMs: 100 };
    const outcomes = new Map<string, RunOutcome[]>([
      ['gate', [gateRun(500, 100), timedOut]],
      ['ingest', [{ status: 'failed', seconds: 3, refMs: 100 }]],
    ]);

    const { rows, failed } = summarize(outcomes);

    expect(cells(rows, 'auto-gate decision')[2]).toBe('1');
    expect(cells(rows, 'no figures')).toContain('**FAILED**');
    expect(failed).toEqual(['gate: timed out', 'ingest: failed']);
  });

  it('gives throughput as work per reference time and time as a multiple of it', () => {
    const throughput: BenchMeasurement = {
      id: 'me',
      label: 'GET /api/auth/me',
      throughputPerS: 2000,
      target: { metric: 'throughputPerS', op: '>=', value: 2000 },
    };
    const time: BenchMeasurement = { id: 'cold', label: 'cold start', valueMs: 5000 };
    const memoryOnly: BenchMeasurement = { id: 'rss', label: 'RSS', rssMiB: 700 };

    expect(ratio(throughput, 50)).toBe(100); // 2000 req/s × 0.05 s
    expect(ratio(time, 50)).toBe(100); // 5000 ms ÷ 50 ms
    expect(ratio(memoryOnly, 50)).toBeUndefined(); // memory does not scale with CPU speed
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('judges a Lighthouse score against its target, with no ratio to the CPU reference', () => {
    const audit = (score: number): RunOutcome => ({
      status: 'ok',
      seconds: 90,
      refMs: 40,
      result: {
        bench: 'lighthouse',
        measurements: [
          {
            id: 'lighthouse /login performance',
            label: 'login `/login`: performance score (mobile, median of 3)',
            score,
            target: { metric: 'score', op: '>=', value: 90 },
          },
        ],
      },
    });

    const met = cells(summarize(new Map([['lighthouse', [audit(97)]]])).rows, 'performance score');
    // … | RSS MiB | score | target | result | ÷ ref |
    expect(met.slice(-4)).toEqual(['97', 'score ≥ 90', 'met', '']);
    expect(met.slice(3, 9)).toEqual(['', '', '', '', '', '']);

    const { rows, missed } = summarize(new Map([['lighthouse', [audit(84)]]]));
    expect(cells(rows, 'performance score').at(-2)).toBe('**MISSED**');
    expect(missed).toEqual([
      'login `/login`: performance score (mobile, median of 3) (84 vs score ≥ 90)',
    ]);
  });

  it('takes each figure’s median over the runs that have it (scale: saturation in its first run only)', () => {
    const scaleRun = (p99Ms: number, saturation?: number): RunOutcome => ({
      status: 'ok',
      seconds: 200,
      refMs: 40,
      result: {
        bench: 'scale',
        measurements: [
          {
            id: 'scale GET /api/dashboard [large]',
            label: 'GET /api/dashboard (large tenant only, 50 sessions × 2 req/s)',
            p50Ms: 5,
            p95Ms: 12,
            p99Ms,
            ...(saturation === undefined ? {} : { throughputPerS: saturation }),
            peakRssMiB: 400,
            target: { metric: 'p99Ms', op: '<=', value: 50 },
          },
        ],
      },
    });

    const { rows } = summarize(
      new Map([['scale', [scaleRun(30, 520), scaleRun(60), scaleRun(40)]]]),
    );

    const row = cells(rows, 'GET /api/dashboard');
    // runs, p50, p95, p99 (median of 30, 60, 40), throughput (first run), peak RSS
    expect(row.slice(2, 8)).toEqual(['3', '5', '12', '40', '520', '400']);
    expect(row.at(-2)).toBe('met');
    expect(row.at(-1)).toBe('1.00 (p99)'); // 40 ms ÷ 40 ms
  });
});
