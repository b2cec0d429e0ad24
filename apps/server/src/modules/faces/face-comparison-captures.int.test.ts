import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { GateVisionEngine } from '@/modules/vision';
import { aJpegDataUrl } from '@/testing/images';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

type Compared = Awaited<ReturnType<GateVisionEngine['compareFaceToDescriptor']>>;
type Embedded = Awaited<ReturnType<GateVisionEngine['embedFace']>>;

const DAY = 86_400_000;
const BOX = { x: 10, y: 10, width: 40, height: 40 };

/** The engine is not the subject here: a stand-in answers a match for every face. */
const withFakeFaces = (engine: GateVisionEngine): GateVisionEngine => ({
  ...engine,
  embedFace: async () =>
    ({ ok: true, descriptor: Array<number>(128).fill(0.1), box: BOX }) as unknown as Embedded,
  compareFaceToDescriptor: async () =>
    ({
      ok: true,
      matchScore: 91,
      face: { box: BOX, antispoof: { real: 0.9, live: 0.9 } },
    }) as unknown as Compared,
});

describe('face comparisons cite the live face’s capture (issue 14)', () => {
  let t: TestApp;
  let photo: string;
  beforeAll(async () => {
    t = await createTestApp({ visionEngine: withFakeFaces });
    photo = await aJpegDataUrl({ color: '#a47' });
  });
  afterAll(() => t.close());

  const enrol = async (admin: Session, plateNumber: string) =>
    (
      await admin.post('/api/approved-vehicles', {
        plateNumber,
        driverName: 'Sipho Nkosi',
        driverPhoto: photo,
        biometricConsent: true,
      })
    ).json<{ id: string }>();
  const compare = async (session: Session, approvedVehicleId: string) =>
    (await session.post('/api/face-comparison', { image1: photo, approvedVehicleId })).json<{
      comparisonId: string;
      image1CaptureId: string;
    }>();
  const comparison = async (id: string) =>
    (
      await t.ownerQuery<{ live_capture_id: string | null }>(
        'select live_capture_id from face_comparisons where id = $1',
        [id],
      )
    )[0];
  const capture = async (id: string) =>
    (
      await t.ownerQuery<{ citations: number }>('select citations from captures where id = $1', [
        id,
      ])
    )[0];

  it('records and cites the capture; the entry citing it too makes two citations of one object', async () => {
    const admin = await t.registerTenant();
    const vehicle = await enrol(admin, 'FC10GP');
    const compared = await compare(admin, vehicle.id);

    expect(await comparison(compared.comparisonId)).toEqual({
      live_capture_id: compared.image1CaptureId,
    });
    expect(await capture(compared.image1CaptureId)).toEqual({ citations: 1 });

    const entry = await admin.post('/api/auto-gate/grant-entry', {
      category: 'contracted',
      plateNumber: 'FC10GP',
      faceComparisonId: compared.comparisonId,
      driverFaceImageCaptureId: compared.image1CaptureId,
    });
    expect(entry.json()).toMatchObject({ entryGranted: true, faceVerified: true });
    expect(await capture(compared.image1CaptureId)).toEqual({ citations: 2 });

    // grant-entry's own comparison of a cited face cites it as well.
    const own = await admin.post('/api/auto-gate/grant-entry', {
      category: 'contracted',
      plateNumber: 'FC10GP',
      driverFaceImageCaptureId: compared.image1CaptureId,
    });
    expect(own.json()).toMatchObject({ entryGranted: true, faceVerified: true });
    const [ownComparison] = await t.ownerQuery<{ live_capture_id: string }>(
      'select live_capture_id from face_comparisons where used_by_entry_id = $1',
      [own.json().id],
    );
    expect(ownComparison?.live_capture_id).toBe(compared.image1CaptureId);
    expect(await capture(compared.image1CaptureId)).toEqual({ citations: 4 });
  });

  it('keeps the live face past 24 hours while the comparison cites it', async () => {
    const admin = await t.registerTenant();
    const vehicle = await enrol(admin, 'FC20GP');
    const compared = await compare(admin, vehicle.id);

    t.clock.advanceMs(DAY + 1_000);
    await t.modules.captures.service.purgeExpired();

    expect(await capture(compared.image1CaptureId)).toEqual({ citations: 1 });
  });

  it('erasing the driver releases the live face of the comparisons behind their entries', async () => {
    const admin = await t.registerTenant();
    const vehicle = await enrol(admin, 'FC30GP');
    const idNumber = '8001015009087';
    const compared = await compare(admin, vehicle.id);
    const entry = await admin.post('/api/auto-gate/grant-entry', {
      category: 'contracted',
      plateNumber: 'FC30GP',
      driverIdNumber: idNumber,
      faceComparisonId: compared.comparisonId,
      driverFaceImageCaptureId: compared.image1CaptureId,
    });
    expect(entry.statusCode).toBe(201);

    const exported = (await admin.post('/api/data-subjects/export', { idNumber })).json();
    const erased = await admin.post('/api/data-subjects/erase', { idNumber });

    expect(exported.records.faceComparisons).toEqual([
      expect.objectContaining({
        id: compared.comparisonId,
        liveCaptureId: compared.image1CaptureId,
      }),
    ]);
    expect(erased.statusCode).toBe(200);
    expect(erased.json().erased).toMatchObject({ faceComparisons: 1, entryLogs: 1 });
    expect(await comparison(compared.comparisonId)).toEqual({ live_capture_id: null });
    // Neither the entry nor the comparison cites it any more: the capture is gone.
    expect(await capture(compared.image1CaptureId)).toBeUndefined();
  });

  it('releases the live face after the biometric period, and only once', async () => {
    const admin = await t.registerTenant();
    expect((await admin.patch('/api/settings', { biometricRetentionDays: 30 })).statusCode).toBe(
      200,
    );
    const vehicle = await enrol(admin, 'FC40GP');
    const compared = await compare(admin, vehicle.id);
    const purge = () => t.modules.privacy.service.purgeExpiredDocumentImages();

    t.clock.advanceMs(29 * DAY);
    await purge();
    expect(await comparison(compared.comparisonId)).toEqual({
      live_capture_id: compared.image1CaptureId,
    });

    t.clock.advanceMs(2 * DAY);
    expect(await purge()).toBeGreaterThanOrEqual(1);
    expect(await comparison(compared.comparisonId)).toEqual({ live_capture_id: null });
    expect(await capture(compared.image1CaptureId)).toBeUndefined();
    const audited = await t.ownerQuery<{ target_type: string }>(
      `select target_type from audit_events
        where tenant_id = $1 and action = 'biometrics.purged' and target_id = $2`,
      [admin.body.tenant.id, compared.comparisonId],
    );
    expect(audited).toEqual([{ target_type: 'face_comparisons' }]);
  });
});
