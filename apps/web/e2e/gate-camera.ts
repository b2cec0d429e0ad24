/**
 * Pictures for the gate flows, made at test time: a rendered South African number plate, document
 * cards with printed text, and a real face photo from an npm package (@vladmandic/face-api's demo
 * sample1.jpg). The fake camera is a YUV4MPEG2 (I420) file for Chromium's
 * `--use-file-for-fake-video-capture`; Chromium opens the file each time a camera starts, so
 * replacing it (write + rename) changes what the next camera shows: the plate, then the face.
 */
import { rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

import sharp from 'sharp';

const require = createRequire(import.meta.url);

type Size = { width: number; height: number };

/** sample1.jpg (1920×1280) holds three women; this crop holds the left one only. */
const FACE_CROP = { left: 300, top: 220, width: 400, height: 480 } as const;

function faceSamplePath(): string {
  return path.join(
    path.dirname(require.resolve('@vladmandic/face-api/package.json')),
    'demo',
    'sample1.jpg',
  );
}

/** Full-range BT.601 RGB → I420 (a Y plane, then U and V at half resolution). */
export function rgbToI420(rgb: Buffer, { width, height }: Size): Buffer {
  const ySize = width * height;
  const chromaWidth = width / 2;
  const chromaSize = chromaWidth * (height / 2);
  const out = Buffer.alloc(ySize + 2 * chromaSize);
  const clamp = (value: number) => Math.max(0, Math.min(255, Math.round(value)));
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = (y * width + x) * 3;
      out[y * width + x] = clamp(0.299 * rgb[i]! + 0.587 * rgb[i + 1]! + 0.114 * rgb[i + 2]!);
    }
  }
  for (let cy = 0; cy < height / 2; cy += 1) {
    for (let cx = 0; cx < chromaWidth; cx += 1) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const) {
        const i = ((2 * cy + dy) * width + 2 * cx + dx) * 3;
        r += rgb[i]! / 4;
        g += rgb[i + 1]! / 4;
        b += rgb[i + 2]! / 4;
      }
      out[ySize + cy * chromaWidth + cx] = clamp(128 - 0.168736 * r - 0.331264 * g + 0.5 * b);
      out[ySize + chromaSize + cy * chromaWidth + cx] = clamp(
        128 + 0.5 * r - 0.418688 * g - 0.081312 * b,
      );
    }
  }
  return out;
}

/** A YUV4MPEG2 file of `frames` copies of one RGB picture. */
export function y4mOf(rgb: Buffer, size: Size, frames = 2): Buffer {
  const header = Buffer.from(`YUV4MPEG2 W${size.width} H${size.height} F10:1 Ip A1:1 C420jpeg\n`);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), rgbToI420(rgb, size)]);
  return Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]);
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A number plate as printed: black letters on a yellow plate with a black border. */
export async function renderPlate(displayPlate: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1040" height="226">
    <rect x="6" y="6" width="1028" height="214" rx="18" fill="#f5d20a" stroke="#111" stroke-width="10"/>
    <text x="520" y="160" text-anchor="middle" font-family="DejaVu Sans" font-weight="bold"
      font-size="130" fill="#111">${escapeXml(displayPlate)}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A card or page of printed lines, like the front of a document. */
export async function renderDocument(
  lines: string[],
  {
    width = 1284,
    height = 810,
    fontSize = 44,
  }: { width?: number; height?: number; fontSize?: number } = {},
): Promise<Buffer> {
  const text = lines
    .map(
      (line, index) =>
        `<text x="50" y="${90 + index * fontSize * 1.6}" font-family="DejaVu Sans" font-size="${fontSize}" fill="#111">${escapeXml(line)}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="${width}" height="${height}" rx="30" fill="#fdfdf8" stroke="#333" stroke-width="4"/>${text}
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 92 }).toBuffer();
}

/** The driver's face photo (the left woman of sample1.jpg) as a JPEG. */
export async function faceJpeg(): Promise<Buffer> {
  return sharp(faceSamplePath()).extract(FACE_CROP).jpeg({ quality: 92 }).toBuffer();
}

/** `picture` scaled to `width` (or to fit `maxHeight`) in the middle of a dark scene. */
async function scene(
  picture: Buffer,
  frame: Size,
  { width, maxHeight }: { width: number; maxHeight: number },
) {
  const fitted = await sharp(picture)
    .resize({ width, height: maxHeight, fit: 'inside' })
    .removeAlpha()
    .toBuffer({ resolveWithObject: true });
  return sharp({ create: { ...frame, channels: 3, background: '#3b3f45' } })
    .composite([
      {
        input: fitted.data,
        left: Math.round((frame.width - fitted.info.width) / 2),
        top: Math.round((frame.height - fitted.info.height) / 2),
      },
    ])
    .removeAlpha()
    .raw()
    .toBuffer();
}

/** A photo of the plate on its vehicle, as a JPEG to upload. */
export async function plateJpeg(displayPlate: string): Promise<Buffer> {
  const frame = { width: 1280, height: 720 };
  const rgb = await scene(await renderPlate(displayPlate), frame, { width: 720, maxHeight: 400 });
  return sharp(rgb, { raw: { ...frame, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

/**
 * The fake camera of one browser: a landscape frame on desktop, a portrait one on a phone. The
 * plate fills the middle of what the phone shows (the preview crops a portrait frame's sides).
 */
export async function createFakeCamera(
  directory: string,
  orientation: 'landscape' | 'portrait',
  initialPlate = 'KP 35 XK GP',
) {
  const frame =
    orientation === 'landscape' ? { width: 1280, height: 720 } : { width: 720, height: 1280 };
  const file = path.join(directory, `camera-${orientation}.y4m`);
  const show = async (rgb: Buffer) => {
    const next = `${file}.next`;
    await writeFile(next, y4mOf(rgb, frame));
    await rename(next, file);
  };
  const camera = {
    file,
    args: [
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${file}`,
    ],
    /** The next camera opened shows this plate. */
    showPlate: async (displayPlate: string) =>
      show(
        await scene(await renderPlate(displayPlate), frame, {
          // A plate a few metres away: about a third of the frame's width.
          width: 420,
          maxHeight: frame.height,
        }),
      ),
    /** The next camera opened shows the driver's face. */
    showFace: async () =>
      show(
        await scene(await faceJpeg(), frame, {
          width: frame.width,
          maxHeight: Math.round(frame.height * 0.9),
        }),
      ),
  };
  // Chromium looks for the file when it starts: there is always a picture.
  await camera.showPlate(initialPlate);
  return camera;
}
export type FakeCamera = Awaited<ReturnType<typeof createFakeCamera>>;

/** A South African ID number with a valid Luhn check digit, from its first 12 digits. */
export function withLuhnDigit(first12: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i += 1) {
    let digit = Number(first12[11 - i]);
    if (i % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return `${first12}${(10 - (sum % 10)) % 10}`;
}
