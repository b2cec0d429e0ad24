import { describe, expect, it } from 'vitest';

import {
  estimateRollDeg,
  estimateYawDeg,
  eyeAspectRatio,
  layoutFor,
  type Point,
} from './landmarks';
import {
  type LandmarkFrame,
  type LivenessCaptures,
  detectBlinks,
  evaluateLiveness,
  judgeLivenessCaptures,
  livenessCaptureScore,
} from './liveness';

/**
 * A synthetic 68-point (iBUG) face. Head = cylinder of radius R: a point at angle phi on the face
 * projects to x = R sin(phi + yaw); the jaw contour points stay at the visible silhouette.
 */
function face68({
  yawDeg = 0,
  eyeOpen = 1,
  cx = 320,
  cy = 240,
  scale = 1,
  rollDeg = 0,
}: {
  yawDeg?: number;
  eyeOpen?: number;
  cx?: number;
  cy?: number;
  scale?: number;
  rollDeg?: number;
} = {}): Point[] {
  const R = 80;
  const yaw = (yawDeg * Math.PI) / 180;
  const project = (phiDeg: number) => R * Math.sin((phiDeg * Math.PI) / 180 + yaw);
  const pts: Point[] = [];
  // 0-16 jaw: silhouette from the subject's right (image left) to their left (image right).
  for (let i = 0; i <= 16; i++) {
    const t = i / 16;
    const x = -R + 2 * R * t;
    const y = -10 + 90 * Math.sin(Math.PI * t);
    pts.push({ x, y });
  }
  // 17-26 brows
  for (let i = 0; i < 10; i++)
    pts.push({ x: project(-50 + (i < 5 ? i * 8 : 30 + (i - 5) * 8)), y: -45 });
  // 27-30 nose bridge to tip (tip = 30 at phi 0)
  for (let i = 0; i < 4; i++) pts.push({ x: project(0), y: -30 + i * 12 });
  // 31-35 nose bottom
  for (let i = 0; i < 5; i++) pts.push({ x: project(-12 + i * 6), y: 12 });
  // 36-41 right eye, 42-47 left eye: corners at phi, lids open by eyeOpen.
  const eye = (phi0: number, phi1: number) => {
    const w = project(phi1) - project(phi0);
    const h = 0.3 * Math.abs(w) * eyeOpen;
    const xa = project(phi0);
    const xb = project(phi1);
    const at = (f: number) => xa + (xb - xa) * f;
    return [
      { x: xa, y: -25 },
      { x: at(1 / 3), y: -25 - h / 2 },
      { x: at(2 / 3), y: -25 - h / 2 },
      { x: xb, y: -25 },
      { x: at(2 / 3), y: -25 + h / 2 },
      { x: at(1 / 3), y: -25 + h / 2 },
    ];
  };
  pts.push(...eye(-45, -15), ...eye(15, 45));
  // 48-67 mouth
  for (let i = 0; i < 20; i++)
    pts.push({ x: project(-25 + (i % 10) * 5), y: 40 + (i < 10 ? 0 : 5) });
  const r = (rollDeg * Math.PI) / 180;
  return pts.map((p) => ({
    x: cx + scale * (p.x * Math.cos(r) - p.y * Math.sin(r)),
    y: cy + scale * (p.x * Math.sin(r) + p.y * Math.cos(r)),
  }));
}

/** Frames at 15 fps with slight natural jitter (landmark noise of ~0.5 px). */
function sequence(poses: Parameters<typeof face68>[0][], fps = 15): LandmarkFrame[] {
  return poses.map((pose, i) => {
    const jitter = Math.sin(i * 1.7) * 0.5;
    return {
      t: (1000 * i) / fps,
      landmarks: face68({ ...pose, cx: 320 + jitter, cy: 240 - jitter }),
    };
  });
}

const hold = (n: number, pose: Parameters<typeof face68>[0] = {}) =>
  Array.from({ length: n }, () => pose);
const ramp = (from: number, to: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({ yawDeg: from + ((to - from) * (i + 1)) / n }));
const blink = [{ eyeOpen: 0.5 }, { eyeOpen: 0.1 }, { eyeOpen: 0.3 }, { eyeOpen: 0.9 }];

