/**
 * Sign-in throttling, counted per account and per client address (OWASP: a counter tied to the
 * account, with growing delays rather than a permanent lockout).
 */
export const THROTTLE_WINDOW_MS = 15 * 60_000;
const FIRST_LOCK_MS = 60_000;
const MAX_LOCK_MS = 15 * 60_000;

export type ThrottleState = { failures: number; windowStartedAt: Date; lockedUntil: Date | null };

/** Seconds until the key may try again, or 0 when it may try now. */
export function retryAfterSeconds(state: ThrottleState | undefined, now: Date): number {
  if (!state?.lockedUntil || state.lockedUntil <= now) return 0;
  return Math.ceil((state.lockedUntil.getTime() - now.getTime()) / 1000);
}

/** The state after one more failure: the window restarts when old, the lock doubles per failure. */
export function afterFailure(
  state: ThrottleState | undefined,
  now: Date,
  maxFailures: number,
): ThrottleState {
  const isWindowOver =
    !state || now.getTime() - state.windowStartedAt.getTime() > THROTTLE_WINDOW_MS;
  const failures = isWindowOver ? 1 : state.failures + 1;
  const windowStartedAt = isWindowOver ? now : state.windowStartedAt;
  if (failures < maxFailures) return { failures, windowStartedAt, lockedUntil: null };
  const lockMs = Math.min(MAX_LOCK_MS, FIRST_LOCK_MS * 2 ** (failures - maxFailures));
  return { failures, windowStartedAt, lockedUntil: new Date(now.getTime() + lockMs) };
}
