import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { aJpegDataUrl } from '@/testing/images';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

describe('entry logs routes', () => {
  let t: TestApp;
  let photo: string;
  beforeAll(async () => {
    t = await createTestApp();
    photo = await aJpegDataUrl();
  });
  afterAll(() => t.close());

  const register = (session: Session, plateNumber: string) =>
    session.post('/api/approved-vehicles', {
      plateNumber,
      driverName: 'Sipho Nkosi',
      company: 'Kumba Haulage',
    });

  const autoGateEntry = (plateNumber: string, overrides: Record<string, unknown> = {}) => ({
    category: 'contracted',
    plateNumber,
    plateImage: photo,
    driverFaceImage: photo,
    vehicleApproved: true,
    faceVerified: true,
    matchScore: 86.5,
    entryGranted: true,
    ...overrides,
  });

  describe('POST /api/auto-gate/grant-entry', () => {
    it('logs an auto-gate entry with its images, the driver from the register and who granted it', async () => {
      const admin = await t.registerTenant();
      const guard = await t.createSignedInUser(admin, 'security_guard');
      await register(admin, 'KP35XKGP');

      const response = await guard.post('/api/auto-gate/grant-entry', autoGateEntry('kp 35 xk gp'));

      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({
        category: 'contracted',
        plateNumber: 'KP35XKGP',
        vehicleApproved: true,
        entryGranted: true,
        refusalReason: null,
        driverName: 'Sipho Nkosi',
        transportName: 'Kumba Haulage',
        plateImage: expect.stringMatching(/^\/api\/images\//),
        driverFaceImage: expect.stringMatching(/^\/api\/images\//),
        recordedBy: { id: guard.body.user.id },
      });
    });

    it('decides approval from the register and the face from evidence, not from what the client says', async () => {
      const admin = await t.registerTenant();
      await register(admin, 'KP35XKGP'); // no driver photo: nothing to compare a face with

      const notRegistered = await admin.post(
        '/api/auto-gate/grant-entry',
        autoGateEntry('NOTREG1', { faceVerified: false, matchScore: null }),
      );
      const claimedFace = await admin.post(
        '/api/auto-gate/grant-entry',
        autoGateEntry('KP35XKGP', { faceVerified: true, matchScore: 99.9 }),
      );

      // The auto gate refuses an unregistered vehicle whatever the client asked (entry-decision.ts).
      expect(notRegistered.json()).toMatchObject({
        vehicleApproved: false,
        entryGranted: false,
        refusalReason: 'not_registered',
        warnings: [
          {
            code: 'vehicle_claim_contradicted',
            severity: 'warning',
            message: expect.stringContaining('register does not'),
            fields: ['vehicleApproved'],
          },
          { code: 'grant_claim_contradicted', fields: ['entryGranted'] },
        ],
      });
      expect(claimedFace.statusCode).toBe(201);
      expect(claimedFace.json()).toMatchObject({
        vehicleApproved: true,
        faceVerified: false,
        matchScore: null,
        warnings: [{ code: 'face_claim_unbacked', fields: ['faceVerified', 'matchScore'] }],
      });
    });

    it('logs a retried request once when it carries the same Idempotency-Key', async () => {
      const admin = await t.registerTenant();
      const headers = { 'idempotency-key': `gate-${t.unique('k')}` };

      const first = await admin.post('/api/auto-gate/grant-entry', autoGateEntry('CA123456'), {
        headers,
      });
      const retry = await admin.post('/api/auto-gate/grant-entry', autoGateEntry('CA123456'), {
        headers,
      });
      const misuse = await admin.post('/api/auto-gate/grant-entry', autoGateEntry('CA999999'), {
        headers,
      });

      expect(first.statusCode).toBe(201);
      expect(retry.statusCode).toBe(200);
      expect(retry.json().id).toBe(first.json().id);
      expect(misuse.statusCode).toBe(409);
      expect(
        await t.ownerQuery('select 1 from entry_logs where tenant_id = $1', [admin.body.tenant.id]),
      ).toHaveLength(1);
    });

    it('logs concurrent duplicates of one Idempotency-Key once', async () => {
      const admin = await t.registerTenant();
      const headers = { 'idempotency-key': `gate-${t.unique('c')}` };

      const responses = await Promise.all(
        Array.from({ length: 6 }, () =>
          admin.post(
            '/api/auto-gate/grant-entry',
            autoGateEntry('ND123456', { plateImage: null, driverFaceImage: null }),
            { headers },
          ),
        ),
      );

      expect(new Set(responses.map((r) => r.json().id)).size).toBe(1);
      expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(1);
      expect(
        await t.ownerQuery('select 1 from entry_logs where tenant_id = $1', [admin.body.tenant.id]),
      ).toHaveLength(1);
    });

    it("links saved documents and refuses another tenant's document id", async () => {
      const acme = await t.registerTenant();
      const other = await t.registerTenant();
      const disc = (
        await acme.post('/api/licence-disc', {
          licenceNumber: 'KP35XKGP',
          discNumber: 'ABC123',
          discImage: photo,
        })
      ).json();
      const foreignDisc = (await other.post('/api/licence-disc', { licenceNumber: 'X' })).json();

      const linked = await acme.post('/api/auto-gate/grant-entry', {
        plateNumber: 'KP35XKGP',
        vehicleLicenceDiscId: disc.id,
        driverName: 'Thabo',
        driverIdNumber: '8001015009087',
      });
      const foreign = await acme.post('/api/auto-gate/grant-entry', {
        plateNumber: 'KP35XKGP',
        vehicleLicenceDiscId: foreignDisc.id,
      });

      expect(linked.statusCode).toBe(201);
      expect(linked.json()).toMatchObject({
        category: 'visitor',
        vehicleLicenceDiscId: disc.id,
        driverIdNumber: '8001015009087',
      });
      expect(foreign.statusCode).toBe(400);
    });
  });

  describe('GET /api/entry-logs', () => {
    it('lists newest first, a page at a time, and only the caller’s tenant', async () => {
      const acme = await t.registerTenant();
      const other = await t.registerTenant();
      for (const plate of ['AAA111GP', 'BBB222GP', 'CCC333GP']) {
        t.clock.advanceMs(1000);
        await acme.post('/api/auto-gate/grant-entry', { plateNumber: plate });
      }
      await other.post('/api/auto-gate/grant-entry', { plateNumber: 'ZZZ999GP' });

      const first = await acme.get('/api/entry-logs?limit=2');
      const cursor = first.headers['x-next-cursor'];
      const second = await acme.get(`/api/entry-logs?limit=2&cursor=${String(cursor)}`);

      expect(first.json().map((e: { plateNumber: string }) => e.plateNumber)).toEqual([
        'CCC333GP',
        'BBB222GP',
      ]);
      expect(second.json().map((e: { plateNumber: string }) => e.plateNumber)).toEqual([
        'AAA111GP',
      ]);
      expect(second.headers['x-next-cursor']).toBeUndefined();
    });

    it('shows a security guard masked identity and passport numbers and no driver images (SEC-15)', async () => {
      const admin = await t.registerTenant();
      const guard = await t.createSignedInUser(admin, 'security_guard');
      const backOffice = await t.createSignedInUser(admin, 'back_office');
      await admin.post('/api/auto-gate/grant-entry', {
        category: 'visitor',
        plateNumber: 'MASK1GP',
        plateImage: photo,
        driverFaceImage: photo,
        driverLicenseImage: photo,
        passportImage: photo,
        driverName: 'Thabo',
        driverIdNumber: '8001015009087',
        driverPassportNumber: 'A1234567',
      });

      const [asGuard] = (await guard.get('/api/entry-logs')).json();
      const [asBackOffice] = (await backOffice.get('/api/entry-logs')).json();
      const [asAdmin] = (await admin.get('/api/entry-logs')).json();
      const [onGuardDashboard] = (await guard.get('/api/dashboard')).json().recentEntries;

      for (const entry of [asGuard, onGuardDashboard]) {
        expect(entry).toMatchObject({
          driverName: 'Thabo',
          driverIdNumber: '*********9087',
          driverPassportNumber: '****4567',
          plateImage: expect.stringMatching(/^\/api\/images\//),
          driverFaceImage: null,
          driverLicenseImage: null,
          passportImage: null,
        });
      }
      expect(asAdmin).toMatchObject({ driverIdNumber: '8001015009087' });
      expect(asBackOffice).toMatchObject({
        driverIdNumber: '8001015009087',
        driverPassportNumber: 'A1234567',
        driverFaceImage: expect.stringMatching(/^\/api\/images\//),
        passportImage: expect.stringMatching(/^\/api\/images\//),
      });
    });

    it('refuses a forged cursor', async () => {
      const admin = await t.registerTenant();

      expect((await admin.get('/api/entry-logs?cursor=garbage')).statusCode).toBe(400);
    });
  });

  describe('GET /api/dashboard', () => {
    it('computes the figures from the data', async () => {
      const admin = await t.registerTenant();
      await t.createSignedInUser(admin, 'security_guard');
      await register(admin, 'KP35XKGP');
      await admin.post(
        '/api/auto-gate/grant-entry',
        autoGateEntry('KP35XKGP', { plateImage: null, driverFaceImage: null }),
      );
      await admin.post('/api/auto-gate/grant-entry', { plateNumber: 'VISIT1GP' });

      const response = await admin.get('/api/dashboard');

      expect(response.json()).toMatchObject({
        totalEntries: 2,
        todayEntries: 2,
        approvedEntries: 1,
        grantedEntries: 2,
        // The client's claim of a verified face is not evidence.
        faceVerifiedEntries: 0,
        approvalRate: 100,
        verificationRate: 0,
        registeredVehicles: 1,
        activeUsers: 2,
      });
      expect(response.json().recentEntries).toHaveLength(2);
    });
  });
});

// The real face engine: grant-entry takes the face verdict from the server's own comparison record.
describe('grant-entry with faceComparisonId', () => {
  let t: TestApp;
  let face: string;
  let otherFace: string;
  beforeAll(async () => {
    t = await createTestApp();
    const { sampleFace } = await import('@boomgate/vision/testing');
    face = `data:image/jpeg;base64,${(await sampleFace('left')).toString('base64')}`;
    otherFace = `data:image/jpeg;base64,${(await sampleFace('right')).toString('base64')}`;
  });
  afterAll(() => t.close());

  async function enrolledVehicle(admin: Session, plateNumber: string) {
    const created = await admin.post('/api/approved-vehicles', {
      plateNumber,
      driverName: 'Sipho',
      driverPhoto: face,
      biometricConsent: true,
    });
    expect(created.statusCode).toBe(201);
    return created.json<{ id: string }>();
  }
  const compare = async (session: Session, image: string, approvedVehicleId: string) =>
    (await session.post('/api/face-comparison', { image1: image, approvedVehicleId })).json<{
      comparisonId: string;
      matchScore: number;
      decision: string;
    }>();
  const grant = (session: Session, plateNumber: string, extra: Record<string, unknown>) =>
    session.post('/api/auto-gate/grant-entry', {
      category: 'contracted',
      plateNumber,
      vehicleApproved: true,
      entryGranted: true,
      ...extra,
    });

  it("logs the comparison's own score and verdict, whatever the client claims", async () => {
    const admin = await t.registerTenant();
    const vehicle = await enrolledVehicle(admin, 'ND123456');
    const comparison = await compare(admin, face, vehicle.id);

    const entry = await grant(admin, 'ND123456', {
      faceVerified: true,
      matchScore: 100,
      faceComparisonId: comparison.comparisonId,
    });

    expect(entry.statusCode).toBe(201);
    expect(entry.json()).toMatchObject({ faceVerified: true, matchScore: comparison.matchScore });
  }, 90_000);

  it('records the comparison that did not verify as not verified, and refuses one for another vehicle, user or time', async () => {
    const admin = await t.registerTenant();
    const guard = await t.createSignedInUser(admin, 'security_guard');
    const vehicle = await enrolledVehicle(admin, 'ND223344');
    await enrolledVehicle(admin, 'ND998877');
    const mismatch = await compare(admin, otherFace, vehicle.id);
    const match = await compare(admin, face, vehicle.id);
    expect(mismatch.decision).toBe('no_match');

    const claimed = await grant(admin, 'ND223344', {
      faceVerified: true,
      faceComparisonId: mismatch.comparisonId,
    });
    const otherVehicle = await grant(admin, 'ND998877', {
      faceVerified: true,
      faceComparisonId: match.comparisonId,
    });
    const otherUser = await grant(guard, 'ND223344', {
      faceVerified: true,
      faceComparisonId: match.comparisonId,
    });
    const notAComparison = await grant(admin, 'ND223344', {
      faceVerified: true,
      faceComparisonId: '00000000-0000-4000-8000-000000000000',
    });
    t.clock.advanceMs(16 * 60_000);
    const expired = await grant(admin, 'ND223344', {
      faceVerified: true,
      faceComparisonId: match.comparisonId,
    });

    expect(claimed.statusCode).toBe(201);
    expect(claimed.json()).toMatchObject({
      faceVerified: false,
      matchScore: mismatch.matchScore,
      entryGranted: false,
      refusalReason: 'face_mismatch',
      warnings: [{ code: 'face_claim_contradicted' }, { code: 'grant_claim_contradicted' }],
    });
    expect(otherVehicle.json().error.message).toContain('another vehicle');
    for (const refused of [otherVehicle, otherUser, notAComparison, expired])
      expect(refused.statusCode).toBe(400);
    expect(expired.json().error.message).toContain('not found or has expired');
    expect(
      await t.ownerQuery(`select 1 from entry_logs where tenant_id = $1`, [admin.body.tenant.id]),
    ).toHaveLength(1);
    expect(
      await t.ownerQuery(
        `select used_by_entry_id from face_comparisons where tenant_id = $1 and id = $2`,
        [admin.body.tenant.id, mismatch.comparisonId],
      ),
    ).toEqual([{ used_by_entry_id: claimed.json().id }]);
  }, 90_000);

  it("verifies the registered driver's own face sent with the entry, and never a stranger's", async () => {
    const admin = await t.registerTenant();
    await enrolledVehicle(admin, 'ND445566');

    const own = await grant(admin, 'ND445566', { driverFaceImage: face });
    const stranger = await grant(admin, 'ND445566', {
      driverFaceImage: otherFace,
      faceVerified: true,
      matchScore: 99.9,
    });

    expect(own.statusCode).toBe(201);
    expect(own.json()).toMatchObject({ faceVerified: true, warnings: [] });
    expect(own.json().matchScore).toBeGreaterThanOrEqual(95);
    expect(stranger.statusCode).toBe(201);
    expect(stranger.json()).toMatchObject({
      faceVerified: false,
      entryGranted: false,
      refusalReason: 'face_mismatch',
      warnings: [{ code: 'face_claim_contradicted' }, { code: 'grant_claim_contradicted' }],
    });
    expect(own.json()).toMatchObject({ entryGranted: true, refusalReason: null });
    expect(stranger.json().matchScore).toBeLessThan(70);
    const records = await t.ownerQuery<{ used_by_entry_id: string; decision: string }>(
      `select used_by_entry_id, decision from face_comparisons where tenant_id = $1
        order by compared_at, decision`,
      [admin.body.tenant.id],
    );
    expect(records).toEqual(
      expect.arrayContaining([
        { used_by_entry_id: own.json().id, decision: 'match' },
        { used_by_entry_id: stranger.json().id, decision: 'no_match' },
      ]),
    );
    expect(
      await t.ownerQuery(
        `select 1 from audit_events where tenant_id = $1 and action = 'face.compared'`,
        [admin.body.tenant.id],
      ),
    ).toHaveLength(2);
  }, 90_000);

  it('lets one comparison back one entry, and never a photo the client chose for an enrolled driver', async () => {
    const admin = await t.registerTenant();
    const vehicle = await enrolledVehicle(admin, 'ND667788');
    const comparison = await compare(admin, face, vehicle.id);
    const chosenPhoto = (
      await admin.post('/api/face-comparison', { image1: face, image2: face })
    ).json<{ comparisonId: string; decision: string }>();

    const first = await grant(admin, 'ND667788', {
      faceVerified: true,
      faceComparisonId: comparison.comparisonId,
    });
    const again = await grant(admin, 'ND667788', {
      faceVerified: true,
      faceComparisonId: comparison.comparisonId,
    });
    const withChosenPhoto = await grant(admin, 'ND667788', {
      faceVerified: true,
      faceComparisonId: chosenPhoto.comparisonId,
    });

    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(400);
    expect(again.json().error.message).toContain('already backs another entry');
    expect(chosenPhoto.decision).toBe('match');
    expect(withChosenPhoto.statusCode).toBe(400);
    expect(withChosenPhoto.json().error.message).toContain('another vehicle');
    expect(
      await t.ownerQuery(`select 1 from entry_logs where tenant_id = $1`, [admin.body.tenant.id]),
    ).toHaveLength(1);
  }, 90_000);

  it('lets one comparison back one entry when 40 grants cite it at the same time (REL-04)', async () => {
    const admin = await t.registerTenant();
    const vehicle = await enrolledVehicle(admin, 'ND778899');
    const comparison = await compare(admin, face, vehicle.id);

    // Different Idempotency-Keys: 40 distinct entries, not retries of one.
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        admin.post(
          '/api/auto-gate/grant-entry',
          {
            category: 'contracted',
            plateNumber: 'ND778899',
            vehicleApproved: true,
            entryGranted: true,
            faceVerified: true,
            faceComparisonId: comparison.comparisonId,
          },
          { headers: { 'idempotency-key': `concurrent-${index}-${t.unique('k')}` } },
        ),
      ),
    );

    expect(comparison.decision).toBe('match');
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([201, ...Array<number>(39).fill(400)]);
    for (const refused of responses.filter((response) => response.statusCode === 400))
      expect(refused.json().error.message).toContain('already backs another entry');
    expect(
      await t.ownerQuery(`select 1 from entry_logs where tenant_id = $1`, [admin.body.tenant.id]),
    ).toHaveLength(1);
  }, 120_000);

  it('never stores a verified face without a comparison once the organization gates on anti-spoofing', async () => {
    const admin = await t.registerTenant();
    const vehicle = await enrolledVehicle(admin, 'ND554433');
    await admin.patch('/api/settings', { antispoofGating: true, antispoofThreshold: 0.05 });

    const bare = await grant(admin, 'ND554433', { faceVerified: true, matchScore: 95 });
    const comparison = await compare(admin, face, vehicle.id);
    const cited = await grant(admin, 'ND554433', {
      faceVerified: true,
      faceComparisonId: comparison.comparisonId,
    });

    expect(bare.statusCode).toBe(201);
    expect(bare.json()).toMatchObject({
      faceVerified: false,
      entryGranted: false,
      refusalReason: 'face_error',
      warnings: [{ code: 'face_claim_unbacked' }, { code: 'grant_claim_contradicted' }],
    });
    expect(comparison.decision).toBe('match');
    expect(cited.json()).toMatchObject({ faceVerified: true });
  }, 90_000);
});
