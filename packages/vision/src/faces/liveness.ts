/**
 * Active liveness from landmark sequences: did the driver blink, and turn their head left / right when
 * asked? The browser runs a landmark model on the camera stream and passes the frames here.
 *
 * Pure module with NO Node-only imports: the web app imports it directly.
 *
 * What it can and cannot tell: a still photo (printed or on a screen) shows no blink and no yaw change,
 * and the yaw estimate is unchanged by moving or tilting a flat photo (see `estimateYawDeg`), so a photo
 * fails. A replayed video of the real driver can pass: pair this with the passive anti-spoof score and
 * the guard's own eyes.
 */

import {
  type LandmarkPoint,
  estimateYawDeg,
  eyeAspectRatio,
  interocularDistance,
  toPoint,
} from './landmarks';

/** The measures the browser also uses to choose each prompt's capture. */
export { estimateYawDeg, eyeAspectRatio } from './landmarks';

export type LivenessPrompt = 'blink' | 'turn_left' | 'turn_right';
export const LIVENESS_PROMPTS: readonly LivenessPrompt[] = ['blink', 'turn_left', 'turn_right'];

export type LandmarkFrame = {
  /** Capture time in milliseconds (any origin, increasing). */
  t: number;
  /** 68 (iBUG) or 468/478 (mesh) points of the one face in the frame; null when no face was found. */
  landmarks: readonly LandmarkPoint[] | null;
};

export type LivenessOptions = {
  /** Prompts the driver was asked to do; all must be satisfied. Default: all three. */
  required?: readonly LivenessPrompt[];
  /** True when the landmarks come from a mirrored (selfie-preview) image: flips left and right. */
  mirrored?: boolean;
  /** A blink is an eye aspect ratio at or below this fraction of the open-eye level. Default 0.7. */
  blinkCloseRatio?: number;
  /** ...followed by recovery to at least this fraction of the open-eye level. Default 0.85. */
  blinkOpenRatio?: number;
  /** Longest eye closure still counted as a blink, ms. Default 1000. */
  blinkMaxClosedMs?: number;
  /** Head turn needed, degrees of yaw away from the starting pose. Default 18. */
  turnDeg?: number;
  /** Consecutive frames beyond `turnDeg` needed for a turn. Default 2. */
  turnMinFrames?: number;
  /** Fewer frames with a face than this: not enough evidence. Default 5. */
  minFrames?: number;
};

export type PromptEvidence = {
  satisfied: boolean;
  /** 0..1: how clearly the movement was seen (0 when not satisfied). */
  confidence: number;
};

export type LivenessResult = {
  /** True when every required prompt was satisfied and the face moved at all. */
  passed: boolean;
  /** 0..1, the weakest required prompt's confidence scaled by the share of frames with a face. */
  confidence: number;
  prompts: Record<LivenessPrompt, PromptEvidence>;
  /** Required prompts that were not seen, in the order they were required. */
  missing: LivenessPrompt[];
  evidence: {
    frames: number;
    framesWithFace: number;
    blinks: number;
    /** Lowest eye aspect ratio relative to the open-eye level (1 = never closed). */
    minEyeRatio: number;
    /** Largest turn seen to the subject's left / right, degrees from the starting pose. */
    maxTurnLeftDeg: number;
    maxTurnRightDeg: number;
    /** Largest landmark movement between any two frames, in inter-ocular distances. */
    motion: number;
  };
  /** Human-readable reasons for a failure (empty when passed). */
  reasons: string[];
};

const DEFAULTS = {
  blinkCloseRatio: 0.7,
  blinkOpenRatio: 0.85,
  blinkMaxClosedMs: 1000,
  turnDeg: 18,
  turnMinFrames: 2,
  minFrames: 5,
};

/** Below this landmark motion (inter-ocular distances) the sequence is treated as a still image. */
export const STILL_MOTION_LIMIT = 0.02;
/** A blink is not counted while the head is turned more than this (turning changes the eye shape). */
const BLINK_MAX_YAW_DEG = 12;

function clamp01(v: number): number {
  return Math.max(0, Math.min(1, v));
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function quantile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}

type Sample = { t: number; ear: number; yaw: number; points: readonly LandmarkPoint[] };

export type BlinkEvent = { start: number; end: number; minRatio: number; recoveredRatio: number };

