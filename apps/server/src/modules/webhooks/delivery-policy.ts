/**
 * When to try a callback again (Svix's schedule, as Standard Webhooks recommends): attempt 1 at
 * once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h later, each with ±10% jitter. Only 2xx
 * counts; 3xx is a failure (redirects are not followed); 410 disables the endpoint; 429, 502 and
 * 504 ask us to slow down and their Retry-After is honoured.
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  0,
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];
export const MAX_DELIVERY_ATTEMPTS = RETRY_DELAYS_MS.length;
export const JITTER_RATIO = 0.1;
/** A Retry-After longer than this is treated as this. */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

export type ResponseKind = 'success' | 'gone' | 'throttled' | 'failure';

export function classifyResponse(status: number | null): ResponseKind {
  if (status === null) return 'failure';
  if (status >= 200 && status < 300) return 'success';
  if (status === 410) return 'gone';
  if (status === 429 || status === 502 || status === 504) return 'throttled';
  return 'failure';
}

/** Retry-After as delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfterMs(value: string | null | undefined, now: Date): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed) * 1000, MAX_RETRY_AFTER_MS);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.min(Math.max(0, date - now.getTime()), MAX_RETRY_AFTER_MS);
}

export type AttemptDecision =
  | { kind: 'delivered' }
  | { kind: 'disable-endpoint' }
  | { kind: 'retry'; at: Date }
  | { kind: 'dead-letter' };

/**
 * What follows attempt number `attempt` (1-based) that ended with `status` (null: no response).
 * `random` is in [0, 1) and sets the jitter; tests pass a fixed one.
 */
export function decideAfterAttempt({
  attempt,
  status,
  retryAfter,
  now,
  random = Math.random,
}: {
  attempt: number;
  status: number | null;
  retryAfter?: string | null;
  now: Date;
  random?: () => number;
}): AttemptDecision {
  const kind = classifyResponse(status);
  if (kind === 'success') return { kind: 'delivered' };
  if (kind === 'gone') return { kind: 'disable-endpoint' };
  if (attempt >= MAX_DELIVERY_ATTEMPTS) return { kind: 'dead-letter' };
  const scheduled = RETRY_DELAYS_MS[attempt] ?? 0;
  const jittered = Math.round(scheduled * (1 + (random() * 2 - 1) * JITTER_RATIO));
  const asked = kind === 'throttled' ? (parseRetryAfterMs(retryAfter, now) ?? 0) : 0;
  return { kind: 'retry', at: new Date(now.getTime() + Math.max(jittered, asked)) };
}
