/**
 * Real face photos for engine tests, taken at test time from the sample photos that ship inside the
 * face-api npm package (node_modules/@vladmandic/face-api/demo/sample1.jpg: three different women;
 * sample5.jpg for a frontal capture).
 * Nothing is copied into the repository.
 */

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import sharp from 'sharp';

const require = createRequire(import.meta.url);

function faceApiDir(): string {
  for (const base of require.resolve.paths('@vladmandic/face-api') ?? []) {
    const dir = path.join(base, '@vladmandic/face-api');
    if (existsSync(path.join(dir, 'package.json'))) return dir;
  }
  throw new Error('@vladmandic/face-api is not installed');
}

/** Path of a group photo shipped in the face-api package (sample1..6.jpg, 3-5 faces each). */
export function faceApiSamplePath(n: 1 | 2 | 3 | 4 | 5 | 6 = 1): string {
  return path.join(faceApiDir(), 'demo', `sample${n}.jpg`);
}

/** Crops of sample1.jpg (1920x1280) around each of its three faces, with context but no other face. */
export const SAMPLE1_CROPS = {
  left: { left: 300, top: 220, width: 400, height: 480 },
  middle: { left: 730, top: 290, width: 400, height: 480 },
  right: { left: 1370, top: 80, width: 420, height: 480 },
} as const;
export type Sample1Face = keyof typeof SAMPLE1_CROPS;

/** One person's face photo as JPEG bytes. */
export async function sampleFace(which: Sample1Face): Promise<Buffer> {
  return sharp(readFileSync(faceApiSamplePath(1)))
    .extract(SAMPLE1_CROPS[which])
    .jpeg({ quality: 92 })
    .toBuffer();
}

/**
 * A capture that passes the quality check: one frontal, sharp, well-lit face (the lower-left person of
 * sample5.jpg, measured yaw ~5°, roll ~-6°), cropped with context and no other face.
 */
export async function frontalSampleFace(): Promise<Buffer> {
  return sharp(readFileSync(faceApiSamplePath(5)))
    .extract({ left: 160, top: 740, width: 620, height: 620 })
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** Two faces side by side on one canvas (the "two people in the frame" case). */
export async function twoFacesSideBySide(a: Sample1Face, b: Sample1Face): Promise<Buffer> {
  const [fa, fb] = await Promise.all([sampleFace(a), sampleFace(b)]);
  const w = SAMPLE1_CROPS[a].width + SAMPLE1_CROPS[b].width;
  const h = Math.max(SAMPLE1_CROPS[a].height, SAMPLE1_CROPS[b].height);
  return sharp({ create: { width: w, height: h, channels: 3, background: '#808080' } })
    .composite([
      { input: fa, left: 0, top: 0 },
      { input: fb, left: SAMPLE1_CROPS[a].width, top: 0 },
    ])
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** A generated image with no face: a smooth gradient with some shapes. */
export async function noFaceImage(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480">
    <defs><linearGradient id="g"><stop offset="0" stop-color="#345"/><stop offset="1" stop-color="#cba"/></linearGradient></defs>
    <rect width="640" height="480" fill="url(#g)"/>
    <rect x="80" y="300" width="200" height="90" fill="#e8e8e8"/>
    <circle cx="470" cy="160" r="70" fill="#d9b36c"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}
