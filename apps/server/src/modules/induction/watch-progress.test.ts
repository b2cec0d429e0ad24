import { describe, expect, it } from 'vitest';

import {
  MAX_CREDIT_SECONDS,
  type WatchState,
  creditHeartbeat,
  isVideoComplete,
} from './watch-progress';

const start = new Date('2026-11-22T08:00:00Z');
const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);

function play(beats: [wallSeconds: number, positionSeconds: number][], durationSeconds = 60) {
  let state: WatchState = { watchedSeconds: 0, lastHeartbeatAt: null };
  for (const [wall, position] of beats) {
    state = creditHeartbeat(state, { positionSeconds: position, now: at(wall), durationSeconds });
  }
  return state.watchedSeconds;
}

describe('creditHeartbeat', () => {
  it('credits normal playback second for second', () => {
    expect(
      play([
        [0, 0],
        [2, 2],
        [4, 4],
        [6, 6],
      ]),
    ).toBeCloseTo(6);
  });

  it('credits only elapsed time when the driver seeks ahead', () => {
    // 2 s of watching, then a jump to 55 s one second later.
    expect(
      play([
        [0, 0],
        [2, 2],
        [3, 55],
        [5, 57],
      ]),
    ).toBeCloseTo(5);
  });

  it('does not let waiting and then jumping to the end count', () => {
    expect(
      play([
        [0, 0],
        [600, 60],
      ]),
    ).toBe(MAX_CREDIT_SECONDS);
  });

  it('does not credit a faster playback rate beyond wall-clock time', () => {
    expect(
      play([
        [0, 0],
        [2, 4],
        [4, 8],
        [6, 12],
      ]),
    ).toBeCloseTo(6);
  });

  it('does not credit rewatching an earlier part', () => {
    expect(
      play([
        [0, 0],
        [5, 5],
        [10, 10],
        [11, 0],
        [16, 5],
        [21, 10],
        [23, 12],
      ]),
    ).toBeCloseTo(12);
  });

  it('never counts past the end of the video', () => {
    expect(
      play(
        [
          [0, 0],
          [5, 5],
          [10, 10],
          [12, 30],
        ],
        11,
      ),
    ).toBeCloseTo(11);
  });
});

describe('isVideoComplete', () => {
  it('allows a small tolerance at the end, not a real part of the video', () => {
    expect(isVideoComplete(59, 60)).toBe(true);
    expect(isVideoComplete(57, 60)).toBe(false);
    expect(isVideoComplete(2, 3)).toBe(true);
    expect(isVideoComplete(1.5, 3)).toBe(false);
  });
});
