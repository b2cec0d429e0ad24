import sharp, { type Metadata, type Sharp } from 'sharp';

import { DAMAGED_IMAGE_MESSAGE, VisionInputError } from '../errors';

export const MAX_IMAGE_BYTES = 10_485_760;
/**
 * 40 MP, the one pixel budget of every image the product takes (the server checks it from the header
 * before anything decodes; storage re-encodes under it): above a 12–16 MP phone photo and a 36 MP
 * scan, far below a decompression bomb, and it bounds how long one image can hold a worker thread.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;
/** Images are processed at most this large on the long side (barcodes and MRZ need detail, not 48 MP). */
export const MAX_WORKING_SIDE = 4096;

sharp.cache(false);

export type ImageFormat = 'jpeg' | 'png' | 'webp';

/** Decoded pixels, EXIF orientation applied. `channels` is 3 (RGB) or 1 (grey). */
export type RawImage = { data: Buffer; width: number; height: number; channels: 1 | 3 };

export function sniffImageFormat(bytes: Uint8Array): ImageFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return 'jpeg';
  if (
    bytes.length >= 8 &&
    bytes[0] === 0x89 &&
    bytes[1] === 0x50 &&
    bytes[2] === 0x4e &&
    bytes[3] === 0x47 &&
    bytes[4] === 0x0d &&
    bytes[5] === 0x0a
  )
    return 'png';
  if (
    bytes.length >= 12 &&
    String.fromCharCode(...bytes.subarray(0, 4)) === 'RIFF' &&
    String.fromCharCode(...bytes.subarray(8, 12)) === 'WEBP'
  )
    return 'webp';
  return null;
}

/** Cheap checks that need no decoding: empty, too large, not a PNG/JPEG/WebP. */
export function assertImageBytes(bytes: Uint8Array): ImageFormat {
  if (!(bytes instanceof Uint8Array) || bytes.length === 0) {
    throw new VisionInputError('empty', 'The image is empty.');
  }
  if (bytes.length > MAX_IMAGE_BYTES) {
    throw new VisionInputError(
      'too_large',
      `The image is ${bytes.length} bytes; the limit is ${MAX_IMAGE_BYTES} bytes (10 MB).`,
    );
  }
  const format = sniffImageFormat(bytes);
  if (!format) {
    throw new VisionInputError('unsupported_image', 'The file is not a PNG, JPEG or WebP image.');
  }
  return format;
}

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Validates and decodes an uploaded image: EXIF orientation applied, at most MAX_WORKING_SIDE on the
 * long side, RGB (or one grey channel with `grey`). Every bad input becomes a VisionInputError.
 */
export async function decodeImage(
  bytes: Uint8Array,
  { maxSide = MAX_WORKING_SIDE, grey = false }: { maxSide?: number; grey?: boolean } = {},
): Promise<RawImage> {
  assertImageBytes(bytes);
  const input = toBuffer(bytes);
  let metadata: Metadata;
  try {
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw new VisionInputError('unsupported_image', DAMAGED_IMAGE_MESSAGE, libraryDetail(error));
  }
  const width = metadata.width ?? 0;
  const height = metadata.height ?? 0;
  if (width <= 0 || height <= 0) {
    throw new VisionInputError('unsupported_image', 'The image has no size.');
  }
  if (width * height > MAX_IMAGE_PIXELS) {
    throw new VisionInputError(
      'too_many_pixels',
      `The image is ${width}x${height} pixels; the limit is ${MAX_IMAGE_PIXELS / 1e6} megapixels.`,
    );
  }
  try {
    const { data, info } = await sharp(input, {
      limitInputPixels: MAX_IMAGE_PIXELS,
      failOn: 'truncated',
    })
      .rotate()
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      // Transparent pixels (PNG, WebP) become white paper, not black.
      .flatten({ background: '#ffffff' })
      .toColourspace(grey ? 'b-w' : 'srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, channels: info.channels === 1 ? 1 : 3 };
  } catch (error) {
    throw new VisionInputError('unsupported_image', DAMAGED_IMAGE_MESSAGE, libraryDetail(error));
  }
}

/** The first line of sharp's (libvips's) message, for the logs. */
function libraryDetail(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

/** A sharp pipeline over already-decoded pixels. */
export function fromRaw(image: RawImage): Sharp {
  return sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: image.channels },
  });
}

export async function toRaw(pipeline: Sharp, grey = false): Promise<RawImage> {
  const p = grey ? pipeline.greyscale() : pipeline.removeAlpha();
  const { data, info } = await p.raw().toBuffer({ resolveWithObject: true });
  const channels = info.channels;
  if (grey && channels !== 1) {
    // greyscale() keeps 3 channels only when the input had alpha; extract the first.
    const out = Buffer.alloc(info.width * info.height);
    for (let i = 0; i < out.length; i++) out[i] = data[i * channels] ?? 0;
    return { data: out, width: info.width, height: info.height, channels: 1 };
  }
  return { data, width: info.width, height: info.height, channels: channels === 1 ? 1 : 3 };
}

export function toGrey(image: RawImage): RawImage {
  if (image.channels === 1) return image;
  const out = Buffer.alloc(image.width * image.height);
  const d = image.data;
  for (let i = 0, j = 0; i < out.length; i++, j += 3) {
    out[i] = (d[j]! * 299 + d[j + 1]! * 587 + d[j + 2]! * 114) / 1000;
  }
  return { data: out, width: image.width, height: image.height, channels: 1 };
}

/** RGBA bytes, as zxing-wasm wants its ImageData. */
export function toRgba(image: RawImage): Uint8ClampedArray {
  const n = image.width * image.height;
  const out = new Uint8ClampedArray(n * 4);
  const d = image.data;
  if (image.channels === 1) {
    for (let i = 0; i < n; i++) {
      const v = d[i]!;
      out[i * 4] = v;
      out[i * 4 + 1] = v;
      out[i * 4 + 2] = v;
      out[i * 4 + 3] = 255;
    }
  } else {
    for (let i = 0; i < n; i++) {
      out[i * 4] = d[i * 3]!;
      out[i * 4 + 1] = d[i * 3 + 1]!;
      out[i * 4 + 2] = d[i * 3 + 2]!;
      out[i * 4 + 3] = 255;
    }
  }
  return out;
}

export type Rect = { left: number; top: number; width: number; height: number };

export function clampRect(rect: Rect, image: { width: number; height: number }): Rect {
  const left = Math.max(0, Math.min(image.width - 1, Math.round(rect.left)));
  const top = Math.max(0, Math.min(image.height - 1, Math.round(rect.top)));
  const width = Math.max(1, Math.min(image.width - left, Math.round(rect.width)));
  const height = Math.max(1, Math.min(image.height - top, Math.round(rect.height)));
  return { left, top, width, height };
}

/** Encodes decoded pixels as JPEG (for the AI provider). */
export async function encodeJpeg(image: RawImage, maxSide = 1600): Promise<Buffer> {
  return fromRaw(image)
    .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 85 })
    .toBuffer();
}
