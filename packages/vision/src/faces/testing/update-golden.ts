/**
 * Regenerates the golden descriptor used by face-engine.int.test.ts. Run only when the face pipeline
 * changes on purpose (and say so in the commit):
 *
 *   node --import tsx packages/vision/src/faces/testing/update-golden.ts
 */

import { writeFileSync } from 'node:fs';

import { embedFace } from '../face-engine';

import { SAMPLE1_CROPS, sampleFace } from './sample-faces';

export const GOLDEN_FILE = new URL('./golden-sample1-left.json', import.meta.url);

const e = await embedFace(await sampleFace('left'));
const golden = {
  source: '@vladmandic/face-api/demo/sample1.jpg, crop SAMPLE1_CROPS.left, JPEG q92',
  crop: SAMPLE1_CROPS.left,
  pipeline:
    'face-api 1.7.15 TinyFaceDetector 512 + landmark68 + faceRecognitionNet averaged over dlib chip + eye/mouth box, each with its mirror',
  descriptor: e.descriptor.map((v) => Math.round(v * 1e6) / 1e6),
};
writeFileSync(GOLDEN_FILE, `${JSON.stringify(golden, null, 2)}\n`);
console.log(`wrote ${GOLDEN_FILE.pathname}`);
