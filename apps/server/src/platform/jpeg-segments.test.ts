import sharp from 'sharp';
import { describe, expect, it } from 'vitest';

import { isMetadataFreeJpeg } from './jpeg-segments';

const photo = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a6' } }).composite([
    {
      input: Buffer.from(
        '<svg width="64" height="48"><circle cx="20" cy="20" r="14" fill="#c21"/></svg>',
      ),
    },
  ]);

/** A segment (marker + length + body) inserted right after SOI. */
function withSegment(jpeg: Buffer, marker: number, body: Buffer): Buffer {
  const length = Buffer.from([(body.length + 2) >> 8, (body.length + 2) & 0xff]);
  return Buffer.concat([
    jpeg.subarray(0, 2),
    Buffer.from([0xff, marker]),
    length,
    body,
    jpeg.subarray(2),
  ]);
}

describe('isMetadataFreeJpeg', () => {
  it('takes a plain JPEG, baseline or progressive, as a canvas exports it', async () => {
    expect(isMetadataFreeJpeg(await photo().jpeg().toBuffer())).toBe(true);
    expect(isMetadataFreeJpeg(await photo().jpeg({ progressive: true }).toBuffer())).toBe(true);
  });

  it('refuses EXIF (GPS, camera, orientation), ICC and XMP', async () => {
    expect(
      isMetadataFreeJpeg(
        await photo()
          .jpeg()
          .withExif({ IFD0: { Make: 'SecretCam' } })
          .toBuffer(),
      ),
    ).toBe(false);
    expect(
      isMetadataFreeJpeg(await photo().jpeg().withMetadata({ orientation: 6 }).toBuffer()),
    ).toBe(false);
    expect(isMetadataFreeJpeg(await photo().jpeg().withIccProfile('p3').toBuffer())).toBe(false);
    const plain = await photo().jpeg().toBuffer();
    expect(
      isMetadataFreeJpeg(
        withSegment(plain, 0xe1, Buffer.from('http://ns.adobe.com/xap/1.0/\0<x/>')),
      ),
    ).toBe(false);
  });

  it('refuses comments, IPTC, a JFIF thumbnail and bytes after the end', async () => {
    const plain = await photo().jpeg().toBuffer();
    expect(isMetadataFreeJpeg(withSegment(plain, 0xfe, Buffer.from('owner: J. Smith')))).toBe(
      false,
    );
    expect(isMetadataFreeJpeg(withSegment(plain, 0xed, Buffer.from('Photoshop 3.0\0')))).toBe(
      false,
    );
    const jfifWithThumbnail = Buffer.concat([
      Buffer.from('JFIF\0'),
      Buffer.from([1, 1, 0, 0, 1, 0, 1, 1, 1]),
      Buffer.alloc(3, 0x80),
    ]);
    expect(isMetadataFreeJpeg(withSegment(plain, 0xe0, jfifWithThumbnail))).toBe(false);
    const jfif = Buffer.concat([Buffer.from('JFIF\0'), Buffer.from([1, 1, 0, 0, 1, 0, 1, 0, 0])]);
    expect(isMetadataFreeJpeg(withSegment(plain, 0xe0, jfif))).toBe(true);
    expect(isMetadataFreeJpeg(Buffer.concat([plain, Buffer.from('PK\x03\x04hidden')]))).toBe(false);
  });

  it('refuses what is not a whole JPEG', async () => {
    const plain = await photo().jpeg().toBuffer();
    expect(isMetadataFreeJpeg(plain.subarray(0, plain.length - 2))).toBe(false);
    expect(isMetadataFreeJpeg(plain.subarray(0, 40))).toBe(false);
    expect(isMetadataFreeJpeg(await photo().png().toBuffer())).toBe(false);
    expect(isMetadataFreeJpeg(Buffer.from([0xff, 0xd8, 0xff, 0xd9]))).toBe(false);
  });
});
