import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { createSyncLoop } from './site-node.runtime';

describe('createSyncLoop', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('repeats every interval, backs off doubling while the link is down, and resets after', async () => {
    const outcomes = ['ok', 'fail', 'fail', 'fail', 'fail', 'ok', 'ok'];
    const delays: number[] = [];
    let calls = 0;
    const loop = createSyncLoop({
      intervalMs: 1_000,
      maxBackoffMs: 5_000,
      step: async () => {
        calls += 1;
        if (outcomes[calls - 1] === 'fail') throw new Error('link down');
        return { more: false };
      },
      onError: (_error, retryInMs) => delays.push(retryInMs),
    });

    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(1_000 + 2_000 + 4_000 + 5_000);
    expect(delays).toEqual([1_000, 2_000, 4_000, 5_000]);
    expect(calls).toBe(6);
    expect(loop.failures).toBe(0);
    await loop.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toBe(6);
  });

  it('runs again at once while more is waiting', async () => {
    let calls = 0;
    const loop = createSyncLoop({
      intervalMs: 60_000,
      maxBackoffMs: 60_000,
      step: async () => ({ more: (calls += 1) < 3 }),
      onError: () => undefined,
    });

    loop.start();
    await vi.advanceTimersByTimeAsync(10);

    expect(calls).toBe(3);
    await loop.stop();
  });
});
