/** Image decoding for the face engine (Node only): bytes -> RGB pixels at analysis size. */

import sharp from 'sharp';

import { DAMAGED_IMAGE_MESSAGE } from '../errors';
import { MAX_IMAGE_PIXELS } from '../image/decode-image';

import { FaceError } from './errors';

/** The same pixel budget as every other reader. */
export const MAX_INPUT_PIXELS = MAX_IMAGE_PIXELS;
/** Photos are analysed at most this large on the long side (detectors work at 512 px anyway). */
export const MAX_ANALYSIS_SIDE = 1024;

export type RgbImage = {
  /** Interleaved RGB, width * height * 3 bytes. */
  data: Uint8Array;
  width: number;
  height: number;
  /** Analysed size / original size (<= 1); boxes are reported in original (EXIF-rotated) pixels. */
  scale: number;
  originalWidth: number;
  originalHeight: number;
};

/** `message` is for the person; `detail` (the image library's words) only for the logs. */
function invalid(message: string, detail?: string): FaceError {
  return new FaceError('invalid_image', message, undefined, detail);
}

export async function decodeForFaces(
  bytes: Uint8Array,
  { maxSide = MAX_ANALYSIS_SIDE }: { maxSide?: number } = {},
): Promise<RgbImage> {
  if (!(bytes instanceof Uint8Array) || bytes.length === 0)
    throw invalid('The file could not be read as an image: it is empty.');
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    const meta = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    const swap = (meta.orientation ?? 1) >= 5;
    const originalWidth = (swap ? meta.height : meta.width) ?? 0;
    const originalHeight = (swap ? meta.width : meta.height) ?? 0;
    const { data, info } = await sharp(input, {
      limitInputPixels: MAX_INPUT_PIXELS,
      failOn: 'truncated',
    })
      .rotate()
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    const rgb = info.channels === 3 ? data : toRgb(data, info.width * info.height, info.channels);
    return {
      data: new Uint8Array(rgb.buffer, rgb.byteOffset, rgb.byteLength),
      width: info.width,
      height: info.height,
      scale: originalWidth ? info.width / originalWidth : 1,
      originalWidth: originalWidth || info.width,
      originalHeight: originalHeight || info.height,
    };
  } catch (error) {
    if (error instanceof FaceError) throw error;
    const detail = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
    throw invalid(
      /pixel limit/i.test(detail)
        ? 'The image has too many pixels. Please upload a smaller photo.'
        : DAMAGED_IMAGE_MESSAGE,
      detail,
    );
  }
}

function toRgb(data: Buffer, pixels: number, channels: number): Buffer {
  const out = Buffer.alloc(pixels * 3);
  for (let i = 0; i < pixels; i++) {
    const v = data[i * channels]!;
    out[i * 3] = v;
    out[i * 3 + 1] = channels >= 3 ? data[i * channels + 1]! : v;
    out[i * 3 + 2] = channels >= 3 ? data[i * channels + 2]! : v;
  }
  return out;
}

/** Grey crop of a region, resized to size x size (for sharpness/brightness on the face). */
export async function greyCrop(
  image: RgbImage,
  box: { x: number; y: number; width: number; height: number },
  size = 128,
): Promise<Uint8Array> {
  const left = Math.min(image.width - 1, Math.max(0, Math.floor(box.x)));
  const top = Math.min(image.height - 1, Math.max(0, Math.floor(box.y)));
  const width = Math.max(1, Math.min(image.width - left, Math.ceil(box.width)));
  const height = Math.max(1, Math.min(image.height - top, Math.ceil(box.height)));
  const { data, info } = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: 3 },
  })
    .extract({ left, top, width, height })
    .resize(size, size, { fit: 'fill' })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels === 1) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const out = new Uint8Array(size * size);
  for (let i = 0; i < out.length; i++) out[i] = data[i * info.channels]!;
  return out;
}
