import autocannon from 'autocannon';

/** Nearest-rank percentile `p` (0–100) of ascending `sorted` values; NaN when there are none. */
export const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? NaN
    : (sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ??
      NaN);

export type Percentiles = { p50: number; p95: number; p99: number; count: number };

export function percentilesOf(latencies: number[]): Percentiles {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    count: sorted.length,
  };
}

/**
 * autocannon, with p50/p95/p99 over every response's latency (ms, fractional). autocannon's own
 * summary has p97.5 and p99 but no p95, and rounds to whole milliseconds.
 */
export function autocannonWithLatencies(
  options: autocannon.Options,
  onResponse?: (statusCode: number) => void,
): Promise<{ result: autocannon.Result; latency: Percentiles }> {
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => {
      if (error) reject(error instanceof Error ? error : new Error(String(error)));
      else resolve({ result, latency: percentilesOf(latencies) });
    });
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      latencies.push(responseTime);
      onResponse?.(statusCode);
    });
  });
}
