import {
  SA_PLATES,
  aPixelBombPng,
  frontalSampleFace,
  noFaceImage,
  renderPlatePhoto,
} from '@boomgate/vision/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type TestApp, createTestApp } from '@/testing/test-app';

const dataUrl = (bytes: Buffer, mime = 'image/jpeg') =>
  `data:${mime};base64,${bytes.toString('base64')}`;

// The real engine (PaddleOCR, zxing, tesseract in a worker thread), on images made here.
describe('POST /api/ocr', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('reads a South African plate photo and gives the lookup and display forms', async () => {
    const guard = await t.registerTenant();
    const gauteng = SA_PLATES[0]!;
    const photo = await renderPlatePhoto(gauteng.display, gauteng.style);

    const response = await guard.post('/api/ocr', { type: 'plate', image: dataUrl(photo) });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      ok: true,
      type: 'plate',
      plateNumber: 'KP35XKGP',
      source: 'ocr',
      fields: { plateNumber: 'KP35XKGP' },
    });
    expect(JSON.parse(response.json().extractedText)).toMatchObject({ plateNumber: 'KP35XKGP' });
  }, 60_000);

  it('answers ok: false, not an error, when the image holds no plate', async () => {
    const guard = await t.registerTenant();
    const blank = await (
      await import('sharp')
    )
      .default({ create: { width: 640, height: 480, channels: 3, background: '#777' } })
      .jpeg()
      .toBuffer();

    const response = await guard.post('/api/ocr', { type: 'plate', image: dataUrl(blank) });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ ok: false, fields: {}, extractedText: '' });
  }, 60_000);

  it('refuses bad input with a clear 4xx and keeps working afterwards', async () => {
    const guard = await t.registerTenant();
    const photo = await renderPlatePhoto(SA_PLATES[1]!.display, SA_PLATES[1]!.style);

    const notImage = await guard.post('/api/ocr', {
      type: 'plate',
      image: dataUrl(Buffer.from('%PDF-1.7 not an image'), 'image/png'),
    });
    const truncated = await guard.post('/api/ocr', {
      type: 'disk',
      image: dataUrl(photo.subarray(0, 2000)),
    });
    const bomb = await guard.post('/api/ocr', {
      type: 'weighbridge',
      image: dataUrl(aPixelBombPng(), 'image/png'),
    });
    const unknownType = await guard.post('/api/ocr', { type: 'selfie', image: dataUrl(photo) });
    const empty = await guard.post('/api/ocr', { type: 'plate', image: '' });
    const stillWorks = await guard.post('/api/ocr', { type: 'plate', image: dataUrl(photo) });

    expect(notImage.statusCode).toBe(415);
    expect([400, 415, 422]).toContain(truncated.statusCode);
    expect(bomb.statusCode).toBe(413);
    expect(unknownType.statusCode).toBe(400);
    expect(unknownType.json().error.message).toContain('type must be one of');
    expect(empty.statusCode).toBe(400);
    expect(stillWorks.json()).toMatchObject({ ok: true, plateNumber: 'CA123456' });
  }, 90_000);

  it("answers a truncated JPEG in plain words, never the image library's, and logs the detail", async () => {
    const guard = await t.registerTenant();
    const sharp = (await import('sharp')).default;
    const jpeg = await sharp({
      create: { width: 640, height: 480, channels: 3, background: '#3a6' },
    })
      .jpeg()
      .toBuffer();
    // A real JPEG cut off half-way: 'VipsJpeg: premature end of JPEG image' in libvips's words.
    const truncated = jpeg.subarray(0, Math.floor(jpeg.length / 2));
    const logsBefore = t.logLines.length;

    const answers = [];
    for (const type of ['plate', 'weighbridge', 'face'] as const) {
      answers.push(await guard.post('/api/ocr', { type, image: dataUrl(truncated) }));
    }

    for (const answer of answers) {
      expect(answer.statusCode).toBeGreaterThanOrEqual(400);
      expect(answer.statusCode).toBeLessThan(500);
      const { message } = answer.json<{ error: { message: string } }>().error;
      expect(message).toBe(
        'Failed to process image: the file is damaged or incomplete. Please try again.',
      );
      expect(message).not.toMatch(/vips|jpeg data|marker|0x|sharp|libjpeg|premature/i);
    }
    const logged = t.logLines.slice(logsBefore).join('\n');
    expect(logged).toMatch(/refused: Failed to process image/);
    expect(logged).toMatch(/vips|jpeg|premature|corrupt/i);
  }, 60_000);

  it('accepts a face capture with one frontal, sharp face', async () => {
    const guard = await t.registerTenant();
    const face = await frontalSampleFace();

    const response = await guard.post('/api/ocr', { type: 'face', image: dataUrl(face) });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      ok: true,
      type: 'face',
      source: 'face',
      confidence: 1,
      fields: { faceFound: true, qualityOk: true, issues: [] },
    });
    expect(JSON.parse(response.json().extractedText)).toMatchObject({ qualityOk: true });
  }, 60_000);

  it('answers a capture without a face with ok: false and a message to retake it', async () => {
    const guard = await t.registerTenant();
    const noFace = await noFaceImage();

    const response = await guard.post('/api/ocr', { type: 'face', image: dataUrl(noFace) });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      ok: false,
      type: 'face',
      fields: { faceFound: false, qualityOk: false, issues: ['no_face'] },
      message: expect.stringMatching(/No face found.*retake the photo/),
    });
  }, 60_000);

  it('refuses an image over 10 MB with 413 and the spec message', async () => {
    const guard = await t.registerTenant();
    // A JPEG signature and 10 MB + 1 byte in all: the size is refused before any decoding.
    const tooLarge = Buffer.alloc(10_485_761);
    tooLarge.set([0xff, 0xd8, 0xff, 0xe0]);

    const response = await guard.post('/api/ocr', { type: 'plate', image: dataUrl(tooLarge) });

    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({
      error: { code: 'PAYLOAD_TOO_LARGE', message: 'Please upload an image smaller than 10MB.' },
    });
  });

  it('needs a session', async () => {
    const response = await t.inject({
      method: 'POST',
      url: '/api/ocr',
      payload: { type: 'plate', image: 'x' },
    });

    expect(response.statusCode).toBe(401);
  });
});
