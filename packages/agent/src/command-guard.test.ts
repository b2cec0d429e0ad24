import { describe, expect, it } from 'vitest';

import { createCommandGuard } from './command-guard';

describe('createCommandGuard', () => {
  const clock = (start: number) => {
    let now = start;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  };

  it('admits a fresh command and refuses the same decision again, even after it finished', () => {
    const time = clock(10_000);
    const guard = createCommandGuard({ maxAgeMs: 3_000, now: time.now });
    expect(guard.admit({ decisionId: 'd1', issuedAt: 10_000 })).toBeNull();
    guard.finish('d1');
    expect(guard.admit({ decisionId: 'd1', issuedAt: 10_000 })).toBe('duplicate');
  });

  it('drops a command older than the maximum age', () => {
    const time = clock(10_000);
    const guard = createCommandGuard({ maxAgeMs: 3_000, now: time.now });
    expect(guard.admit({ decisionId: 'late', issuedAt: 6_999 })).toBe('stale');
    expect(guard.admit({ decisionId: 'on-time', issuedAt: 7_000 })).toBeNull();
  });

  it('measures age on the server clock, whatever the agent clock says', () => {
    const time = clock(50_000);
    const guard = createCommandGuard({ maxAgeMs: 1_000, now: time.now });
    // The agent's clock runs 40 s ahead of the server's.
    guard.setServerTime(10_000);
    expect(guard.admit({ decisionId: 'fresh', issuedAt: 9_500 })).toBeNull();
    guard.finish('fresh');
    time.advance(2_000);
    expect(guard.admit({ decisionId: 'old', issuedAt: 10_500 })).toBe('stale');
  });

  it('runs one command at a time: a second decision during a pulse is refused, not queued', () => {
    const time = clock(0);
    const guard = createCommandGuard({ maxAgeMs: 3_000, now: time.now });
    expect(guard.admit({ decisionId: 'a', issuedAt: 0 })).toBeNull();
    expect(guard.admit({ decisionId: 'b', issuedAt: 0 })).toBe('busy');
    guard.finish('a');
    expect(guard.admit({ decisionId: 'b', issuedAt: 0 })).toBeNull();
  });

  it('a refused busy decision may run later while still fresh', () => {
    const guard = createCommandGuard({ maxAgeMs: 3_000, now: () => 0 });
    guard.admit({ decisionId: 'a', issuedAt: 0 });
    expect(guard.admit({ decisionId: 'b', issuedAt: 0 })).toBe('busy');
    guard.finish('a');
    expect(guard.running).toBeNull();
    expect(guard.admit({ decisionId: 'b', issuedAt: 0 })).toBeNull();
    expect(guard.running).toBe('b');
  });

  it('keeps the least delayed clock sample, so a slow hello does not hide a late command', () => {
    const time = clock(100_000);
    const guard = createCommandGuard({ maxAgeMs: 100, now: time.now });
    // The hello took 400 ms to arrive; a later sample came through at once.
    guard.setServerTime(100_000 - 400);
    time.advance(1_000);
    guard.setServerTime(101_000);
    // Issued 300 ms ago by the server's clock: stale, although the hello alone would say 0 ms old.
    expect(guard.admit({ decisionId: 'late', issuedAt: 100_700 })).toBe('stale');
    guard.resetClock();
    guard.setServerTime(101_000 - 400);
    expect(guard.admit({ decisionId: 'late-again', issuedAt: 100_700 })).toBeNull();
  });
});
