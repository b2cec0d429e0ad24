/** Time comes through here so tests can move it (session timeouts, throttling windows). */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };

export function createFakeClock(start = new Date('2026-01-01T08:00:00Z')) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advanceMs(ms: number) {
      current += ms;
    },
    set(date: Date) {
      current = date.getTime();
    },
  };
}
export type FakeClock = ReturnType<typeof createFakeClock>;
