import { imageSize } from 'image-size';
import sharp from 'sharp';

import { MAX_IMAGE_PIXELS } from '@boomgate/vision';

import { AppError } from './errors';

/** Spec §5/§9: one image of at most 10 MB (10485760 bytes), png, jpg/jpeg or webp. */
export const MAX_IMAGE_BYTES = 10_485_760;
/**
 * A 10 MB file can decode to far more than 10 MB of pixels (a one-colour 45 MP PNG is a few KB).
 * One budget for every image route, storage and the readers alike: the vision package's constant.
 */
export { MAX_IMAGE_PIXELS };
/** Base64 adds a third, plus the data-URL prefix and the rest of the JSON body. */
export const IMAGE_BODY_LIMIT_BYTES = Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 64 * 1024;

export type ImageMime = 'image/jpeg' | 'image/png' | 'image/webp';

/** The type from the file's first bytes, never from its name or a declared type. */
export function sniffImageType(bytes: Uint8Array): ImageMime | undefined {
  const starts = (...signature: number[]) => signature.every((byte, i) => bytes[i] === byte);
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

/**
 * Reads an image sent in JSON: a data URL (`data:image/jpeg;base64,…`, as the camera produces) or
 * bare base64. Checks size and magic bytes; the declared type must agree with the bytes.
 */
export function decodeImagePayload(payload: string): DecodedImagePayload {
  const match = /^data:([\w/+.-]+)?(;[\w=.-]+)*;base64,/.exec(payload.slice(0, 200));
  const declared = match?.[1];
  const base64 = match ? payload.slice(match[0].length) : payload;
  if (base64.length === 0) throw new AppError('INVALID', 'The image is empty.');
  if (!/^[A-Za-z0-9+/=\s_-]+$/.test(base64.slice(0, 4096))) {
    throw new AppError(
      'INVALID',
      'The image must be a base64 data URL (data:image/jpeg;base64,…).',
    );
  }
  if ((base64.length * 3) / 4 > MAX_IMAGE_BYTES + 3) {
    throw new AppError('PAYLOAD_TOO_LARGE', 'Please upload an image smaller than 10MB.');
  }
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > MAX_IMAGE_BYTES)
    throw new AppError('PAYLOAD_TOO_LARGE', 'Please upload an image smaller than 10MB.');
  const mime = sniffImageType(bytes);
  if (!mime)
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Only PNG, JPEG and WebP images are accepted.');
  const isDeclaredConsistent =
    !declared || declared === mime || (declared === 'image/jpg' && mime === 'image/jpeg');
  if (!isDeclaredConsistent) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      `The image says it is ${declared} but its content is ${mime}.`,
    );
  }
  return { bytes, mime, ...assertPixelBudget(bytes) };
}

const tooManyPixels = (size?: string) =>
  new AppError(
    'PAYLOAD_TOO_LARGE',
    `The image has too many pixels (${size ? `${size}; ` : ''}the limit is ` +
      `${MAX_IMAGE_PIXELS / 1e6} MP). Please upload a smaller photo.`,
  );

export type DecodedImagePayload = { bytes: Buffer; mime: ImageMime; width: number; height: number };

/**
 * The pixel budget, checked from the header alone (image-size reads the PNG IHDR, the JPEG SOF
 * marker or the WebP VP8 header; nothing decodes), so a pixel bomb is refused before it reaches
 * sharp, storage or a vision worker. Every image route goes through decodeImagePayload, so through
 * here.
 */
export function assertPixelBudget(bytes: Uint8Array): { width: number; height: number } {
  let width = 0;
  let height = 0;
  try {
    ({ width, height } = imageSize(bytes));
  } catch {
    // An unreadable header: the decoder would fail on it too.
  }
  if (!(width > 0 && height > 0)) {
    throw new AppError('INVALID', 'The image could not be read. It may be damaged or incomplete.');
  }
  if (width * height > MAX_IMAGE_PIXELS) {
    throw tooManyPixels(`${width}×${height}, ${((width * height) / 1e6).toFixed(1)} MP`);
  }
  return { width, height };
}

/**
 * Re-encodes an upload for storage: applies the EXIF orientation, then writes a fresh JPEG with no
 * metadata (no GPS, camera or XMP). Refuses images whose pixel count could exhaust memory.
 */
export async function sanitizeImage(bytes: Uint8Array): Promise<Buffer> {
  try {
    return await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' })
      .rotate()
      .jpeg({ quality: 90, mozjpeg: false })
      .toBuffer();
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    if (/pixel limit/i.test(message)) {
      throw tooManyPixels();
    }
    throw new AppError('INVALID', 'The image could not be read. It may be damaged or incomplete.');
  }
}
