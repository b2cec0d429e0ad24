import { describe, expect, it } from 'vitest';

import {
  MAX_DELIVERY_ATTEMPTS,
  RETRY_DELAYS_MS,
  classifyResponse,
  decideAfterAttempt,
  parseRetryAfterMs,
} from './delivery-policy';

const now = new Date('2026-01-01T08:00:00Z');
const secondsAfterNow = (decision: ReturnType<typeof decideAfterAttempt>) =>
  decision.kind === 'retry' ? (decision.at.getTime() - now.getTime()) / 1000 : undefined;

describe('classifyResponse', () => {
  it.each([
    [200, 'success'],
    [204, 'success'],
    [302, 'failure'],
    [304, 'failure'],
    [400, 'failure'],
    [410, 'gone'],
    [429, 'throttled'],
    [500, 'failure'],
    [502, 'throttled'],
    [503, 'failure'],
    [504, 'throttled'],
    [null, 'failure'],
  ] as const)('treats %s as %s', (status, kind) => {
    expect(classifyResponse(status)).toBe(kind);
  });
});

describe('decideAfterAttempt', () => {
  it('follows 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h without jitter at the midpoint', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7].map((attempt) =>
      secondsAfterNow(decideAfterAttempt({ attempt, status: 500, now, random: () => 0.5 })),
    );

    expect(delays).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(MAX_DELIVERY_ATTEMPTS).toBe(8);
    expect(RETRY_DELAYS_MS[0]).toBe(0);
  });

  it('jitters by at most 10% either way', () => {
    expect(
      secondsAfterNow(decideAfterAttempt({ attempt: 2, status: 500, now, random: () => 0 })),
    ).toBe(270);
    expect(
      secondsAfterNow(decideAfterAttempt({ attempt: 2, status: 500, now, random: () => 0.999999 })),
    ).toBeCloseTo(330, 0);
  });

  it('dead-letters after the eighth attempt', () => {
    expect(decideAfterAttempt({ attempt: 8, status: 500, now })).toEqual({ kind: 'dead-letter' });
  });

  it('disables the endpoint on 410 and stops', () => {
    expect(decideAfterAttempt({ attempt: 1, status: 410, now })).toEqual({
      kind: 'disable-endpoint',
    });
  });

  it('waits at least as long as a throttling Retry-After asks', () => {
    const decision = decideAfterAttempt({
      attempt: 1,
      status: 429,
      retryAfter: '120',
      now,
      random: () => 0.5,
    });

    expect(secondsAfterNow(decision)).toBe(120);
  });

  it('ignores Retry-After on a plain failure', () => {
    expect(
      secondsAfterNow(
        decideAfterAttempt({ attempt: 1, status: 500, retryAfter: '120', now, random: () => 0.5 }),
      ),
    ).toBe(5);
  });

  it('counts a redirect as a failure to retry', () => {
    expect(decideAfterAttempt({ attempt: 1, status: 302, now }).kind).toBe('retry');
  });
});

describe('parseRetryAfterMs', () => {
  it('reads seconds and HTTP dates, caps at a day, ignores nonsense', () => {
    expect(parseRetryAfterMs('30', now)).toBe(30_000);
    expect(parseRetryAfterMs(new Date(now.getTime() + 90_000).toUTCString(), now)).toBe(90_000);
    expect(parseRetryAfterMs('999999999', now)).toBe(24 * 3_600_000);
    expect(parseRetryAfterMs('soon', now)).toBeNull();
    expect(parseRetryAfterMs(null, now)).toBeNull();
  });
});
