import sharp from 'sharp';
import { describe, expect, it } from 'vitest';

import { DAMAGED_IMAGE_MESSAGE, VisionInputError } from '../errors';
import { aPixelBombPng } from '../testing/bad-images';

import { MAX_IMAGE_BYTES, decodeImage } from './decode-image';

async function aJpeg(width = 64, height = 48) {
  return sharp({ create: { width, height, channels: 3, background: '#808080' } })
    .jpeg()
    .toBuffer();
}

async function expectKind(promise: Promise<unknown>, kind: string) {
  await expect(promise).rejects.toBeInstanceOf(VisionInputError);
  await expect(promise).rejects.toMatchObject({ kind });
}

describe('decodeImage', () => {
  it('decodes a JPEG to RGB pixels', async () => {
    const image = await decodeImage(await aJpeg());

    expect(image).toMatchObject({ width: 64, height: 48, channels: 3 });
    expect(image.data).toHaveLength(64 * 48 * 3);
  });

  it('decodes straight to one grey channel when asked', async () => {
    const red = await sharp({ create: { width: 8, height: 6, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();

    const image = await decodeImage(red, { grey: true });

    expect(image).toMatchObject({ width: 8, height: 6, channels: 1 });
    expect(image.data).toHaveLength(8 * 6);
    // A mid grey (libvips gives 127 for pure red): a luminance conversion, not a channel pick.
    expect(image.data[0]).toBeGreaterThan(40);
    expect(image.data[0]).toBeLessThan(200);
  });

  it('applies the EXIF orientation', async () => {
    const rotated = await sharp(await aJpeg(64, 48))
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();

    const image = await decodeImage(rotated);

    expect([image.width, image.height]).toEqual([48, 64]);
  });

  it('rejects empty input', async () => {
    await expectKind(decodeImage(new Uint8Array()), 'empty');
  });

  it('rejects input over 10 MB before decoding it', async () => {
    const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
    big.set([0xff, 0xd8, 0xff]);

    await expectKind(decodeImage(big), 'too_large');
  });

  it('rejects bytes that are not an image', async () => {
    await expectKind(
      decodeImage(new TextEncoder().encode('%PDF-1.7 not an image')),
      'unsupported_image',
    );
  });

  it('rejects a truncated JPEG', async () => {
    const jpeg = await sharp({
      create: { width: 400, height: 300, channels: 3, background: '#3a6' },
    })
      .jpeg()
      .toBuffer();

    const truncated = decodeImage(jpeg.subarray(0, Math.floor(jpeg.length / 2)));

    await expectKind(truncated, 'unsupported_image');
    // The person is told what happened in plain words; libvips's text is only for the logs.
    const error = (await truncated.catch((thrown: unknown) => thrown)) as VisionInputError;
    expect(error.message).toBe(DAMAGED_IMAGE_MESSAGE);
    expect(error.detail).toMatch(/jpeg|vips|premature|corrupt/i);
  });

  it('rejects a pixel bomb from its header alone', async () => {
    const bomb = aPixelBombPng(30000, 30000);

    await expectKind(decodeImage(bomb), 'too_many_pixels');
  });
});

describe('decodeImage (transparency)', () => {
  it('puts transparent pixels on white', async () => {
    const png = await sharp({
      create: { width: 8, height: 8, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();

    const image = await decodeImage(png);

    expect([...image.data.subarray(0, 3)]).toEqual([255, 255, 255]);
    const grey = await decodeImage(png, { grey: true });
    expect(grey.channels).toBe(1);
    expect(grey.data[0]).toBe(255);
  });
});