/**
 * Blinks in an eye-aspect-ratio series: open (>= openRatio of the open-eye level) -> closed
 * (<= closeRatio) -> open again, closed for at most maxClosedMs, with the head roughly still facing
 * the camera while closed. The open-eye level is the 80th percentile of the series (blinks are rare).
 */
export function detectBlinks(
  samples: readonly { t: number; ear: number; yaw?: number }[],
  {
    closeRatio = DEFAULTS.blinkCloseRatio,
    openRatio = DEFAULTS.blinkOpenRatio,
    maxClosedMs = DEFAULTS.blinkMaxClosedMs,
    yawReference = 0,
  }: { closeRatio?: number; openRatio?: number; maxClosedMs?: number; yawReference?: number } = {},
): { blinks: BlinkEvent[]; openLevel: number; minRatio: number } {
  if (samples.length === 0) return { blinks: [], openLevel: 0, minRatio: 1 };
  const openLevel = quantile(
    samples.map((s) => s.ear),
    0.8,
  );
  if (openLevel <= 0) return { blinks: [], openLevel, minRatio: 1 };
  const blinks: BlinkEvent[] = [];
  let minRatio = 1;
  let wasOpen = false;
  let closedSince: number | null = null;
  let closedMin = 1;
  let blockedByTurn = false;
  for (const s of samples) {
    const ratio = s.ear / openLevel;
    minRatio = Math.min(minRatio, ratio);
    const turned = Math.abs((s.yaw ?? yawReference) - yawReference) > BLINK_MAX_YAW_DEG;
    if (ratio <= closeRatio) {
      if (wasOpen && closedSince === null) {
        closedSince = s.t;
        closedMin = ratio;
        blockedByTurn = turned;
      } else if (closedSince !== null) {
        closedMin = Math.min(closedMin, ratio);
        blockedByTurn ||= turned;
      }
    } else if (ratio >= openRatio) {
      if (closedSince !== null && !blockedByTurn && s.t - closedSince <= maxClosedMs) {
        blinks.push({ start: closedSince, end: s.t, minRatio: closedMin, recoveredRatio: ratio });
      }
      closedSince = null;
      wasOpen = !turned;
    }
    // Between closeRatio and openRatio: half-closed, keep the current state.
  }
  return { blinks, openLevel, minRatio };
}

/** Largest motion of any landmark between frames, in inter-ocular distances. */
function landmarkMotion(samples: readonly Sample[]): number {
  const first = samples[0];
  if (!first) return 0;
  const unit = interocularDistance(first.points) || 1;
  let max = 0;
  for (const s of samples) {
    for (let i = 0; i < s.points.length; i++) {
      const a = toPoint(first.points[i]!);
      const b = toPoint(s.points[i]!);
      max = Math.max(max, Math.hypot(a.x - b.x, a.y - b.y) / unit);
    }
  }
  return max;
}

/** Longest run of consecutive samples meeting `pred`; returns the run length. */
function longestRun<T>(items: readonly T[], pred: (item: T) => boolean): number {
  let best = 0;
  let run = 0;
  for (const item of items) {
    run = pred(item) ? run + 1 : 0;
    best = Math.max(best, run);
  }
  return best;
}

