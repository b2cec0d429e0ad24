import { readFile } from 'node:fs/promises';
import { PerformanceObserver, monitorEventLoopDelay, performance } from 'node:perf_hooks';

/**
 * What stopped a Node process from answering in a stretch of time: the event loop's delay (how late
 * a 10 ms timer fired: any synchronous work or pause) and V8's garbage-collection pauses. The scale
 * bench reads them for its own process and for the server's (issue 27: is a p99 tail the server
 * stalling, the bench stalling, or neither, i.e. PostgreSQL or the machine?).
 */
export type PauseFigures = {
  /**
   * The share of the time the event loop was busy (0–1). Requests queue behind each other when
   * it is high, although no single task stalls the loop: at 70 % a burst of arrivals waits tens of
   * milliseconds.
   */
  loopBusy: number;
  /** The longest event-loop delay seen, ms. */
  loopDelayMaxMs: number;
  gcPauses: number;
  gcLongestMs: number;
  gcTotalMs: number;
};

export const NO_PAUSES: PauseFigures = {
  loopBusy: 0,
  loopDelayMaxMs: 0,
  gcPauses: 0,
  gcLongestMs: 0,
  gcTotalMs: 0,
};

/** Starts watching this process; `take()` returns what happened since the last take. */
export function watchPauses() {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const gcDurations: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcDurations.push(entry.duration);
  });
  observer.observe({ entryTypes: ['gc'] });
  let since = performance.eventLoopUtilization();
  return {
    take(): PauseFigures {
      const now = performance.eventLoopUtilization();
      const busy = performance.eventLoopUtilization(now, since).utilization;
      since = now;
      const figures: PauseFigures = {
        loopBusy: busy,
        // The histogram counts the timer's own resolution as delay: only the excess is a stall.
        loopDelayMaxMs: delay.count > 0 ? Math.max(0, delay.max / 1e6 - 10) : 0,
        gcPauses: gcDurations.length,
        gcLongestMs: Math.max(0, ...gcDurations),
        gcTotalMs: gcDurations.reduce((sum, d) => sum + d, 0),
      };
      delay.reset();
      gcDurations.length = 0;
      return figures;
    },
    stop() {
      delay.disable();
      observer.disconnect();
    },
  };
}

/**
 * Several stretches (of equal length) as one: the mean busy share, the longest of the longest,
 * the sums of the counts.
 */
export function combinePauses(parts: readonly PauseFigures[]): PauseFigures {
  const loopBusy =
    parts.length > 0 ? parts.reduce((sum, part) => sum + part.loopBusy, 0) / parts.length : 0;
  const combined = parts.reduce(
    (all, part) => ({
      loopBusy: 0,
      loopDelayMaxMs: Math.max(all.loopDelayMaxMs, part.loopDelayMaxMs),
      gcPauses: all.gcPauses + part.gcPauses,
      gcLongestMs: Math.max(all.gcLongestMs, part.gcLongestMs),
      gcTotalMs: all.gcTotalMs + part.gcTotalMs,
    }),
    NO_PAUSES,
  );
  return { ...combined, loopBusy };
}

export const describePauses = (figures: PauseFigures) =>
  `loop busy ${Math.round(figures.loopBusy * 100)} %, delay max ${figures.loopDelayMaxMs.toFixed(0)} ms, GC ${figures.gcPauses} pauses ` +
  `(longest ${figures.gcLongestMs.toFixed(0)} ms, ${figures.gcTotalMs.toFixed(0)} ms in all)`;

/** The server's half-second lines (server-pauses-preload.ts) that end within [from, to], combined. */
export async function pausesInFile(file: string, from: number, to: number): Promise<PauseFigures> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const parts = text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as PauseFigures & { at: number })
    .filter((part) => part.at > from && part.at <= to);
  return combinePauses(parts);
}
