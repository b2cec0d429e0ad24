import { AppError } from '@/platform/errors';

import type { GateVisionEngine } from './lazy-engine';

export type VisionAdmissionOptions = {
  /** Reads one user may have running in the engine at once (`VISION_READS_PER_USER`). */
  readsPerUser: number;
  /** Reads one user may have waiting beyond those; one more is answered 429 (`VISION_QUEUE_PER_USER`). */
  queuedPerUser: number;
  /**
   * Reads running in the engine at once, all users together. Kept near the pool's thread count so
   * waiting happens here, in round-robin order, and not in the pool's own first-come queue.
   */
  readsInFlight: number;
};

type UserLine = {
  running: number;
  waiting: Array<() => void>;
  /** When this user last started a read (a counter); -1 until the first. */
  lastStart: number;
};

export type VisionAdmission = ReturnType<typeof createVisionAdmission>;

/**
 * The admission queue in front of the vision engine. Every read, face check and comparison runs
 * under one user's budget: at most `readsPerUser` running, at most `queuedPerUser` waiting, the
 * rest refused with 429 and Retry-After. A free slot goes to the waiting user who started a read
 * least recently (round-robin between users), so ten heavy reads from one guard put at most
 * `readsPerUser` of them ahead of another user's plate.
 *
 * In-process: each server process keeps its own queue (the cluster work will revisit this).
 */
export function createVisionAdmission({
  readsPerUser,
  queuedPerUser,
  readsInFlight,
}: VisionAdmissionOptions) {
  const lines = new Map<string, UserLine>();
  let running = 0;
  let starts = 0;

  function nextInTurn(): UserLine | undefined {
    let next: UserLine | undefined;
    for (const line of lines.values()) {
      const mayStart = line.waiting.length > 0 && line.running < readsPerUser;
      if (mayStart && (!next || line.lastStart < next.lastStart)) next = line;
    }
    return next;
  }

  function startWhatMay() {
    while (running < readsInFlight) {
      const line = nextInTurn();
      if (!line) return;
      line.running++;
      line.lastStart = starts++;
      running++;
      line.waiting.shift()!();
    }
  }

  function finish(userId: string, line: UserLine) {
    line.running--;
    running--;
    if (line.running === 0 && line.waiting.length === 0) lines.delete(userId);
    startWhatMay();
  }

  return {
    /** Runs `work` under `userId`'s budget, now or when its turn comes. */
    run<T>(userId: string, work: () => Promise<T>): Promise<T> {
      let line = lines.get(userId);
      if (!line) lines.set(userId, (line = { running: 0, waiting: [], lastStart: -1 }));
      if (line.waiting.length >= queuedPerUser) {
        return Promise.reject(
          new AppError(
            'RATE_LIMITED',
            'Too many images are being read for you at once. Please wait for them to finish and try again.',
            // Roughly a second a read per slot clears what is ahead of the next one.
            { retryAfterSeconds: Math.max(1, Math.ceil(line.waiting.length / readsPerUser)) },
          ),
        );
      }
      const own = line;
      return new Promise<T>((resolve, reject) => {
        own.waiting.push(() => {
          // A throw inside `work` (not only a rejection) must still free the slot.
          Promise.resolve()
            .then(work)
            .then(resolve, reject)
            .finally(() => finish(userId, own));
        });
        startWhatMay();
      });
    },

    /** What is running and waiting, per user (tests and diagnostics). */
    snapshot() {
      return {
        running,
        users: Object.fromEntries(
          [...lines].map(([userId, line]) => [
            userId,
            { running: line.running, waiting: line.waiting.length },
          ]),
        ),
      };
    },
  };
}

/** The engine as services see it: every call names the user whose budget it runs under. */
export type UserVisionEngine = {
  forUser(userId: string): Omit<GateVisionEngine, 'close'>;
};

export function withVisionAdmission(
  engine: GateVisionEngine,
  admission: Pick<VisionAdmission, 'run'>,
): UserVisionEngine {
  return {
    forUser: (userId) => ({
      read: (...args) => admission.run(userId, () => engine.read(...args)),
      compareFaces: (...args) => admission.run(userId, () => engine.compareFaces(...args)),
      compareFaceToDescriptor: (...args) =>
        admission.run(userId, () => engine.compareFaceToDescriptor(...args)),
      embedFace: (...args) => admission.run(userId, () => engine.embedFace(...args)),
      checkFaceQuality: (...args) => admission.run(userId, () => engine.checkFaceQuality(...args)),
    }),
  };
}
