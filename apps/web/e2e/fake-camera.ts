/**
 * A fake camera for Chromium: a still face photo as a YUV4MPEG2 (I420) file for
 * `--use-file-for-fake-video-capture`. The face comes from an npm package
 * (@vladmandic/face-api's demo sample), cropped and converted here at test time.
 */
import { createRequire } from 'node:module';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

import sharp from 'sharp';

import { y4mOf } from './gate-camera';

const require = createRequire(import.meta.url);

export const FAKE_CAMERA_SIZE = { width: 640, height: 480 } as const;

/** sample1.jpg (1920×1280): the woman on the right, face centred in a 640×480 frame. */
const SAMPLE = { file: 'demo/sample1.jpg', left: 1240, top: 60 } as const;

/** Writes `frames` copies of the still face as a Y4M file and returns its path. */
export async function writeStillFaceY4m(directory: string, frames = 10): Promise<string> {
  const faceApiDir = path.dirname(require.resolve('@vladmandic/face-api/package.json'));
  const { width, height } = FAKE_CAMERA_SIZE;
  const rgb = await sharp(path.join(faceApiDir, SAMPLE.file))
    .extract({ left: SAMPLE.left, top: SAMPLE.top, width, height })
    .removeAlpha()
    .raw()
    .toBuffer();
  const file = path.join(directory, 'still-face.y4m');
  await writeFile(file, y4mOf(rgb, FAKE_CAMERA_SIZE, frames));
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
