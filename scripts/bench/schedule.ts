/**
 * Whether one more run of a bench fits in what is left of `npm run bench`'s time-box: at least
 * `minimumMs`, and at least the shortest run of that bench so far (with 10 % to spare). A run that
 * cannot finish is skipped and listed rather than started and stopped half-way.
 */
export function fitsTimeBox(
  remainingMs: number,
  previousRunsSeconds: number[],
  minimumMs = 30_000,
): { fits: boolean; neededMs: number } {
  const shortest = previousRunsSeconds.length
    ? Math.ceil(Math.min(...previousRunsSeconds) * 1100)
    : 0;
  const neededMs = Math.max(minimumMs, shortest);
  return { fits: remainingMs >= neededMs, neededMs };
}
