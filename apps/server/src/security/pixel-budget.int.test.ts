import { randomUUID } from 'node:crypto';

import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { GateVisionEngine } from '@/modules/vision';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

/** Counts what reaches the engine; nothing here should, so every call fails loudly too. */
function countingEngine(engine: GateVisionEngine) {
  const calls: string[] = [];
  const counted =
    <Args extends unknown[], Result>(name: string, call: (...args: Args) => Promise<Result>) =>
    (...args: Args) => {
      calls.push(name);
      return call(...args);
    };
  return {
    calls,
    engine: {
      read: counted('read', engine.read),
      compareFaces: counted('compareFaces', engine.compareFaces),
      compareFaceToDescriptor: counted('compareFaceToDescriptor', engine.compareFaceToDescriptor),
      embedFace: counted('embedFace', engine.embedFace),
      checkFaceQuality: counted('checkFaceQuality', engine.checkFaceQuality),
      close: engine.close,
    } satisfies GateVisionEngine,
  };
}

/**
 * Issue 20: one pixel budget (40 MP) on every route that takes an image, checked from the header
 * before anything decodes: a one-colour 45 MP PNG of about 150 KB is refused with 413 before the
 * vision engine or storage (which decodes to re-encode) sees it.
 */
describe('pixel budget on every image route', () => {
  let t: TestApp;
  let admin: Session;
  let huge: string;
  let small: string;
  let stored = 0;
  const counter: { calls: string[] } = { calls: [] };

  beforeAll(async () => {
    t = await createTestApp({
      visionEngine: (engine) => {
        const counting = countingEngine(engine);
        counter.calls = counting.calls;
        return counting.engine;
      },
      storage: (storage) => ({
        ...storage,
        put: (key, bytes) => {
          stored++;
          return storage.put(key, bytes);
        },
      }),
    });
    admin = await t.registerTenant();
    const png = (width: number, height: number) =>
      sharp({ create: { width, height, channels: 3, background: '#7a7a7a' } })
        .png()
        .toBuffer();
    huge = `data:image/png;base64,${(await png(7500, 6000)).toString('base64')}`;
    small = `data:image/png;base64,${(await png(64, 64)).toString('base64')}`;
  });
  afterAll(() => t.close());

  const idNumber = '8001015009087';
  const routes: Array<[string, () => Record<string, unknown>]> = [
    ['/api/ocr', () => ({ type: 'plate', image: huge })],
    ['/api/ocr', () => ({ type: 'passport', image: huge })],
    ['/api/ocr', () => ({ type: 'face', image: huge })],
    ['/api/face-comparison', () => ({ image1: huge, image2: small })],
    ['/api/face-comparison', () => ({ image1: small, image2: huge })],
    ['/api/face-comparison', () => ({ image1: huge, approvedVehicleId: randomUUID() })],
    ['/api/licence-disc', () => ({ discImage: huge })],
    ['/api/identity-document', () => ({ sourceImageFront: huge })],
    ['/api/drivers-licence', () => ({ sourceImageFront: huge })],
    ['/api/passport', () => ({ passportImage: huge })],
    ['/api/weighbridge-ticket', () => ({ ticketImage: huge })],
    [
      '/api/approved-vehicles',
      () => ({
        plateNumber: 'CA 123-456',
        driverName: 'Sipho Nkosi',
        driverPhoto: huge,
        biometricConsent: true,
      }),
    ],
    [
      '/api/induction/assignments',
      () => ({
        videoId: randomUUID(),
        driverName: 'Sipho Nkosi',
        driverIdNumber: idNumber,
        driverImage: huge,
      }),
    ],
    ['/api/auto-gate/grant-entry', () => ({ plateNumber: 'CA123456', plateImage: huge })],
    ['/api/auto-gate/grant-entry', () => ({ plateNumber: 'CA123456', driverFaceImage: huge })],
    ['/api/auto-gate/grant-entry', () => ({ plateNumber: 'CA123456', permitImages: [huge] })],
    ...(['selfie', 'licencePhoto', 'look', 'blink', 'turn_left', 'turn_right'] as const).map(
      (field): [string, () => Record<string, unknown>] => [
        '/api/onboarding/self',
        () => {
          const frames = { look: small, blink: small, turn_left: small, turn_right: small };
          const isFrame = field !== 'selfie' && field !== 'licencePhoto';
          return {
            name: 'Nomsa',
            surname: 'Khumalo',
            idNumber,
            phone: '072 555 0101',
            licenceNumber: 'ABC123',
            licenceValidTo: '2030-01-31',
            licencePhoto: field === 'licencePhoto' ? huge : small,
            selfie: field === 'selfie' ? huge : small,
            livenessFrames: isFrame ? { ...frames, [field]: huge } : frames,
            biometricConsent: true,
          };
        },
      ],
    ),
  ];

  it.each(routes)('%s refuses a 45 MP PNG with 413 before decoding it', async (url, body) => {
    const response = await admin.post(url, body());

    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      error: {
        code: 'PAYLOAD_TOO_LARGE',
        message:
          'The image has too many pixels (7500×6000, 45.0 MP; the limit is 40 MP). Please upload a smaller photo.',
      },
    });
    expect(counter.calls).toEqual([]);
    expect(stored).toBe(0);
  });

  it('refuses it from a number-plate camera too', async () => {
    const camera = (await admin.post('/api/anpr/cameras', { name: 'Main gate in' })).json<{
      pushUrl: string;
    }>();

    const response = await t.inject({
      method: 'POST',
      url: camera.pushUrl,
      payload: { plateNumber: 'CA123456', image: huge },
    });

    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(stored).toBe(0);
  });
});
