import type { LivenessFrames } from '@boomgate/contracts/drivers';
import { FACE_MATCH_THRESHOLD } from '@boomgate/contracts/faces';
import {
  LIVENESS_CAPTURE_STEPS,
  type LivenessCaptureStep,
  type LivenessCaptures,
  type LivenessResult,
  judgeLivenessCaptures,
} from '@boomgate/vision/liveness';

import type { UserVisionEngine } from '@/modules/vision';
import { AppError } from '@/platform/errors';

type FaceEngine = Pick<ReturnType<UserVisionEngine['forUser']>, 'compareFaceToDescriptor'>;

const STEP_NAMES: Record<LivenessCaptureStep, string> = {
  look: 'look at the camera',
  blink: 'blink',
  turn_left: 'turn left',
  turn_right: 'turn right',
};

const refuse = (detail: string) =>
  new AppError('UNPROCESSABLE', `Liveness check failed: ${detail} Please take the check again.`);

/**
 * The server's own liveness verdict (issue 20): the face engine finds the one face in each of the
 * four captures and its 68 landmarks, each must be the selfie's person (score at least 70), and
 * `judgeLivenessCaptures` (packages/vision, the same landmark measures the browser uses) must see a
 * blink and a turn to each side. Whatever confidence the browser claims plays no part.
 */
export async function checkLivenessCaptures(
  faces: FaceEngine,
  selfieDescriptor: number[],
  frames: Record<keyof LivenessFrames, Uint8Array>,
): Promise<LivenessResult> {
  const captures = {} as Record<LivenessCaptureStep, LivenessCaptures[LivenessCaptureStep]>;
  // One after another: the user's vision budget holds a few reads, and this stops at the first
  // capture that fails, without reading the rest.
  for (const step of LIVENESS_CAPTURE_STEPS) {
    const result = await faces.compareFaceToDescriptor(frames[step], selfieDescriptor);
    const name = `the "${STEP_NAMES[step]}" capture`;
    if (!result.ok) {
      if (result.error.kind === 'no_face') {
        captures[step] = null;
        continue;
      }
      if (result.error.kind === 'multiple_faces') {
        throw refuse(`${name} shows more than one face. Only the driver may be in the frame.`);
      }
      throw refuse(`${name} could not be checked (${result.error.message})`);
    }
    if (result.matchScore < FACE_MATCH_THRESHOLD) {
      throw refuse(`${name} does not show the same person as the selfie.`);
    }
    captures[step] = result.face.landmarks;
  }
  const verdict = judgeLivenessCaptures(captures, { mirrored: false });
  if (!verdict.passed) throw refuse(verdict.reasons.join(' '));
  return verdict;
}
