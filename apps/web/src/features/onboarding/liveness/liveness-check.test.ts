import { describe, expect, it, vi } from 'vitest';

import {
  livePerson,
  type Pose,
  stillPhoto,
  syntheticFace,
  withJitter,
} from '@/testing/synthetic-face';

import {
  type Clock,
  FAILURE_MESSAGES,
  type FaceFrameSource,
  LIVENESS_TIMING,
  type LivenessProgress,
  runLivenessCheck,
} from './liveness-check';

/** Virtual time: sleeping advances it at once, and each detection takes `detectionMs`. */
function fakeClock(): Clock & { advance: (ms: number) => void } {
  let now = 1000;
  return {
    now: () => now,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      now += ms;
    },
    advance: (ms) => {
      now += ms;
    },
  };
}

/**
 * The detector, faked at its boundary: landmarks of the scripted pose at the current (virtual)
 * time; `null` from the script means no face in the frame.
 */
function fakeSource(
  clock: ReturnType<typeof fakeClock>,
  script: (fraction: number) => Pose | null,
  { detectionMs = 0, isNoisy = true } = {},
) {
  const startedAt = clock.now();
  let calls = 0;
  const photos: number[] = [];
  /** The pose of each detection, so a capture names the frame it came from. */
  const poses: (Pose | null)[] = [];
  const source: FaceFrameSource = {
    detectLandmarks: async () => {
      const fraction = (clock.now() - startedAt) / LIVENESS_TIMING.promptMs;
      clock.advance(detectionMs);
      calls += 1;
      const pose = script(fraction);
      poses.push(pose);
      if (!pose) return null;
      const face = syntheticFace(pose);
      return isNoisy ? withJitter(face, calls) : face;
    },
    capturePhoto: () => {
      photos.push(clock.now() - startedAt);
      return `data:image/jpeg;base64,photo-${photos.length}`;
    },
    captureSampledFrame: () => `frame-${calls}`,
  };
  /** The pose of the frame a capture (`frame-N`) was taken from. */
  const poseOf = (capture: string) => poses[Number(capture.replace('frame-', '')) - 1];
  return { source, photos, calls: () => calls, poseOf };
}

async function run(
  script: (fraction: number) => Pose | null,
  options: { detectionMs?: number; isNoisy?: boolean } = {},
) {
  const clock = fakeClock();
  const fake = fakeSource(clock, script, options);
  const progress: LivenessProgress[] = [];
  const startedAt = clock.now();
  const outcome = await runLivenessCheck({
    source: fake.source,
    clock,
    onProgress: (update) => progress.push(update),
  });
  return { outcome, progress, fake, elapsedMs: clock.now() - startedAt };
}

