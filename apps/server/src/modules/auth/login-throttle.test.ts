import { describe, expect, it } from 'vitest';

import { THROTTLE_WINDOW_MS, afterFailure, retryAfterSeconds } from './login-throttle';

const now = new Date('2026-01-01T08:00:00Z');
const later = (ms: number) => new Date(now.getTime() + ms);

describe('afterFailure', () => {
  it('does not lock before the limit', () => {
    let state = afterFailure(undefined, now, 3);
    state = afterFailure(state, now, 3);

    expect(state).toMatchObject({ failures: 2, lockedUntil: null });
  });

  it('locks for a minute at the limit and doubles with each further failure', () => {
    let state = afterFailure(undefined, now, 2);
    state = afterFailure(state, now, 2);
    const firstLock = state.lockedUntil;
    state = afterFailure(state, now, 2);

    expect(firstLock).toEqual(later(60_000));
    expect(state.lockedUntil).toEqual(later(120_000));
  });

  it('never locks for more than fifteen minutes', () => {
    let state = afterFailure(undefined, now, 1);
    for (let i = 0; i < 20; i++) state = afterFailure(state, now, 1);

    expect(state.lockedUntil).toEqual(later(15 * 60_000));
  });

  it('starts a new window once the old one is over', () => {
    const state = afterFailure(
      { failures: 9, windowStartedAt: now, lockedUntil: null },
      later(THROTTLE_WINDOW_MS + 1),
      10,
    );

    expect(state.failures).toBe(1);
  });
});

describe('retryAfterSeconds', () => {
  it('is zero when not locked or when the lock has passed', () => {
    expect(retryAfterSeconds(undefined, now)).toBe(0);
    expect(
      retryAfterSeconds({ failures: 5, windowStartedAt: now, lockedUntil: now }, later(1)),
    ).toBe(0);
  });

  it('rounds the remaining lock up to whole seconds', () => {
    expect(
      retryAfterSeconds({ failures: 5, windowStartedAt: now, lockedUntil: later(1500) }, now),
    ).toBe(2);
  });
});
