import { describe, expect, it } from 'vitest';

import { percentile, percentilesOf } from './latency';

describe('latency percentiles', () => {
  it('takes the nearest rank, as the tables report it', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 95)).toBe(95);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([1, 2], 0)).toBe(1);
    expect(percentile([], 50)).toBeNaN();
  });

  it('sorts a copy and counts the samples', () => {
    const samples = [30, 10, 20, 40];
    expect(percentilesOf(samples)).toEqual({ p50: 20, p95: 40, p99: 40, count: 4 });
    expect(samples).toEqual([30, 10, 20, 40]);
  });
});
