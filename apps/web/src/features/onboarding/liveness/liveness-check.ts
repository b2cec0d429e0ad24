/**
 * The active liveness check of self onboarding (spec §4, made real): four prompts of two seconds
 * each (look at the camera, blink, turn left, turn right) while the camera's frames are sampled at
 * about 10 fps for face landmarks; then "Verifying liveness" while the landmark sequence is judged
 * by `evaluateLiveness` (packages/vision). The confidence shown is what that judgement saw.
 *
 * The browser's verdict is advice: for each prompt it keeps the frame that shows it best (the most
 * frontal look, the most closed eyes, the largest turn each way; `livenessCaptureScore`) and sends
 * those four captures. The server finds the face in each and judges them itself.
 *
 * No React and no model here: the camera and the landmark model come in as a `FaceFrameSource`,
 * and time as a `Clock`, so tests drive the whole check with synthetic landmark sequences.
 */
import type { LivenessFrames } from '@boomgate/contracts/drivers';
import {
  estimateYawDeg,
  evaluateLiveness,
  LIVENESS_PROMPTS,
  livenessCaptureScore,
  STILL_MOTION_LIMIT,
  type LandmarkFrame,
  type LivenessPrompt,
  type LivenessResult,
} from '@boomgate/vision/liveness';

export type Landmarks = NonNullable<LandmarkFrame['landmarks']>;

export type LivenessStep = 'look' | LivenessPrompt;

export const LIVENESS_STEPS: readonly { step: LivenessStep; instruction: string }[] = [
  { step: 'look', instruction: 'Look at the camera' },
  { step: 'blink', instruction: 'Blink your eyes' },
  { step: 'turn_left', instruction: 'Turn your head to the left' },
  { step: 'turn_right', instruction: 'Turn your head to the right' },
];

export type LivenessTiming = {
  /** How long each prompt is shown and sampled (spec §4: 2 s). */
  promptMs: number;
  /** Time between landmark samples: 100 ms is 10 fps (fewer when the model is slower). */
  sampleIntervalMs: number;
  /** How long "Verifying liveness" shows at least (spec §4: 2 s). */
  verifyingMs: number;
};

export const LIVENESS_TIMING: LivenessTiming = {
  promptMs: 2000,
  sampleIntervalMs: 100,
  verifyingMs: 2000,
};

/** The camera as the check sees it; the boundary faked in tests. */
export type FaceFrameSource = {
  /** The 68 landmarks of the main face in the current frame, in frame pixels; null for none. */
  detectLandmarks: () => Promise<Landmarks | null>;
  /** The current frame as a JPEG data URL (the selfie). Throws when it cannot be drawn. */
  capturePhoto: () => string;
  /**
   * The frame the last `detectLandmarks` looked at, as a JPEG data URL: a prompt's capture for the
   * server, the very pixels these landmarks came from. Throws when there is none.
   */
  captureSampledFrame: () => string;
};

export type Clock = {
  now: () => number;
  /** Resolves after `ms`; rejects with the signal's reason when aborted first. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
};

export const realClock: Clock = {
  now: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason as Error);
        return;
      }
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason as Error);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

export type StepsSeen = Record<LivenessStep, boolean>;

export type LivenessProgress =
  | {
      status: 'prompting';
      stepIndex: number;
      /** Which prompts have been seen so far (a prompt can be seen before its turn). */
      seen: StepsSeen;
      /** Whether the last sampled frame had a face; null before the first sample of the step. */
      hasFace: boolean | null;
    }
  | { status: 'verifying'; seen: StepsSeen };

export type LivenessFailure = 'no-face' | 'still' | 'too-slow' | 'prompts-missed';

/**
 * Below this many frames a second a blink (a few hundred milliseconds) falls between samples, so
 * a missed prompt says more about the device than about the driver.
 */
export const MIN_USEFUL_FPS = 4;

export type LivenessOutcome =
  | {
      status: 'passed';
      confidence: number;
      photo: string;
      /** The four prompts' captures, which the server judges again. */
      captures: LivenessFrames;
      result: LivenessResult;
    }
  | {
      status: 'failed';
      failure: LivenessFailure;
      /** What to tell the driver. */
      message: string;
      result: LivenessResult;
    };

export const FAILURE_MESSAGES: Record<LivenessFailure, string> = {
  'no-face':
    'We could not see your face clearly. Hold the phone at arm’s length in good light, keep your whole face inside the oval, and try again.',
  still:
    'This looks like a photo, not a live face: nothing moved. Hold the camera to your own face and follow each prompt.',
  'too-slow':
    'This device is too slow to follow your movements. Close other apps and try again, or use another phone.',
  'prompts-missed':
    'We did not see every movement. Do each one while its prompt is showing, then try again.',
};

function throwIfAborted(signal?: AbortSignal) {
  if (signal?.aborted) throw signal.reason as Error;
}

