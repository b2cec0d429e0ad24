import { describe, expect, it } from 'vitest';

import { NO_PAUSES, combinePauses, describePauses, watchPauses } from './runtime-pauses';

describe('runtime pauses', () => {
  it('sees a synchronous stall of the event loop', async () => {
    const pauses = watchPauses();
    await new Promise((resolve) => setTimeout(resolve, 30));
    const busyUntil = performance.now() + 120;
    while (performance.now() < busyUntil) {
      // a stall, as a long synchronous request handler would make
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
    const figures = pauses.take();
    pauses.stop();
    expect(figures.loopDelayMaxMs).toBeGreaterThanOrEqual(80);
    // 120 ms busy of about 180 ms
    expect(figures.loopBusy).toBeGreaterThan(0.4);
    // take() starts afresh
    expect(pauses.take().gcPauses).toBe(0);
  });

  it('combines stretches: longest of the longest, sums of counts', () => {
    const combined = combinePauses([
      { loopBusy: 0.2, loopDelayMaxMs: 5, gcPauses: 2, gcLongestMs: 3, gcTotalMs: 4 },
      { loopBusy: 0.6, loopDelayMaxMs: 40, gcPauses: 1, gcLongestMs: 12, gcTotalMs: 12 },
    ]);
    expect(combined).toEqual({
      loopBusy: 0.4,
      loopDelayMaxMs: 40,
      gcPauses: 3,
      gcLongestMs: 12,
      gcTotalMs: 16,
    });
    expect(combinePauses([])).toEqual(NO_PAUSES);
    expect(describePauses(combined)).toBe(
      'loop busy 40 %, delay max 40 ms, GC 3 pauses (longest 12 ms, 16 ms in all)',
    );
  });
});
