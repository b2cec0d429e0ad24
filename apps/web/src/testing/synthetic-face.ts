/**
 * Synthetic 68-point (iBUG) face landmarks for liveness tests: a head modelled as a cylinder, so a
 * yaw moves the inner features while the jaw silhouette stays, and eyelids that open and close.
 * Positive yaw is a turn to the subject's LEFT (nose towards the right of an unmirrored frame).
 */
export type Pose = {
  yawDeg?: number;
  /** 1 = open, 0 = shut. */
  eyeOpen?: number;
  cx?: number;
  cy?: number;
  scale?: number;
  rollDeg?: number;
};

export type Point = { x: number; y: number };

export function syntheticFace({
  yawDeg = 0,
  eyeOpen = 1,
  cx = 320,
  cy = 240,
  scale = 1,
  rollDeg = 0,
}: Pose = {}): Point[] {
  const radius = 80;
  const yaw = (yawDeg * Math.PI) / 180;
  const project = (phiDeg: number) => radius * Math.sin((phiDeg * Math.PI) / 180 + yaw);
  const points: Point[] = [];
  // 0–16 jaw, from the subject's right (image left) to their left.
  for (let i = 0; i <= 16; i++) {
    const t = i / 16;
    points.push({ x: -radius + 2 * radius * t, y: -10 + 90 * Math.sin(Math.PI * t) });
  }
  // 17–26 brows
  for (let i = 0; i < 10; i++) {
    points.push({ x: project(-50 + (i < 5 ? i * 8 : 30 + (i - 5) * 8)), y: -45 });
  }
  // 27–30 nose bridge down to the tip (30)
  for (let i = 0; i < 4; i++) points.push({ x: project(0), y: -30 + i * 12 });
  // 31–35 nose bottom
  for (let i = 0; i < 5; i++) points.push({ x: project(-12 + i * 6), y: 12 });
  // 36–41 right eye, 42–47 left eye
  const eye = (from: number, to: number): Point[] => {
    const xa = project(from);
    const xb = project(to);
    const lid = 0.3 * Math.abs(xb - xa) * eyeOpen;
    const at = (f: number) => xa + (xb - xa) * f;
    return [
      { x: xa, y: -25 },
      { x: at(1 / 3), y: -25 - lid / 2 },
      { x: at(2 / 3), y: -25 - lid / 2 },
      { x: xb, y: -25 },
      { x: at(2 / 3), y: -25 + lid / 2 },
      { x: at(1 / 3), y: -25 + lid / 2 },
    ];
  };
  points.push(...eye(-45, -15), ...eye(15, 45));
  // 48–67 mouth
  for (let i = 0; i < 20; i++) {
    points.push({ x: project(-25 + (i % 10) * 5), y: 40 + (i < 10 ? 0 : 5) });
  }
  const roll = (rollDeg * Math.PI) / 180;
  return points.map((p) => ({
    x: cx + scale * (p.x * Math.cos(roll) - p.y * Math.sin(roll)),
    y: cy + scale * (p.x * Math.sin(roll) + p.y * Math.cos(roll)),
  }));
}

/** Landmark noise of about half a pixel, as a real model gives on a live face. */
export function withJitter(points: Point[], seed: number): Point[] {
  return points.map((p, i) => ({
    x: p.x + 0.5 * Math.sin(seed * 1.7 + i),
    y: p.y + 0.5 * Math.cos(seed * 2.3 + i),
  }));
}

/**
 * A driver who follows the four 2-second prompts (look, blink, turn left, turn right), as a pose
 * for `fraction` = elapsed time ÷ one prompt's duration (0–4).
 */
export function livePerson(fraction: number): Pose {
  if (fraction >= 1.3 && fraction < 1.45) return { eyeOpen: 0.1 };
  if (fraction >= 2.2 && fraction < 3) return { yawDeg: 30 };
  if (fraction >= 3.2) return { yawDeg: -30 };
  return {};
}

/** A photo held still in front of the camera: the same frontal face, every frame, no noise. */
export function stillPhoto(): Pose {
  return {};
}