describe('landmark geometry', () => {
  it('measures an open eye around 0.3 and a closed one near 0', () => {
    expect(eyeAspectRatio(face68()).mean).toBeCloseTo(0.3, 1);
    expect(eyeAspectRatio(face68({ eyeOpen: 0.05 })).mean).toBeLessThan(0.03);
  });

  it('estimates yaw with the subject-left positive convention, roughly in degrees', () => {
    expect(estimateYawDeg(face68())).toBeCloseTo(0, 5);
    expect(estimateYawDeg(face68({ yawDeg: 30 }))).toBeCloseTo(30, 0);
    expect(estimateYawDeg(face68({ yawDeg: -20 }))).toBeCloseTo(-20, 0);
  });

  it('is unchanged by moving, scaling or rotating a flat face in the image plane', () => {
    const moved = face68({ cx: 100, cy: 400, scale: 0.6, rollDeg: 25 });
    expect(estimateYawDeg(moved)).toBeCloseTo(0, 5);
    expect(estimateRollDeg(moved)).toBeCloseTo(25, 5);
    expect(eyeAspectRatio(moved).mean).toBeCloseTo(eyeAspectRatio(face68()).mean, 6);
  });

  it('knows the 68-point and mesh layouts and refuses others', () => {
    expect(layoutFor(68).name).toBe('ibug68');
    expect(layoutFor(468).name).toBe('mesh468');
    expect(layoutFor(478).name).toBe('mesh468');
    expect(() => layoutFor(5)).toThrow(RangeError);
  });
});

describe('detectBlinks', () => {
  it('needs a dip and a recovery', () => {
    const ears = [0.3, 0.31, 0.3, 0.12, 0.05, 0.2, 0.3, 0.31, 0.3, 0.3];
    const { blinks, openLevel } = detectBlinks(ears.map((ear, i) => ({ t: i * 66, ear })));
    expect(openLevel).toBeCloseTo(0.3, 1);
    expect(blinks).toHaveLength(1);
    expect(blinks[0]!.minRatio).toBeLessThan(0.2);
  });

  it('does not count eyes that close and stay closed', () => {
    const ears = [0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.05, 0.05];
    expect(detectBlinks(ears.map((ear, i) => ({ t: i * 66, ear }))).blinks).toHaveLength(0);
  });

  it('does not count a closure longer than a blink', () => {
    const ears = [0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.05, 0.05, 0.3, 0.3, 0.3, 0.3];
    const samples = ears.map((ear, i) => ({ t: i * 600, ear }));
    expect(detectBlinks(samples).blinks).toHaveLength(0);
  });
});

