/**
 * A fake camera for Chromium: a still face photo as a YUV4MPEG2 (I420) file for
 * `--use-file-for-fake-video-capture`. The face comes from an npm package
 * (@vladmandic/face-api's demo sample), cropped and converted here at test time.
 */
import { createRequire } from 'node:module';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

import sharp from 'sharp';

const require = createRequire(import.meta.url);

export const FAKE_CAMERA_SIZE = { width: 640, height: 480 } as const;

/** sample1.jpg (1920×1280): the woman on the right, face centred in a 640×480 frame. */
const SAMPLE = { file: 'demo/sample1.jpg', left: 1240, top: 60 } as const;

/** Full-range BT.601 (JPEG) RGB → YUV 4:2:0 planes. */
export function rgbToI420(rgb: Buffer, width: number, height: number): Buffer {
  const ySize = width * height;
  const cWidth = width / 2;
  const cSize = cWidth * (height / 2);
  const out = Buffer.alloc(ySize + 2 * cSize);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const [r, g, b] = [rgb[i]!, rgb[i + 1]!, rgb[i + 2]!];
      out[y * width + x] = Math.round(0.299 * r + 0.587 * g + 0.114 * b);
    }
  }
  for (let cy = 0; cy < height / 2; cy++) {
    for (let cx = 0; cx < cWidth; cx++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const) {
        const i = ((2 * cy + dy) * width + (2 * cx + dx)) * 3;
        r += rgb[i]!;
        g += rgb[i + 1]!;
        b += rgb[i + 2]!;
      }
      [r, g, b] = [r / 4, g / 4, b / 4];
      const u = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b;
      const v = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b;
      const clamp = (value: number) => Math.max(0, Math.min(255, Math.round(value)));
      out[ySize + cy * cWidth + cx] = clamp(u);
      out[ySize + cSize + cy * cWidth + cx] = clamp(v);
    }
  }
  return out;
}

/** Writes `frames` copies of the still face as a Y4M file and returns its path. */
export async function writeStillFaceY4m(directory: string, frames = 10): Promise<string> {
  const faceApiDir = path.dirname(require.resolve('@vladmandic/face-api/package.json'));
  const { width, height } = FAKE_CAMERA_SIZE;
  const rgb = await sharp(path.join(faceApiDir, SAMPLE.file))
    .extract({ left: SAMPLE.left, top: SAMPLE.top, width, height })
    .removeAlpha()
    .raw()
    .toBuffer();
  const frame = rgbToI420(rgb, width, height);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  const frameHeader = Buffer.from('FRAME\n');
  const file = path.join(directory, 'still-face.y4m');
  await writeFile(
    file,
    Buffer.concat([header, ...Array.from({ length: frames }, () => [frameHeader, frame]).flat()]),
  );
  return file;
}

/** Chromium flags for a fake camera that shows `y4mFile`, permission granted. */
export function fakeCameraArgs(y4mFile: string): string[] {
  return [
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    `--use-file-for-fake-video-capture=${y4mFile}`,
  ];
}
