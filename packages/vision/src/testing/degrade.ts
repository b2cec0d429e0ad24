import { readFile, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';

import seedrandom from 'seedrandom';
import sharp, { type Sharp } from 'sharp';

/**
 * What a gate camera does to a picture, applied to a real photo so that the readers can be measured on
 * images no method was tuned on (`npm run eval:stress`). Each is one general effect at a strength a
 * phone at a gate produces, never fitted to a file: heavy compression, a focus miss, a distant shot, a
 * tilted hand, shade, sunlight, a moving vehicle, dusk's sensor noise and a view from the side.
 */
export type Degradation = {
  name: string;
  /** How it reads in the tables. */
  label: string;
  apply: (image: Sharp, size: { width: number; height: number }) => Sharp | Promise<Sharp>;
  /** Re-encoded as this JPEG quality whatever the source's format (the `jpeg` degradation). */
  jpegQuality?: number;
};

export const DEGRADATIONS: readonly Degradation[] = [
  {
    name: 'jpeg',
    label: 'JPEG quality 30',
    apply: (image) => image,
    jpegQuality: 30,
  },
  {
    name: 'blur',
    label: 'out of focus (Gaussian blur, sigma = long side / 1200)',
    apply: (image, { width, height }) => image.blur(Math.max(0.6, Math.max(width, height) / 1200)),
  },
  {
    name: 'small',
    label: 'farther away (60 % of the size)',
    apply: (image, { width }) =>
      image.resize({ width: Math.round(width * 0.6), kernel: 'lanczos3' }),
  },
  {
    name: 'tilt',
    label: 'tilted 4 degrees',
    apply: (image) => image.rotate(4, { background: { r: 96, g: 96, b: 96 } }),
  },
  {
    name: 'dark',
    label: 'in shade (45 % of the light)',
    apply: (image) => image.linear(0.45, 0),
  },
  {
    name: 'glare',
    label: 'in sunlight (contrast halved towards white)',
    apply: (image) => image.linear(0.5, 0.5 * 255),
  },
  {
    name: 'motion',
    label: 'moving (horizontal motion blur over long side / 200)',
    apply: (image, { width, height }) => {
      // An odd kernel length (sharp centres it), at least 3 px: 7 px on a 1280 px photo. sharp takes
      // kernels of 3 rows or more: the middle row carries the blur.
      const length = Math.max(3, 2 * Math.round(Math.max(width, height) / 400) + 1);
      const kernel = new Array<number>(3 * length).fill(0).fill(1, length, 2 * length);
      return image.convolve({ width: length, height: 3, kernel });
    },
  },
  {
    name: 'noise',
    label: 'at dusk (sensor noise, sigma 12 grey levels)',
    apply: async (image) => {
      // Colour only: a transparent PNG's alpha is no sensor's.
      const { data, info } = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true });
      // Seeded (seedrandom, installed with TensorFlow.js): every run reads the same copy.
      const random = seedrandom('boomgate-sensor-noise');
      for (let i = 0; i < data.length; i++) {
        // Box-Muller: a normal deviate from two uniform ones.
        const n = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
        data[i] = Math.max(0, Math.min(255, Math.round(data[i]! + 12 * n)));
      }
      return sharp(data, {
        raw: { width: info.width, height: info.height, channels: info.channels },
      });
    },
  },
  {
    name: 'shear',
    label: 'seen from the side (horizontal lines sloping 15 %)',
    // Verticals stay vertical and rows slope, as a plate or page photographed off its axis.
    apply: (image) => image.affine([1, 0, 0.15, 1], { background: { r: 96, g: 96, b: 96 } }),
  },
];

/**
 * Writes a degraded copy of each file into `dir` (same base name, so a result can be told by its file)
 * and returns their paths in order. PNG stays PNG (lossless, as the source) and anything else becomes
 * JPEG at quality 92, unless the degradation is compression itself.
 */
export async function degradeFiles(
  files: string[],
  dir: string,
  degradation: Degradation,
): Promise<string[]> {
  const out: string[] = [];
  for (const file of files) {
    // Upright first (EXIF orientation), so that sizes are the picture's as seen. This re-encodes in
    // the source's format at sharp's defaults (a JPEG at quality 80) before the effect: a mild extra
    // compression in every row of the tenth round's measurements (docs/vision/accuracy.md).
    const upright = await sharp(await readFile(file))
      .rotate()
      .toBuffer();
    const { width = 0, height = 0 } = await sharp(upright).metadata();
    let image = await degradation.apply(sharp(upright), { width, height });
    const png = extname(file).toLowerCase() === '.png' && !degradation.jpegQuality;
    image = png ? image.png() : image.jpeg({ quality: degradation.jpegQuality ?? 92 });
    const target = join(dir, `${basename(file, extname(file))}${png ? '.png' : '.jpg'}`);
    await writeFile(target, await image.toBuffer());
    out.push(target);
  }
  return out;
}