describe('evaluateLiveness', () => {
  it('detects a blink', () => {
    const frames = sequence([...hold(8), ...blink, ...hold(8)]);
    const result = evaluateLiveness(frames, { required: ['blink'] });
    expect(result.prompts.blink.satisfied).toBe(true);
    expect(result.passed).toBe(true);
    expect(result.confidence).toBeGreaterThan(0.7);
    expect(result.evidence.blinks).toBe(1);
  });

  it('detects a head turn to the left and not to the right', () => {
    const frames = sequence([
      ...hold(5),
      ...ramp(0, 30, 6),
      ...hold(4, { yawDeg: 30 }),
      ...ramp(30, 0, 6),
    ]);
    const result = evaluateLiveness(frames, { required: ['turn_left'] });
    expect(result.prompts.turn_left.satisfied).toBe(true);
    expect(result.prompts.turn_right.satisfied).toBe(false);
    expect(result.passed).toBe(true);
    expect(result.evidence.maxTurnLeftDeg).toBeGreaterThan(25);
  });

  it('detects a head turn to the right', () => {
    const frames = sequence([
      ...hold(5),
      ...ramp(0, -28, 6),
      ...hold(3, { yawDeg: -28 }),
      ...ramp(-28, 0, 5),
    ]);
    const result = evaluateLiveness(frames, { required: ['turn_right'] });
    expect(result.prompts.turn_right.satisfied).toBe(true);
    expect(result.prompts.turn_left.satisfied).toBe(false);
    expect(result.passed).toBe(true);
  });

  it('swaps left and right for mirrored frames', () => {
    const frames = sequence([...hold(5), ...ramp(0, 30, 6), ...hold(4, { yawDeg: 30 })]);
    const result = evaluateLiveness(frames, { required: ['turn_right'], mirrored: true });
    expect(result.prompts.turn_right.satisfied).toBe(true);
    expect(result.prompts.turn_left.satisfied).toBe(false);
  });

  it('passes blink + left + right with a confidence from the weakest prompt', () => {
    const frames = sequence([
      ...hold(5),
      ...blink,
      ...hold(4),
      ...ramp(0, 27, 5),
      ...hold(2, { yawDeg: 27 }),
      ...ramp(27, 0, 5),
      ...ramp(0, -27, 5),
      ...hold(2, { yawDeg: -27 }),
      ...ramp(-27, 0, 5),
    ]);
    const result = evaluateLiveness(frames);
    expect(result.passed).toBe(true);
    expect(result.missing).toEqual([]);
    expect(result.reasons).toEqual([]);
    const weakest = Math.min(
      result.prompts.blink.confidence,
      result.prompts.turn_left.confidence,
      result.prompts.turn_right.confidence,
    );
    expect(result.confidence).toBeCloseTo(weakest, 2);
  });

  it('fails a still photo: identical frames, no blink, no turn', () => {
    const still = face68();
    const frames = Array.from({ length: 45 }, (_, i) => ({ t: i * 66, landmarks: still }));
    const result = evaluateLiveness(frames);
    expect(result.passed).toBe(false);
    expect(result.confidence).toBe(0);
    expect(result.missing).toEqual(['blink', 'turn_left', 'turn_right']);
    expect(result.reasons.join(' ')).toMatch(/still photo/);
  });

  it('fails a printed photo waved, tilted and moved in front of the camera', () => {
    const frames = Array.from({ length: 40 }, (_, i) => ({
      t: i * 66,
      landmarks: face68({
        cx: 320 + 60 * Math.sin(i / 3),
        cy: 240 + 20 * Math.cos(i / 4),
        scale: 1 + 0.3 * Math.sin(i / 5),
        rollDeg: 20 * Math.sin(i / 6),
      }),
    }));
    const result = evaluateLiveness(frames);
    expect(result.passed).toBe(false);
    expect(result.prompts.blink.satisfied).toBe(false);
    expect(result.prompts.turn_left.satisfied).toBe(false);
    expect(result.prompts.turn_right.satisfied).toBe(false);
    expect(result.evidence.motion).toBeGreaterThan(0.1);
  });

  it('does not count a single noisy frame as a head turn', () => {
    const frames = sequence([...hold(8), { yawDeg: 30 }, ...hold(8)]);
    expect(evaluateLiveness(frames, { required: ['turn_left'] }).passed).toBe(false);
  });

  it('fails with too few frames', () => {
    const frames = sequence([{}, { eyeOpen: 0.1 }, {}]);
    const result = evaluateLiveness(frames, { required: ['blink'] });
    expect(result.passed).toBe(false);
    expect(result.reasons[0]).toMatch(/at least 5/);
  });

  it('lowers the confidence when the face is missing from some frames', () => {
    const frames = sequence([...hold(8), ...blink, ...hold(8)]);
    const full = evaluateLiveness(frames, { required: ['blink'] }).confidence;
    const gappy = [
      ...frames,
      ...Array.from({ length: 20 }, (_, i) => ({ t: 5000 + i * 66, landmarks: null })),
    ];
    const partial = evaluateLiveness(gappy, { required: ['blink'] });
    expect(partial.passed).toBe(true);
    expect(partial.confidence).toBeLessThan(full);
    expect(partial.evidence.framesWithFace).toBe(20);
  });

  it('works on mesh (468-point) landmarks', () => {
    // Place the mesh indices the logic uses; other points sit on the face centre.
    const mesh = (yawDeg: number, eyeOpen: number) => {
      const f = face68({ yawDeg, eyeOpen });
      const pts: Point[] = Array.from({ length: 468 }, () => ({ x: 320, y: 240 }));
      const map: [number, number][] = [
        [33, 36],
        [160, 37],
        [158, 38],
        [133, 39],
        [153, 40],
        [144, 41],
        [362, 42],
        [385, 43],
        [387, 44],
        [263, 45],
        [373, 46],
        [380, 47],
        [1, 30],
        [234, 0],
        [454, 16],
      ];
      for (const [m, i] of map) pts[m] = f[i]!;
      return pts.map((p, i) => [p.x + (i % 7) * 0.01 * Math.sin(yawDeg), p.y] as const);
    };
    const poses: [number, number][] = [
      [0, 1],
      [0, 1],
      [0, 1],
      [0, 1],
      [0, 0.4],
      [0, 0.1],
      [0, 1],
      [0, 1],
      [10, 1],
      [20, 1],
      [28, 1],
      [28, 1],
      [10, 1],
      [0, 1],
    ];
    const frames = poses.map(([yaw, open], i) => ({ t: i * 66, landmarks: mesh(yaw, open) }));
    const result = evaluateLiveness(frames, { required: ['blink', 'turn_left'] });
    expect(result.prompts.blink.satisfied).toBe(true);
    expect(result.prompts.turn_left.satisfied).toBe(true);
    expect(result.passed).toBe(true);
  });
});

