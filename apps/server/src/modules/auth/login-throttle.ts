import type { CounterRule, Hit, RateLimitStore } from '@/modules/rate-limits';
import { AppError } from '@/platform/errors';

/**
 * Sign-in throttling, counted per account and per client address (OWASP: a counter tied to the
 * account, with growing delays rather than a permanent lockout): the attempt that reaches the
 * limit locks the key for a minute, each further failure in the window doubles the lock, up to
 * fifteen minutes.
 *
 * Race-free: an attempt is counted as a failure *before* the password is checked, in one
 * statement that also decides the lock (rate-limits.store.ts), and given back when the password
 * was right. However many wrong passwords arrive at once, exactly the limit of them are checked;
 * the rest are refused with 429 without being checked, and the lock holds across API processes.
 */
export const THROTTLE_WINDOW_MS = 15 * 60_000;
export const FIRST_LOCK_MS = 60_000;
export const MAX_LOCK_MS = 15 * 60_000;

export type ThrottleLimits = { maxFailuresPerAccount: number; maxFailuresPerIp: number };

/** The keys of one attempt: the account (lower-cased username) and the client address. */
export const accountThrottleKey = (username: string) => `account:${username.toLowerCase()}`;
export const ipThrottleKey = (ip: string) => `ip:${ip}`;

/** An attempt counted against its keys; the caller reports how it ended. */
export type ThrottleAttempt = { keys: readonly string[]; hits: ReadonlyMap<string, Hit> };

const STORE_PREFIX = 'login:';

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;

export function createLoginThrottle({
  store,
  limits,
}: {
  store: RateLimitStore;
  limits: ThrottleLimits;
}) {
  const ruleFor = (key: string): CounterRule => ({
    limit: key.startsWith('ip:') ? limits.maxFailuresPerIp : limits.maxFailuresPerAccount,
    windowMs: THROTTLE_WINDOW_MS,
    backoff: { firstMs: FIRST_LOCK_MS, maxMs: MAX_LOCK_MS },
  });

  return {
    /**
     * Counts an attempt against every key (as a failure until told otherwise), or refuses it with
     * RATE_LIMITED (429, Retry-After) when a key is locked; a refused attempt counts nowhere.
     */
    async begin(keys: readonly string[]): Promise<ThrottleAttempt> {
      const counted: string[] = [];
      const hits = new Map<string, Hit>();
      for (const key of keys) {
        const hit = await store.hit(STORE_PREFIX + key, ruleFor(key));
        if (!hit.allowed) {
          for (const done of counted) {
            await store.refund(STORE_PREFIX + done, ruleFor(done), hits.get(done));
          }
          const minutes = Math.ceil(hit.retryAfterSeconds / 60);
          throw new AppError(
            'RATE_LIMITED',
            `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
            { retryAfterSeconds: hit.retryAfterSeconds },
          );
        }
        counted.push(key);
        hits.set(key, hit);
      }
      return { keys: counted, hits };
    },

    /**
     * The attempt succeeded: the account's failures are forgotten (`accountKey`), the attempt is
     * given back on the other keys (the address keeps the failures of other accounts).
     */
    async succeeded(attempt: ThrottleAttempt, accountKey: string) {
      for (const key of attempt.keys) {
        if (key === accountKey) await store.clear(STORE_PREFIX + key);
        else await store.refund(STORE_PREFIX + key, ruleFor(key), attempt.hits.get(key));
      }
    },

    /**
     * The password was right but a second factor is still owed: the attempt is given back on every
     * key, and the account's earlier failures stay until the second step succeeds (`succeeded`),
     * so a known password cannot reset the count between code guesses.
     */
    async refund(attempt: ThrottleAttempt) {
      for (const key of attempt.keys) {
        await store.refund(STORE_PREFIX + key, ruleFor(key), attempt.hits.get(key));
      }
    },

    /** Forgets a key's failures. */
    async clear(key: string) {
      await store.clear(STORE_PREFIX + key);
    },
  };
}
