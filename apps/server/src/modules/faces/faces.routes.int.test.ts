import { noFaceImage, sampleFace, twoFacesSideBySide } from '@boomgate/vision/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type TestApp, createTestApp } from '@/testing/test-app';

const dataUrl = (bytes: Buffer) => `data:image/jpeg;base64,${bytes.toString('base64')}`;

// The real face engine (face-api on tfjs wasm) on sample photos shipped in its npm package.
describe('POST /api/face-comparison', () => {
  let t: TestApp;
  let left: string;
  let right: string;
  beforeAll(async () => {
    t = await createTestApp();
    left = dataUrl(await sampleFace('left'));
    right = dataUrl(await sampleFace('right'));
  });
  afterAll(() => t.close());

  it('scores the same face near 100 and two different people under 70', async () => {
    const guard = await t.registerTenant();

    const same = await guard.post('/api/face-comparison', { image1: left, image2: left });
    const different = await guard.post('/api/face-comparison', { image1: left, image2: right });

    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ threshold: 70, decision: 'match' });
    expect(same.json().matchScore).toBeGreaterThanOrEqual(95);
    expect(different.json()).toMatchObject({ decision: 'no_match' });
    expect(different.json().matchScore).toBeLessThan(70);
    expect(different.json().faces.live).toMatchObject({
      width: expect.any(Number),
      height: expect.any(Number),
    });
  }, 90_000);

  it('never scores a photo without a face or with two faces', async () => {
    const guard = await t.registerTenant();

    const noFace = await guard.post('/api/face-comparison', {
      image1: dataUrl(await noFaceImage()),
      image2: left,
    });
    const twoFaces = await guard.post('/api/face-comparison', {
      image1: dataUrl(await twoFacesSideBySide('left', 'right')),
      image2: left,
    });

    expect(noFace.statusCode).toBe(422);
    expect(noFace.json().error.message).toMatch(/No face found/);
    expect(noFace.json()).not.toHaveProperty('matchScore');
    expect(twoFaces.statusCode).toBe(422);
    expect(twoFaces.json().error.message).toMatch(/2 faces found in the image/);
  }, 90_000);

  it('compares with the driver photo on file for an approved vehicle and audits it', async () => {
    const admin = await t.registerTenant();
    const vehicle = (
      await admin.post('/api/approved-vehicles', {
        plateNumber: 'KP35XKGP',
        driverName: 'Sipho',
        driverPhoto: left,
        biometricConsent: true,
      })
    ).json();
    const noPhoto = (
      await admin.post('/api/approved-vehicles', { plateNumber: 'CA123456', driverName: 'Johan' })
    ).json();

    const match = await admin.post('/api/face-comparison', {
      image1: left,
      approvedVehicleId: vehicle.id,
    });
    const missing = await admin.post('/api/face-comparison', {
      image1: left,
      approvedVehicleId: noPhoto.id,
    });
    const foreign = await (
      await t.registerTenant()
    ).post('/api/face-comparison', { image1: left, approvedVehicleId: vehicle.id });

    expect(match.json()).toMatchObject({ decision: 'match', faces: { reference: null } });
    expect(match.json().matchScore).toBeGreaterThanOrEqual(95);
    expect(missing.statusCode).toBe(422);
    expect(foreign.statusCode).toBe(404);
    expect(
      await t.ownerQuery(
        `select 1 from audit_events where tenant_id = $1 and action = 'face.compared'`,
        [admin.body.tenant.id],
      ),
    ).toHaveLength(1);
  }, 90_000);

  it('records the live anti-spoofing score and gates on it only when the organization says so', async () => {
    const admin = await t.registerTenant();
    const compare = async () =>
      (await admin.post('/api/face-comparison', { image1: left, image2: left })).json();

    const recorded = await compare();
    expect(recorded).toMatchObject({
      decision: 'match',
      antispoof: { gating: false, threshold: 0.5 },
      comparisonId: expect.any(String),
    });
    const liveness: number = recorded.liveness;
    expect(liveness).toBeGreaterThan(0);
    // A real photo scores high but below 0.99, so a threshold above it exists (settings cap 0.99).
    expect(liveness).toBeLessThan(0.98);

    // Just above the photo's own score: the same match is now refused as a suspected spoof.
    const above = Math.min(0.99, Math.ceil(liveness * 100 + 1) / 100);
    await admin.patch('/api/settings', { antispoofGating: true, antispoofThreshold: above });
    const gatedAbove = await compare();
    expect(gatedAbove.antispoof).toEqual({ gating: true, threshold: above, passed: false });
    expect(gatedAbove.decision).toBe('spoof_suspected');
    expect(gatedAbove.matchScore).toBeGreaterThanOrEqual(95);

    // Just below it: the gate lets the same photo through.
    const below = Math.max(0.05, Math.floor(liveness * 100 - 1) / 100);
    await admin.patch('/api/settings', { antispoofThreshold: below });
    expect(await compare()).toMatchObject({
      decision: 'match',
      antispoof: { gating: true, threshold: below, passed: true },
    });

    const decisions = await t.ownerQuery<{ details: { decision: string; liveness: number } }>(
      `select details from audit_events where tenant_id = $1 and action = 'face.compared'
        order by occurred_at, id`,
      [admin.body.tenant.id],
    );
    expect(decisions).toHaveLength(3);
    expect(decisions.every((row) => row.details.liveness === liveness)).toBe(true);
  }, 120_000);

  it('needs exactly one reference', async () => {
    const guard = await t.registerTenant();

    const response = await guard.post('/api/face-comparison', { image1: left });

    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('Send either image2 or approvedVehicleId');
  });
});