describe('runLivenessCheck', () => {
  it('passes a driver who looks, blinks and turns both ways, with the confidence it saw', async () => {
    const { outcome, fake } = await run(livePerson);

    expect(outcome.status).toBe('passed');
    if (outcome.status !== 'passed') return;
    expect(outcome.result.passed).toBe(true);
    expect(outcome.confidence).toBe(outcome.result.confidence);
    expect(outcome.confidence).toBeGreaterThan(0.5);
    expect(outcome.confidence).toBeLessThanOrEqual(1);
    expect(outcome.result.evidence.blinks).toBeGreaterThanOrEqual(1);
    // ~10 fps over four 2 s prompts.
    expect(fake.calls()).toBe(80);
  });

  it('keeps the frame that shows each prompt best, for the server to judge again', async () => {
    const { outcome, fake } = await run(livePerson, { isNoisy: false });

    expect(outcome.status).toBe('passed');
    if (outcome.status !== 'passed') return;
    const { look, blink, turn_left: turnLeft, turn_right: turnRight } = outcome.captures;
    expect(fake.poseOf(look)?.yawDeg ?? 0).toBe(0);
    expect(fake.poseOf(blink)?.eyeOpen).toBeLessThan(0.3);
    expect(fake.poseOf(turnLeft)?.yawDeg).toBeGreaterThanOrEqual(18);
    expect(fake.poseOf(turnRight)?.yawDeg).toBeLessThanOrEqual(-18);
  });

  it('goes through the four prompts in order, then verifying, in 2 s steps', async () => {
    const { progress, elapsedMs } = await run(livePerson);

    const phases = progress
      .map((update) => (update.status === 'prompting' ? `prompt-${update.stepIndex}` : 'verifying'))
      .filter((phase, index, all) => phase !== all[index - 1]);
    expect(phases).toEqual(['prompt-0', 'prompt-1', 'prompt-2', 'prompt-3', 'verifying']);
    expect(elapsedMs).toBe(4 * LIVENESS_TIMING.promptMs + LIVENESS_TIMING.verifyingMs);

    const verifying = progress.at(-1);
    expect(verifying).toEqual({
      status: 'verifying',
      seen: { look: true, blink: true, turn_left: true, turn_right: true },
    });
  });

  it('marks each prompt as seen once its movement shows', async () => {
    const { progress } = await run(livePerson);
    const lastOf = (stepIndex: number) =>
      progress.filter((u) => u.status === 'prompting' && u.stepIndex === stepIndex).at(-1);

    expect(lastOf(0)?.seen).toEqual({
      look: true,
      blink: false,
      turn_left: false,
      turn_right: false,
    });
    // Blink is judged at the end of its prompt, so it shows from the next prompt on.
    expect(lastOf(2)?.seen).toMatchObject({ blink: true, turn_left: false });
    expect(lastOf(3)?.seen).toMatchObject({ blink: true, turn_left: true, turn_right: false });
  });

  it('takes the selfie while the driver looks at the camera, settled in the second half', async () => {
    const { outcome, fake } = await run(livePerson);

    expect(fake.photos).toHaveLength(2);
    expect(fake.photos[0]).toBe(0);
    expect(fake.photos[1]).toBeGreaterThanOrEqual(LIVENESS_TIMING.promptMs / 2);
    expect(fake.photos[1]).toBeLessThan(LIVENESS_TIMING.promptMs);
    expect(outcome.status === 'passed' && outcome.photo).toBe('data:image/jpeg;base64,photo-2');
  });

  it('fails a still photo held to the camera, saying it looks like a photo', async () => {
    const { outcome } = await run(stillPhoto, { isNoisy: false });

    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.failure).toBe('still');
    expect(outcome.message).toBe(FAILURE_MESSAGES.still);
    expect(outcome.result.evidence.framesWithFace).toBe(80);
    expect(outcome.result.missing).toEqual(['blink', 'turn_left', 'turn_right']);
  });

  it('fails a photo moved around in front of the camera: no blink, no real turn', async () => {
    const { outcome } = await run(
      (fraction) => ({ cx: 320 + 40 * Math.sin(fraction * 3), rollDeg: 10 * fraction }),
      { isNoisy: true },
    );

    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.failure).toBe('prompts-missed');
    expect(outcome.result.missing).toEqual(['blink', 'turn_left', 'turn_right']);
  });

  it('fails a live face that never blinks, naming what was missed', async () => {
    const { outcome } = await run((fraction) => {
      const pose = livePerson(fraction);
      return { ...pose, eyeOpen: 1 };
    });

    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.failure).toBe('prompts-missed');
    expect(outcome.result.missing).toEqual(['blink']);
  });

  it('fails when no face is in view', async () => {
    const { outcome, fake } = await run(() => null);

    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.failure).toBe('no-face');
    expect(outcome.message).toBe(FAILURE_MESSAGES['no-face']);
    expect(fake.photos).toHaveLength(0);
  });

  it('fails when the face appears only after the look prompt (no selfie)', async () => {
    const { outcome } = await run((fraction) => (fraction < 1 ? null : livePerson(fraction)));

    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.failure).toBe('no-face');
  });

  it('reports whether the last frame had a face', async () => {
    const { progress } = await run((fraction) => (fraction < 0.5 ? null : livePerson(fraction)));
    const firstStep = progress.filter((u) => u.status === 'prompting' && u.stepIndex === 0);

    expect(firstStep[0]).toMatchObject({ hasFace: null });
    expect(firstStep[1]).toMatchObject({ hasFace: false });
    expect(firstStep.at(-1)).toMatchObject({ hasFace: true });
  });

  it('samples fewer frames with a slow model, and keeps the 2 s prompts', async () => {
    const { fake, elapsedMs } = await run(livePerson, { detectionMs: 250 });

    // 2000 / 250 = 8 frames per prompt; each prompt ends at its 2 s mark (plus one detection).
    expect(fake.calls()).toBe(32);
    expect(elapsedMs).toBe(4 * LIVENESS_TIMING.promptMs + LIVENESS_TIMING.verifyingMs);
  });

  it('blames a device too slow to see a blink, not the driver', async () => {
    // 400 ms a frame is 2.5 fps: a 100 ms blink falls between samples.
    const quickBlink = (fraction: number): Pose => {
      const pose = livePerson(fraction);
      if (pose.eyeOpen === undefined) return pose;
      return fraction >= 1.325 && fraction < 1.375 ? pose : {};
    };
    const { outcome, fake } = await run(quickBlink, { detectionMs: 400 });

    expect(fake.calls()).toBe(20);
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.result.missing).toContain('blink');
    expect(outcome.failure).toBe('too-slow');
    expect(outcome.message).toBe(FAILURE_MESSAGES['too-slow']);
  });

  it('still calls a still photo a photo on a slow device', async () => {
    const { outcome } = await run(stillPhoto, { detectionMs: 700, isNoisy: false });

    expect(outcome.status === 'failed' && outcome.failure).toBe('still');
  });

  it('stops when aborted', async () => {
    const clock = fakeClock();
    const controller = new AbortController();
    const { source } = fakeSource(clock, livePerson);
    const detect = vi.spyOn(source, 'detectLandmarks');
    const check = runLivenessCheck({
      source,
      clock,
      signal: controller.signal,
      onProgress: (update) => {
        if (update.status === 'prompting' && update.stepIndex === 1) controller.abort();
      },
    });

    await expect(check).rejects.toMatchObject({ name: 'AbortError' });
    expect(detect.mock.calls.length).toBeLessThanOrEqual(21);
  });
});
