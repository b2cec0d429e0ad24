/**
 * How much of the safety video the server believes was watched. `watchedSeconds` is the furthest
 * point played through continuously: a heartbeat may move it forward by no more than the
 * wall-clock time since the previous heartbeat (by the server's clock), and never by more than
 * MAX_CREDIT_SECONDS, so seeking ahead, a fast playback rate or waiting and then jumping to the
 * end all earn nothing. Rewatching an earlier part earns nothing either.
 */

/** The page sends a heartbeat about every second while playing; a longer gap is credited only this much. */
export const MAX_CREDIT_SECONDS = 10;

export type WatchState = {
  watchedSeconds: number;
  lastHeartbeatAt: Date | null;
};

export function creditHeartbeat(
  state: WatchState,
  {
    positionSeconds,
    now,
    durationSeconds,
  }: { positionSeconds: number; now: Date; durationSeconds: number },
): WatchState {
  const position = Math.min(positionSeconds, durationSeconds);
  if (!state.lastHeartbeatAt) return { watchedSeconds: state.watchedSeconds, lastHeartbeatAt: now };
  const elapsed = Math.max(0, (now.getTime() - state.lastHeartbeatAt.getTime()) / 1000);
  const ahead = position - state.watchedSeconds;
  const credit = ahead > 0 ? Math.min(ahead, elapsed, MAX_CREDIT_SECONDS) : 0;
  return { watchedSeconds: state.watchedSeconds + credit, lastHeartbeatAt: now };
}

/**
 * Done once played to within the tolerance of the end: network jitter between heartbeats costs a
 * few hundredths of a second each, and a recorded webm's length is read from its last frame's
 * start. One second plus 2 % of the length covers both without letting a real part be skipped.
 */
export function isVideoComplete(watchedSeconds: number, durationSeconds: number): boolean {
  return watchedSeconds >= durationSeconds - (1 + durationSeconds * 0.02);
}