export function evaluateLiveness(
  frames: readonly LandmarkFrame[],
  options: LivenessOptions = {},
): LivenessResult {
  const opts = { ...DEFAULTS, ...options };
  const required = [...(options.required ?? LIVENESS_PROMPTS)];
  const sign = options.mirrored ? -1 : 1;

  const samples: Sample[] = [];
  for (const f of [...frames].sort((a, b) => a.t - b.t)) {
    if (!f.landmarks || f.landmarks.length === 0) continue;
    samples.push({
      t: f.t,
      ear: eyeAspectRatio(f.landmarks).mean,
      yaw: sign * estimateYawDeg(f.landmarks),
      points: f.landmarks,
    });
  }

  const reasons: string[] = [];
  const motion = landmarkMotion(samples);
  // The starting pose: the driver is asked to look at the camera first.
  const yaw0 = samples.length ? median(samples.slice(0, 3).map((s) => s.yaw)) : 0;
  const blink = detectBlinks(samples, {
    closeRatio: opts.blinkCloseRatio,
    openRatio: opts.blinkOpenRatio,
    maxClosedMs: opts.blinkMaxClosedMs,
    yawReference: yaw0,
  });
  const turns = samples.map((s) => s.yaw - yaw0);
  const maxLeft = Math.max(0, ...turns);
  const maxRight = Math.max(0, ...turns.map((d) => -d));
  const leftRun = longestRun(turns, (d) => d >= opts.turnDeg);
  const rightRun = longestRun(turns, (d) => -d >= opts.turnDeg);

  const best = blink.blinks.reduce<BlinkEvent | null>(
    (acc, b) => (!acc || b.minRatio < acc.minRatio ? b : acc),
    null,
  );
  const prompts: Record<LivenessPrompt, PromptEvidence> = {
    blink: best
      ? {
          satisfied: true,
          // A full blink drops the ratio by ~60 %; 30 % (the threshold) gives 0.5.
          confidence: clamp01((1 - best.minRatio) / 0.6) * clamp01(best.recoveredRatio / 0.95),
        }
      : { satisfied: false, confidence: 0 },
    turn_left:
      leftRun >= opts.turnMinFrames
        ? { satisfied: true, confidence: clamp01(maxLeft / (1.5 * opts.turnDeg)) }
        : { satisfied: false, confidence: 0 },
    turn_right:
      rightRun >= opts.turnMinFrames
        ? { satisfied: true, confidence: clamp01(maxRight / (1.5 * opts.turnDeg)) }
        : { satisfied: false, confidence: 0 },
  };

  if (samples.length < opts.minFrames) {
    reasons.push(
      `Only ${samples.length} frame(s) with a face; at least ${opts.minFrames} are needed. Keep the face in view.`,
    );
  }
  const still = samples.length > 0 && motion < STILL_MOTION_LIMIT;
  if (still) reasons.push('The face did not move at all: this looks like a still photo.');
  const missing = required.filter((p) => !prompts[p].satisfied);
  const prompt: Record<LivenessPrompt, string> = {
    blink: 'No blink was seen.',
    turn_left: 'No head turn to the left was seen.',
    turn_right: 'No head turn to the right was seen.',
  };
  for (const p of missing) reasons.push(prompt[p]);

  const passed = reasons.length === 0;
  const coverage = frames.length ? samples.length / frames.length : 0;
  const weakest = required.length ? Math.min(...required.map((p) => prompts[p].confidence)) : 1;
  return {
    passed,
    confidence: passed ? Math.round(100 * weakest * coverage) / 100 : 0,
    prompts,
    missing,
    evidence: {
      frames: frames.length,
      framesWithFace: samples.length,
      blinks: blink.blinks.length,
      minEyeRatio: Math.round(1000 * blink.minRatio) / 1000,
      maxTurnLeftDeg: Math.round(10 * maxLeft) / 10,
      maxTurnRightDeg: Math.round(10 * maxRight) / 10,
      motion: Math.round(1000 * motion) / 1000,
    },
    reasons,
  };
}

// ---- The four captures the server judges ---------------------------------------------------------

/** The four prompts of the check, each with the capture that shows it best. */
export type LivenessCaptureStep = 'look' | LivenessPrompt;
export const LIVENESS_CAPTURE_STEPS: readonly LivenessCaptureStep[] = [
  'look',
  'blink',
  'turn_left',
  'turn_right',
];

/** The landmarks of each capture's one face (null: no face). */
export type LivenessCaptures = Record<LivenessCaptureStep, readonly LandmarkPoint[] | null>;

/**
 * How well a sampled frame shows its step, higher is better; null when it cannot show it. The
 * browser keeps the best-scoring frame of each prompt as that prompt's capture: the most closed eyes
 * while facing the camera for `blink`, the largest turn away from the starting pose for the turns,
 * and the most frontal face for `look`. `lookYawDeg` is the starting pose (0 before it is known).
 */
export function livenessCaptureScore(
  step: LivenessCaptureStep,
  landmarks: readonly LandmarkPoint[],
  { lookYawDeg = 0, mirrored = false }: { lookYawDeg?: number; mirrored?: boolean } = {},
): number | null {
  const yaw = (mirrored ? -1 : 1) * estimateYawDeg(landmarks);
  switch (step) {
    case 'look':
      return -Math.abs(yaw);
    case 'blink':
      return Math.abs(yaw - lookYawDeg) > BLINK_MAX_YAW_DEG
        ? null
        : -eyeAspectRatio(landmarks).mean;
    case 'turn_left':
      return yaw - lookYawDeg;
    case 'turn_right':
      return lookYawDeg - yaw;
  }
}

