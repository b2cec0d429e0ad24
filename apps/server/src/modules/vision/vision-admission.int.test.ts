import type { ReadResult } from '@boomgate/vision';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type TestApp, createTestApp } from '@/testing/test-app';

import type { GateVisionEngine } from './lazy-engine';

/**
 * The admission queue wired into the app: /api/ocr reads from one user beyond the budget wait or
 * are refused with 429 and Retry-After, while another user's read goes straight to the engine. The
 * engine is a stand-in whose reads finish when the test says (no clock involved).
 */
describe('vision admission through the API', () => {
  let t: TestApp;
  let photo: string;
  const started: string[] = [];
  const finishers: Array<() => void> = [];

  beforeAll(async () => {
    const unused = () => Promise.reject(new Error('not used here'));
    t = await createTestApp({
      env: { VISION_READS_PER_USER: '1', VISION_QUEUE_PER_USER: '1' },
      visionEngine: (real): GateVisionEngine => ({
        read: (type) => {
          started.push(type);
          return new Promise<ReadResult>((resolve) =>
            finishers.push(() =>
              resolve({ ok: true, type, fields: {}, text: '', source: 'ocr', confidence: 1 }),
            ),
          );
        },
        compareFaces: unused,
        compareFaceToDescriptor: unused,
        embedFace: unused,
        checkFaceQuality: unused,
        close: real.close,
      }),
    });
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#888' } })
      .jpeg()
      .toBuffer();
    photo = `data:image/jpeg;base64,${jpeg.toString('base64')}`;
  });
  afterAll(() => t.close());

  const until = async (isTrue: () => boolean) => {
    while (!isTrue()) await new Promise((settled) => setTimeout(settled, 5));
  };
  const untilStarted = (count: number) => until(() => started.length >= count);
  const waitingFor = (userId: string) =>
    t.modules.visionAdmission.snapshot().users[userId]?.waiting ?? 0;

  it("queues one user's extra reads, refuses beyond the queue, and lets another user through", async () => {
    const heavy = await t.registerTenant();
    const other = await t.registerTenant();

    const first = heavy.post('/api/ocr', { type: 'passport', image: photo });
    await untilStarted(1);
    const second = heavy.post('/api/ocr', { type: 'id', image: photo });
    await until(() => waitingFor(heavy.body.user.id) === 1);
    const third = await heavy.post('/api/ocr', { type: 'license', image: photo });

    expect(third.statusCode).toBe(429);
    expect(Number(third.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(third.json()).toEqual({
      error: {
        code: 'RATE_LIMITED',
        message:
          'Too many images are being read for you at once. Please wait for them to finish and try again.',
      },
    });

    const plate = other.post('/api/ocr', { type: 'plate', image: photo });
    await untilStarted(2);
    // The other user's plate reached the engine while the heavy user's second read still waits.
    expect(started).toEqual(['passport', 'plate']);

    finishers.shift()!();
    await untilStarted(3);
    expect(started).toEqual(['passport', 'plate', 'id']);
    for (const finish of finishers.splice(0)) finish();
    const answers = await Promise.all([first, second, plate]);
    expect(answers.map((response) => response.statusCode)).toEqual([200, 200, 200]);
  });
});