/** Why a failed sequence of `durationMs` failed, the most basic cause first. */
export function classifyFailure(
  result: LivenessResult,
  { hasPhoto, durationMs }: { hasPhoto: boolean; durationMs: number },
): LivenessFailure {
  if (!hasPhoto || result.evidence.framesWithFace < 5) return 'no-face';
  if (result.evidence.motion < STILL_MOTION_LIMIT) return 'still';
  if (result.evidence.frames < (MIN_USEFUL_FPS * durationMs) / 1000) return 'too-slow';
  return 'prompts-missed';
}

/**
 * Runs the four prompts and judges them. `onProgress` reports each prompt, each sample and the
 * verifying phase. The selfie is the frame captured while the driver looks at the camera (the
 * first with a face, replaced once by one from the second half of that prompt, when they have
 * settled). Rejects with the signal's reason when aborted.
 */
export async function runLivenessCheck({
  source,
  onProgress,
  signal,
  clock = realClock,
  timing = LIVENESS_TIMING,
}: {
  source: FaceFrameSource;
  onProgress?: (progress: LivenessProgress) => void;
  signal?: AbortSignal;
  clock?: Clock;
  timing?: LivenessTiming;
}): Promise<LivenessOutcome> {
  const frames: LandmarkFrame[] = [];
  const seen: StepsSeen = { look: false, blink: false, turn_left: false, turn_right: false };
  let photo: string | null = null;
  let isPhotoSettled = false;
  const best: Partial<Record<LivenessStep, { score: number; image: string }>> = {};
  const lookYaws: number[] = [];

  for (const [stepIndex, { step }] of LIVENESS_STEPS.entries()) {
    const startedAt = clock.now();
    const endsAt = startedAt + timing.promptMs;
    onProgress?.({ status: 'prompting', stepIndex, seen: { ...seen }, hasFace: null });

    while (clock.now() < endsAt) {
      throwIfAborted(signal);
      const t = clock.now();
      const landmarks = await source.detectLandmarks();
      throwIfAborted(signal);
      frames.push({ t, landmarks });
      if (landmarks) keepIfBest(step, landmarks);

      if (step === 'look' && landmarks) {
        seen.look = true;
        const isSecondHalf = t - startedAt >= timing.promptMs / 2;
        if (photo === null || (isSecondHalf && !isPhotoSettled)) {
          try {
            photo = source.capturePhoto();
            isPhotoSettled = isSecondHalf;
          } catch {
            // Keep the earlier capture (if any); a frame that cannot be drawn is not a selfie.
          }
        }
      }
      onProgress?.({ status: 'prompting', stepIndex, seen: { ...seen }, hasFace: !!landmarks });

      const wait = Math.min(timing.sampleIntervalMs - (clock.now() - t), endsAt - clock.now());
      if (wait > 0) await clock.sleep(wait, signal);
    }
    if (step !== 'look') {
      seen[step] = evaluateLiveness(frames, { required: [step] }).prompts[step].satisfied;
    }
  }

  /** Keeps the sampled frame as the step's capture when it shows the step better than the last. */
  function keepIfBest(step: LivenessStep, landmarks: Landmarks) {
    if (step === 'look') lookYaws.push(estimateYawDeg(landmarks));
    const sorted = [...lookYaws].sort((a, b) => a - b);
    const lookYawDeg = sorted.length ? sorted[Math.floor(sorted.length / 2)]! : 0;
    const score = livenessCaptureScore(step, landmarks, { lookYawDeg });
    const current = best[step];
    if (score === null || (current && current.score >= score)) return;
    try {
      best[step] = { score, image: source.captureSampledFrame() };
    } catch {
      // A frame that cannot be drawn is no capture; keep the earlier one.
    }
  }

  onProgress?.({ status: 'verifying', seen: { ...seen } });
  const verifyingFrom = clock.now();
  // The frames are of the raw (unmirrored) camera image; only the preview is mirrored.
  const result = evaluateLiveness(frames, { required: LIVENESS_PROMPTS, mirrored: false });
  const remainingMs = timing.verifyingMs - (clock.now() - verifyingFrom);
  if (remainingMs > 0) await clock.sleep(remainingMs, signal);
  throwIfAborted(signal);

  const { look, blink, turn_left, turn_right } = best;
  if (result.passed && photo !== null && look && blink && turn_left && turn_right) {
    const captures = {
      look: look.image,
      blink: blink.image,
      turn_left: turn_left.image,
      turn_right: turn_right.image,
    };
    return { status: 'passed', confidence: result.confidence, photo, captures, result };
  }
  const failure = classifyFailure(result, {
    hasPhoto: photo !== null,
    durationMs: LIVENESS_STEPS.length * timing.promptMs,
  });
  return { status: 'failed', failure, message: FAILURE_MESSAGES[failure], result };
}