/**
 * The server's verdict on the four captures of a liveness check: the same landmark measures as
 * `evaluateLiveness`, on one frame per prompt. The look capture is the reference: the blink capture's
 * eyes must be closed to at most `blinkCloseRatio` of its eye opening while still facing the camera,
 * and the turn captures must be at least `turnDeg` to each side of its pose. The same still photo
 * sent four times shows no motion, no blink and no turn.
 */
export function judgeLivenessCaptures(
  captures: LivenessCaptures,
  options: Pick<LivenessOptions, 'mirrored' | 'blinkCloseRatio' | 'turnDeg'> = {},
): LivenessResult {
  const closeRatio = options.blinkCloseRatio ?? DEFAULTS.blinkCloseRatio;
  const turnDeg = options.turnDeg ?? DEFAULTS.turnDeg;
  const sign = options.mirrored ? -1 : 1;
  const reasons: string[] = [];
  const stepNames: Record<LivenessCaptureStep, string> = {
    look: 'look at the camera',
    blink: 'blink',
    turn_left: 'turn left',
    turn_right: 'turn right',
  };
  for (const step of LIVENESS_CAPTURE_STEPS) {
    if (!captures[step]?.length)
      reasons.push(`No face was found in the "${stepNames[step]}" capture.`);
  }
  const withFace = LIVENESS_CAPTURE_STEPS.filter((step) => captures[step]?.length);
  const samples: Sample[] = withFace.map((step, t) => {
    const points = captures[step]!;
    return { t, ear: eyeAspectRatio(points).mean, yaw: sign * estimateYawDeg(points), points };
  });
  const motion = samples.length === LIVENESS_CAPTURE_STEPS.length ? landmarkMotion(samples) : 0;
  const sampleOf = (step: LivenessCaptureStep) => samples[withFace.indexOf(step)];
  const look = sampleOf('look');
  const blink = sampleOf('blink');
  const left = sampleOf('turn_left');
  const right = sampleOf('turn_right');

  const eyeRatio = look && blink && look.ear > 0 ? blink.ear / look.ear : 1;
  const blinkFacing = !!look && !!blink && Math.abs(blink.yaw - look.yaw) <= BLINK_MAX_YAW_DEG;
  const turnLeftDeg = look && left ? left.yaw - look.yaw : 0;
  const turnRightDeg = look && right ? look.yaw - right.yaw : 0;
  const prompts: Record<LivenessPrompt, PromptEvidence> = {
    blink:
      blinkFacing && eyeRatio <= closeRatio
        ? { satisfied: true, confidence: clamp01((1 - eyeRatio) / 0.6) }
        : { satisfied: false, confidence: 0 },
    turn_left:
      turnLeftDeg >= turnDeg
        ? { satisfied: true, confidence: clamp01(turnLeftDeg / (1.5 * turnDeg)) }
        : { satisfied: false, confidence: 0 },
    turn_right:
      turnRightDeg >= turnDeg
        ? { satisfied: true, confidence: clamp01(turnRightDeg / (1.5 * turnDeg)) }
        : { satisfied: false, confidence: 0 },
  };
  if (samples.length === LIVENESS_CAPTURE_STEPS.length && motion < STILL_MOTION_LIMIT) {
    reasons.push('The face did not move at all: this looks like a still photo.');
  }
  const missing = LIVENESS_PROMPTS.filter((prompt) => !prompts[prompt].satisfied);
  if (look) {
    const why: Record<LivenessPrompt, string> = {
      blink: 'No blink was seen.',
      turn_left: 'No head turn to the left was seen.',
      turn_right: 'No head turn to the right was seen.',
    };
    for (const prompt of missing) if (sampleOf(prompt)) reasons.push(why[prompt]);
  }
  const passed = reasons.length === 0;
  return {
    passed,
    confidence: passed
      ? Math.round(100 * Math.min(...LIVENESS_PROMPTS.map((p) => prompts[p].confidence))) / 100
      : 0,
    prompts,
    missing,
    evidence: {
      frames: LIVENESS_CAPTURE_STEPS.length,
      framesWithFace: samples.length,
      blinks: prompts.blink.satisfied ? 1 : 0,
      minEyeRatio: Math.round(1000 * eyeRatio) / 1000,
      maxTurnLeftDeg: Math.round(10 * Math.max(0, turnLeftDeg)) / 10,
      maxTurnRightDeg: Math.round(10 * Math.max(0, turnRightDeg)) / 10,
      motion: Math.round(1000 * motion) / 1000,
    },
    reasons,
  };
}