describe("judgeLivenessCaptures (the server's verdict on the four captures)", () => {
  const genuine = (): LivenessCaptures => ({
    look: face68(),
    blink: face68({ eyeOpen: 0.1, cx: 321 }),
    turn_left: face68({ yawDeg: 26, cx: 318 }),
    turn_right: face68({ yawDeg: -24, cx: 323 }),
  });

  it('passes a look, a blink facing the camera and a turn to each side', () => {
    const result = judgeLivenessCaptures(genuine());

    expect(result).toMatchObject({ passed: true, missing: [], reasons: [] });
    expect(result.confidence).toBeGreaterThan(0.8);
    expect(result.evidence.minEyeRatio).toBeLessThan(0.2);
    expect(result.evidence.maxTurnLeftDeg).toBeGreaterThan(20);
    expect(result.evidence.maxTurnRightDeg).toBeGreaterThan(20);
  });

  it('refuses the same still photo sent four times', () => {
    const still = face68({ yawDeg: 4 });

    const result = judgeLivenessCaptures({
      look: still,
      blink: still,
      turn_left: still,
      turn_right: still,
    });

    expect(result.passed).toBe(false);
    expect(result.confidence).toBe(0);
    expect(result.missing).toEqual(['blink', 'turn_left', 'turn_right']);
    expect(result.reasons).toContain(
      'The face did not move at all: this looks like a still photo.',
    );
  });

  it('refuses a still photo moved, scaled and tilted between captures (no blink, no turn)', () => {
    const result = judgeLivenessCaptures({
      look: face68(),
      blink: face68({ cx: 360, scale: 0.9 }),
      turn_left: face68({ cx: 280, rollDeg: 15 }),
      turn_right: face68({ cy: 200, rollDeg: -15, scale: 1.1 }),
    });

    expect(result.passed).toBe(false);
    expect(result.missing).toEqual(['blink', 'turn_left', 'turn_right']);
  });

  it('needs the eyes well closed, and facing the camera, for a blink', () => {
    expect(
      judgeLivenessCaptures({ ...genuine(), blink: face68({ eyeOpen: 0.8 }) }).missing,
    ).toEqual(['blink']);
    expect(
      judgeLivenessCaptures({ ...genuine(), blink: face68({ eyeOpen: 0.1, yawDeg: 25 }) }).missing,
    ).toEqual(['blink']);
  });

  it('needs a turn of at least 18 degrees to each side, on the side asked', () => {
    expect(
      judgeLivenessCaptures({ ...genuine(), turn_left: face68({ yawDeg: 10 }) }).missing,
    ).toEqual(['turn_left']);
    const swapped = judgeLivenessCaptures({
      ...genuine(),
      turn_left: face68({ yawDeg: -25 }),
      turn_right: face68({ yawDeg: 25 }),
    });
    expect(swapped.missing).toEqual(['turn_left', 'turn_right']);
    expect(
      judgeLivenessCaptures(
        { ...genuine(), turn_left: face68({ yawDeg: -25 }), turn_right: face68({ yawDeg: 25 }) },
        { mirrored: true },
      ).passed,
    ).toBe(true);
  });

  it('says which capture had no face', () => {
    const result = judgeLivenessCaptures({ ...genuine(), turn_right: null });

    expect(result.passed).toBe(false);
    expect(result.reasons).toContain('No face was found in the "turn right" capture.');
  });
});

describe("livenessCaptureScore (which frame becomes a prompt's capture)", () => {
  const best = (
    step: Parameters<typeof livenessCaptureScore>[0],
    poses: Parameters<typeof face68>[0][],
  ) => {
    const scored = poses.map((pose) => livenessCaptureScore(step, face68(pose)));
    const top = Math.max(...scored.filter((score): score is number => score !== null));
    return poses[scored.indexOf(top)];
  };

  it('keeps the most closed eyes facing the camera, and the largest turn to the side asked', () => {
    expect(
      best('blink', [
        { eyeOpen: 1 },
        { eyeOpen: 0.2 },
        { eyeOpen: 0.05, yawDeg: 30 },
        { eyeOpen: 0.6 },
      ]),
    ).toEqual({
      eyeOpen: 0.2,
    });
    expect(best('turn_left', [{ yawDeg: 5 }, { yawDeg: 28 }, { yawDeg: -30 }])).toEqual({
      yawDeg: 28,
    });
    expect(best('turn_right', [{ yawDeg: 5 }, { yawDeg: 28 }, { yawDeg: -30 }])).toEqual({
      yawDeg: -30,
    });
    expect(best('look', [{ yawDeg: 12 }, { yawDeg: -2 }, { yawDeg: 8 }])).toEqual({ yawDeg: -2 });
  });
});
