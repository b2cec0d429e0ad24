import { crc32, deflateSync } from 'node:zlib';

import exifr from 'exifr';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;

/** A PNG that declares `width`×`height` pixels but carries almost no data: a pixel bomb. */
function pngDeclaring(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(64 * 1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A minimal ZIP (one stored file): appended to a JPEG it makes a JPEG/ZIP polyglot. */
function aZip(): Buffer {
  const name = Buffer.from('payload.html');
  const content = Buffer.from('<script>alert(document.cookie)</script>');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt32LE(crc32(content), 14);
  local.writeUInt32LE(content.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(name.length, 26);
  return Buffer.concat([local, name, content]);
}

describe('image uploads (SEC-42, SEC-44, SEC-45, SEC-46)', () => {
  let t: TestApp;
  let admin: Session;
  let jpeg: Buffer;

  /** Saves a passport scan and returns the stored object's bytes as the image route serves them. */
  async function storeAndReadBack(image: string) {
    const saved = await admin.post('/api/passport', { passportImage: image });
    if (saved.statusCode !== 201) return { status: saved.statusCode, body: saved.json() };
    const [row] = await t.ownerQuery<{ image_key: string }>(
      'select image_key from passports where id = $1',
      [saved.json<{ id: string }>().id],
    );
    const url = `/api/images/${row?.image_key}`;
    const served = await admin.get(url);
    return { status: saved.statusCode, url, served, stored: served.rawPayload };
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.registerTenant();
    jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#4a7' } })
      .jpeg()
      .toBuffer();
  });
  afterAll(() => t.close());

  it('refuses SVG, HTML, GIF, PDF and ZIP by their bytes, whatever type they claim (415)', async () => {
    const hostile: [string, Buffer][] = [
      [
        'image/svg+xml',
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>'),
      ],
      ['image/jpeg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')],
      ['image/png', Buffer.from('<!doctype html><script>alert(1)</script>')],
      ['image/gif', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;')],
      ['image/jpeg', Buffer.from('%PDF-1.7\n1 0 obj<<>>endobj')],
      ['image/jpeg', aZip()],
    ];

    for (const [mime, bytes] of hostile) {
      const response = await admin.post('/api/passport', { passportImage: dataUrl(mime, bytes) });
      expect({ mime, status: response.statusCode }).toEqual({ mime, status: 415 });
      expect(response.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('refuses a JPEG whose declared type is PNG, and JPEG magic bytes in front of HTML', async () => {
    const mislabelled = await admin.post('/api/passport', {
      passportImage: dataUrl('image/png', jpeg),
    });
    const fakeJpeg = await admin.post('/api/passport', {
      passportImage: dataUrl(
        'image/jpeg',
        Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('<html><script>')]),
      ),
    });

    expect(mislabelled.statusCode).toBe(415);
    expect(fakeJpeg.statusCode).toBe(400);
    expect(fakeJpeg.json().error.message).toBe(
      'The image could not be read. It may be damaged or incomplete.',
    );
  });

  it('re-encodes a JPEG/ZIP/HTML polyglot so nothing but the picture is stored', async () => {
    const polyglot = Buffer.concat([
      jpeg,
      aZip(),
      Buffer.from('<html><script>alert(1)</script></html>'),
    ]);

    const { status, served, stored } = await storeAndReadBack(dataUrl('image/jpeg', polyglot));

    expect(status).toBe(201);
    expect(stored?.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(stored?.includes(Buffer.from('PK\x03\x04'))).toBe(false);
    expect(stored?.includes(Buffer.from('<script>'))).toBe(false);
    // Served as a sandboxed, non-sniffable picture only to its own tenant.
    expect(served?.headers['content-type']).toBe('image/jpeg');
    expect(served?.headers['content-security-policy']).toBe('sandbox');
    expect(served?.headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuses a pixel bomb quickly, before decoding it', async () => {
    const bomb = pngDeclaring(30_000, 30_000); // 900 megapixels in a few hundred bytes
    const started = Date.now();

    const response = await admin.post('/api/passport', {
      passportImage: dataUrl('image/png', bomb),
    });

    expect(bomb.length).toBeLessThan(2048);
    expect(response.statusCode).toBe(413);
    expect(response.json().error.message).toBe(
      'The image has too many pixels (30000×30000, 900.0 MP; the limit is 40 MP). Please upload a smaller photo.',
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('strips EXIF, GPS included, from what it stores', async () => {
    const tagged = await sharp(jpeg)
      .withExif({
        IFD0: { Make: 'SecretCam', Model: 'Spy 1' },
        IFD3: {
          GPSLatitudeRef: 'S',
          GPSLatitude: '26/1 12/1 0/1',
          GPSLongitudeRef: 'E',
          GPSLongitude: '28/1 2/1 0/1',
        },
      })
      .jpeg()
      .toBuffer();
    const before = await exifr.parse(tagged, { gps: true });

    const { status, stored } = await storeAndReadBack(dataUrl('image/jpeg', tagged));

    expect(before).toMatchObject({ Make: 'SecretCam', latitude: expect.closeTo(-26.2, 1) });
    expect(status).toBe(201);
    expect(await exifr.parse(stored ?? Buffer.alloc(0), { gps: true })).toBeUndefined();
    expect(stored?.includes(Buffer.from('SecretCam'))).toBe(false);
  });

  it("serves a stored image only to its tenant; another tenant's key answers like a missing one", async () => {
    const { url } = await storeAndReadBack(dataUrl('image/jpeg', jpeg));
    const key = url ?? '';
    const other = await t.registerTenant();

    const foreign = await other.get(key);
    const missing = await other.get(
      key.replace(/[0-9a-f-]{36}\.jpg$/, `${crypto.randomUUID()}.jpg`),
    );
    const signedOut = await t.inject({ method: 'GET', url: key });

    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(missing.json());
    expect(signedOut.statusCode).toBe(401);
  });
});
