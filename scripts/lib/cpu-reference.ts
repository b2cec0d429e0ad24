import { createHash } from 'node:crypto';

/**
 * The reference: a fixed single-thread workload (JSON round trips and SHA-256 over the text, the
 * kind of work a request does), median of 5 timings, in ms.
 */
export function referenceMs(): number {
  const record = {
    id: '6f1d6c0e-8a51-4c1e-9d0a-1b5b1f0c2d3e',
    plateNumber: 'CA 123-456',
    driverName: 'Reference Driver',
    entries: Array.from({ length: 40 }, (_, i) => ({ i, at: '2026-11-22T08:00:00Z', ok: true })),
  };
  const once = () => {
    const started = performance.now();
    const hash = createHash('sha256');
    for (let i = 0; i < 2_000; i++) {
      const text = JSON.stringify({ ...record, n: i });
      hash.update(text);
      JSON.parse(text);
    }
    hash.digest();
    return performance.now() - started;
  };
  once(); // JIT warm-up
  const times = Array.from({ length: 5 }, once).sort((a, b) => a - b);
  return times[2]!;
}
