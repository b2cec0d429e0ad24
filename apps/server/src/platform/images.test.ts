import sharp from 'sharp';
import { describe, expect, it } from 'vitest';

import { AppError } from './errors';
import {
  MAX_IMAGE_BYTES,
  MAX_IMAGE_PIXELS,
  decodeImagePayload,
  sanitizeImage,
  sniffImageType,
} from './images';

const solid = (format: 'png' | 'jpeg' | 'webp', width = 16, height = 16) =>
  sharp({ create: { width, height, channels: 3, background: '#3a6' } })
    .toFormat(format)
    .toBuffer();

const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;

function codeOf(work: () => unknown): string | undefined {
  try {
    work();
  } catch (error) {
    return error instanceof AppError ? error.code : 'OTHER';
  }
  return undefined;
}

describe('sniffImageType', () => {
  it('recognises PNG, JPEG and WebP by their first bytes', async () => {
    expect(sniffImageType(await solid('png'))).toBe('image/png');
    expect(sniffImageType(await solid('jpeg'))).toBe('image/jpeg');
    expect(sniffImageType(await solid('webp'))).toBe('image/webp');
  });

  it('refuses HTML, SVG and GIF whatever they are called', () => {
    expect(sniffImageType(Buffer.from('<html><script>alert(1)</script>'))).toBeUndefined();
    expect(
      sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')),
    ).toBeUndefined();
    expect(sniffImageType(Buffer.from('GIF89a....'))).toBeUndefined();
  });
});

describe('decodeImagePayload', () => {
  it('reads a camera data URL and bare base64', async () => {
    const jpeg = await solid('jpeg');

    expect(decodeImagePayload(dataUrl('image/jpeg', jpeg)).mime).toBe('image/jpeg');
    expect(decodeImagePayload(jpeg.toString('base64')).bytes.equals(jpeg)).toBe(true);
  });

  it('refuses a file whose declared type disagrees with its bytes', async () => {
    expect(
      codeOf(() => decodeImagePayload(dataUrl('image/png', Buffer.from('<html></html>')))),
    ).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses more than 10 MB before decoding it', () => {
    const tooBig = 'A'.repeat(Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 8);

    expect(codeOf(() => decodeImagePayload(tooBig))).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses an empty image and text that is not base64', () => {
    expect(codeOf(() => decodeImagePayload('data:image/jpeg;base64,'))).toBe('INVALID');
    expect(codeOf(() => decodeImagePayload('hello, world!'))).toBe('INVALID');
  });

  it('gives the size from the header of PNG, JPEG and WebP', async () => {
    for (const format of ['png', 'jpeg', 'webp'] as const) {
      const image = await solid(format, 300, 120);

      expect(decodeImagePayload(image.toString('base64'))).toMatchObject({
        width: 300,
        height: 120,
      });
    }
  });

  it('refuses more than 40 MP from the header, PNG and JPEG alike, and takes 40 MP', async () => {
    // A one-colour 45 MP image compresses to a few hundred KB: far under the 10 MB limit.
    const png45 = await solid('png', 7500, 6000);
    const jpeg45 = await solid('jpeg', 7500, 6000);
    const png40 = await solid('png', 8000, 5000);

    expect(MAX_IMAGE_PIXELS).toBe(40_000_000);
    expect(png45.length).toBeLessThan(MAX_IMAGE_BYTES);
    for (const image of [png45, jpeg45]) {
      expect(() => decodeImagePayload(image.toString('base64'))).toThrow(
        expect.objectContaining({
          code: 'PAYLOAD_TOO_LARGE',
          message:
            'The image has too many pixels (7500×6000, 45.0 MP; the limit is 40 MP). Please upload a smaller photo.',
        }),
      );
    }
    expect(decodeImagePayload(png40.toString('base64'))).toMatchObject({
      width: 8000,
      height: 5000,
    });
  });

  it('refuses a JPEG whose header holds no size', () => {
    const noFrame = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('<html>')]);

    expect(codeOf(() => decodeImagePayload(noFrame.toString('base64')))).toBe('INVALID');
  });
});

describe('sanitizeImage', () => {
  it('strips EXIF metadata', async () => {
    const tagged = await sharp({
      create: { width: 40, height: 20, channels: 3, background: '#fff' },
    })
      .jpeg()
      .withExif({ IFD0: { Make: 'SecretCam', Model: 'X1' } })
      .toBuffer();

    const clean = await sanitizeImage(tagged);

    expect(tagged.includes(Buffer.from('SecretCam'))).toBe(true);
    expect((await sharp(clean).metadata()).exif).toBeUndefined();
    expect(clean.includes(Buffer.from('SecretCam'))).toBe(false);
  });

  it('turns a photo the way the camera held it', async () => {
    const rotated = await sharp({
      create: { width: 40, height: 20, channels: 3, background: '#fff' },
    })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();

    const metadata = await sharp(await sanitizeImage(rotated)).metadata();

    expect([metadata.width, metadata.height]).toEqual([20, 40]);
  });

  it('refuses a pixel bomb quickly', async () => {
    const bomb = await sharp({
      create: { width: 10_000, height: 10_000, channels: 3, background: '#000' },
    })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const started = Date.now();

    await expect(sanitizeImage(bomb)).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(bomb.length).toBeLessThan(MAX_IMAGE_BYTES);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses a truncated JPEG with a readable message', async () => {
    const jpeg = await solid('jpeg', 200, 200);

    await expect(sanitizeImage(jpeg.subarray(0, jpeg.length / 2))).rejects.toMatchObject({
      code: 'INVALID',
    });
  });
});
