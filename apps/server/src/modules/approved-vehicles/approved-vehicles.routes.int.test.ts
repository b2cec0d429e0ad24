import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { noFaceImage, sampleFace } from '@boomgate/vision/testing';

import { addMonths, siteDay } from '@/platform/calendar';
import { type TestApp, createTestApp } from '@/testing/test-app';

describe('approved vehicles routes', () => {
  let t: TestApp;
  let photo: string;
  beforeAll(async () => {
    t = await createTestApp();
    // A real face: registration enrols the driver's face with the real engine.
    photo = `data:image/jpeg;base64,${(await sampleFace('left')).toString('base64')}`;
  });
  afterAll(() => t.close());

  const aVehicle = (overrides: Record<string, unknown> = {}) => ({
    plateNumber: ` ca 123-${Math.floor(100 + Math.random() * 900)} `,
    driverName: ' Sipho Nkosi ',
    driverLicense: '',
    company: 'Kumba Haulage',
    approvedUntil: '2099-12-31',
    ...overrides,
  });

  it('registers a vehicle with a normalised plate, storing the photo only with consent', async () => {
    const admin = await t.registerTenant();
    const guard = await t.createSignedInUser(admin, 'security_guard');

    const response = await guard.post(
      '/api/approved-vehicles',
      aVehicle({
        plateNumber: 'kp 35-xk gp',
        driverPhoto: photo,
        biometricConsent: true,
        approvedUntil: undefined,
      }),
    );

    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      plateNumber: 'KP35XKGP',
      driverName: 'Sipho Nkosi',
      driverLicense: null,
      company: 'Kumba Haulage',
      // A guard's registration waits for back office or an admin (separation of duties).
      isActive: false,
      pendingApproval: 'registration',
      driverPhoto: expect.stringMatching(
        new RegExp(`^/api/images/${admin.body.tenant.id}/driver-photos/[0-9a-f-]{36}\\.jpg$`),
      ),
    });
    const [row] = await t.ownerQuery<{ photo_consent_by: string; photo_consent_notice: string }>(
      'select photo_consent_by, photo_consent_notice from approved_vehicles where id = $1',
      [response.json().id],
    );
    expect(row?.photo_consent_by).toBe(guard.body.user.id);
    expect(row?.photo_consent_notice).toMatch(/notice/);
  });

  it('enrols the driver face with a sealed descriptor, and refuses a photo without a face', async () => {
    const admin = await t.registerTenant();

    const enrolled = await admin.post(
      '/api/approved-vehicles',
      aVehicle({ driverPhoto: photo, biometricConsent: true }),
    );
    const noFace = await admin.post(
      '/api/approved-vehicles',
      aVehicle({
        driverPhoto: `data:image/jpeg;base64,${(await noFaceImage()).toString('base64')}`,
        biometricConsent: true,
      }),
    );

    expect(enrolled.json()).toMatchObject({ hasFaceEnrolment: true });
    const [row] = await t.ownerQuery<{
      driver_face_descriptor: string;
      biometrics_purge_after: Date;
    }>(
      'select driver_face_descriptor, biometrics_purge_after from approved_vehicles where id = $1',
      [enrolled.json().id],
    );
    expect(row?.driver_face_descriptor).toMatch(/^v1\./);
    expect(row?.driver_face_descriptor).not.toMatch(/\d\.\d{3,},/);
    expect(row?.biometrics_purge_after.getTime()).toBeGreaterThan(
      t.clock.now().getTime() + 364 * 86_400_000,
    );
    expect(noFace.statusCode).toBe(422);
    expect(noFace.json().error.message).toMatch(/^Driver photo: No face found/);
  }, 60_000);

  it('purges the photo and descriptor once the retention period is over, once', async () => {
    const admin = await t.registerTenant();
    const vehicle = (
      await admin.post(
        '/api/approved-vehicles',
        aVehicle({ driverPhoto: photo, biometricConsent: true }),
      )
    ).json();
    t.clock.advanceMs(366 * 86_400_000);

    const purged = await t.modules.approvedVehicles.service.purgeExpiredBiometrics();
    const again = await t.modules.approvedVehicles.service.purgeExpiredBiometrics();
    const fresh = await t.login(admin.body.user.username, admin.password);

    expect(purged).toBeGreaterThanOrEqual(1);
    expect(again).toBe(0);
    expect((await fresh.get('/api/approved-vehicles')).json()[0]).toMatchObject({
      driverPhoto: null,
      hasFaceEnrolment: false,
    });
    expect((await fresh.get(vehicle.driverPhoto)).statusCode).toBe(404);
    expect(
      await t.ownerQuery(
        `select 1 from audit_events where tenant_id = $1 and action = 'biometrics.purged'`,
        [admin.body.tenant.id],
      ),
    ).toHaveLength(1);
  }, 60_000);

  it('purges every due approval in one run, batch after batch', async () => {
    const admin = await t.registerTenant();
    for (const plateNumber of ['BAT1GP', 'BAT2GP', 'BAT3GP'])
      await admin.post(
        '/api/approved-vehicles',
        aVehicle({ plateNumber, driverPhoto: photo, biometricConsent: true }),
      );
    t.clock.advanceMs(366 * 86_400_000);

    const purged = await t.modules.approvedVehicles.service.purgeExpiredBiometrics(1);

    expect(purged).toBeGreaterThanOrEqual(3);
    expect(
      await t.ownerQuery(
        `select 1 from approved_vehicles where tenant_id = $1 and driver_photo_key is not null`,
        [admin.body.tenant.id],
      ),
    ).toHaveLength(0);
  }, 60_000);

  it("purges on the tenant's own shorter retention period, and only that tenant's", async () => {
    const strict = await t.registerTenant();
    const lenient = await t.registerTenant();
    const period = await strict.patch('/api/settings', { biometricRetentionDays: 30 });
    const enrol = (admin: typeof strict) =>
      admin.post(
        '/api/approved-vehicles',
        aVehicle({ driverPhoto: photo, biometricConsent: true }),
      );
    const [a, b] = [(await enrol(strict)).json(), (await enrol(lenient)).json()];
    t.clock.advanceMs(31 * 86_400_000);

    await t.modules.approvedVehicles.service.purgeExpiredBiometrics();
    const rows = await t.ownerQuery<{ id: string; driver_photo_key: string | null }>(
      'select id, driver_photo_key from approved_vehicles where id = any($1)',
      [[a.id, b.id]],
    );

    expect(period.statusCode).toBe(200);
    expect(rows.find((row) => row.id === a.id)?.driver_photo_key).toBeNull();
    expect(rows.find((row) => row.id === b.id)?.driver_photo_key).not.toBeNull();
  }, 60_000);

  it('refuses a driver photo without recorded consent', async () => {
    const admin = await t.registerTenant();

    const response = await admin.post('/api/approved-vehicles', aVehicle({ driverPhoto: photo }));

    expect(response.statusCode).toBe(400);
    expect(
      await t.ownerQuery('select 1 from approved_vehicles where tenant_id = $1', [
        admin.body.tenant.id,
      ]),
    ).toHaveLength(0);
  });

  it("answers the spec's message without a driver name and refuses a plate registered twice", async () => {
    const admin = await t.registerTenant();
    await admin.post('/api/approved-vehicles', aVehicle({ plateNumber: 'ND 123-456' }));

    const missing = await admin.post('/api/approved-vehicles', aVehicle({ driverName: '  ' }));
    const duplicate = await admin.post(
      '/api/approved-vehicles',
      aVehicle({ plateNumber: 'nd123456' }),
    );

    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toContain('Plate number and driver name are required');
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().error.message).toBe('Vehicle ND123456 is already registered.');
  });

  it('serves the driver photo to the same tenant only, as a sandboxed JPEG', async () => {
    const acme = await t.registerTenant();
    const other = await t.registerTenant();
    const created = await acme.post(
      '/api/approved-vehicles',
      aVehicle({ driverPhoto: photo, biometricConsent: true }),
    );
    const url: string = created.json().driverPhoto;

    const own = await acme.get(url);
    const foreign = await other.get(url);
    const anonymous = await t.inject({ method: 'GET', url });

    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/jpeg');
    expect(own.headers['content-security-policy']).toBe('sandbox');
    expect(own.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(foreign.statusCode).toBe(404);
    expect(anonymous.statusCode).toBe(401);
    expect(
      await t.ownerQuery(
        `select target_type from audit_events where tenant_id = $1 and action = 'image.viewed'`,
        [acme.body.tenant.id],
      ),
    ).toEqual([{ target_type: 'driver-photos' }]);
  });

  it('refuses a file that is not an image and one over 10 MB', async () => {
    const admin = await t.registerTenant();
    const html = `data:image/jpeg;base64,${Buffer.from('<html><script>alert(1)</script></html>').toString('base64')}`;

    const notImage = await admin.post(
      '/api/approved-vehicles',
      aVehicle({ driverPhoto: html, biometricConsent: true }),
    );
    const tooBig = await admin.post(
      '/api/approved-vehicles',
      aVehicle({
        driverPhoto: `data:image/jpeg;base64,${'/9j/'.padEnd(14_000_000, 'A')}`,
        biometricConsent: true,
      }),
    );

    expect(notImage.statusCode).toBe(415);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().error.message).toBe('Please upload an image smaller than 10MB.');
  });

  it('looks a plate up in any spelling and says whether it may enter', async () => {
    const admin = await t.registerTenant();
    await admin.post(
      '/api/approved-vehicles',
      aVehicle({ plateNumber: 'BCD 123 MP', driverPhoto: photo, biometricConsent: true }),
    );
    await admin.post(
      '/api/approved-vehicles',
      aVehicle({ plateNumber: 'XYZ 999 GP', approvedUntil: '2020-01-01' }),
    );
    await admin.post(
      '/api/approved-vehicles',
      aVehicle({ plateNumber: 'ABC 111 NW', isActive: false }),
    );

    const lookup = await admin.get('/api/approved-vehicles/plate/bcd-123-mp');
    const missing = await admin.get('/api/approved-vehicles/plate/NOPE1');
    const verdicts = await Promise.all(
      ['BCD123MP', 'XYZ999GP', 'ABC111NW', 'NOPE1'].map(async (plate) =>
        (await admin.get(`/api/verify-vehicle/${plate}`)).json(),
      ),
    );

    expect(lookup.json()).toMatchObject({
      isActive: true,
      driverName: 'Sipho Nkosi',
      company: 'Kumba Haulage',
      driverPhoto: expect.any(String),
    });
    expect(missing.statusCode).toBe(404);
    expect(verdicts.map((v) => [v.approved, v.reason])).toEqual([
      [true, 'approved'],
      [false, 'expired'],
      [false, 'inactive'],
      [false, 'not_registered'],
    ]);
  });

  it("deletes a vehicle; another tenant's id answers like a missing one", async () => {
    const acme = await t.registerTenant();
    const other = await t.registerTenant();
    const created = (await acme.post('/api/approved-vehicles', aVehicle())).json();

    const foreign = await other.delete(`/api/approved-vehicles/${created.id}`);
    const random = await other.delete(`/api/approved-vehicles/${crypto.randomUUID()}`);
    const deleted = await acme.delete(`/api/approved-vehicles/${created.id}`);

    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(random.body);
    expect(deleted.statusCode).toBe(204);
    expect((await acme.get('/api/approved-vehicles')).json()).toEqual([]);
  });

  describe('separation of duties', () => {
    const actionsOf = async (tenantId: string, vehicleId: string) =>
      (
        await t.ownerQuery<{ action: string }>(
          'select action from audit_events where tenant_id = $1 and target_id = $2 order by occurred_at',
          [tenantId, vehicleId],
        )
      ).map((row) => row.action);

    it("keeps a guard's approval pending until back office confirms it", async () => {
      const admin = await t.registerTenant();
      const guard = await t.createSignedInUser(admin, 'security_guard');
      const backOffice = await t.createSignedInUser(admin, 'back_office');

      const proposed = await guard.post(
        '/api/approved-vehicles',
        aVehicle({ driverPhoto: photo, biometricConsent: true, approvedUntil: undefined }),
      );
      const plate = proposed.json().plateNumber as string;
      const verifyPending = await guard.get(`/api/verify-vehicle/${plate}`);
      const lookupPending = await guard.get(`/api/approved-vehicles/plate/${plate}`);
      const confirmed = await backOffice.post(
        `/api/approved-vehicles/${proposed.json().id}/confirm`,
        {},
      );
      const verifyConfirmed = await guard.get(`/api/verify-vehicle/${plate}`);

      expect(proposed.statusCode).toBe(201);
      expect(proposed.json()).toMatchObject({
        isActive: false,
        pendingApproval: 'registration',
        approvedUntil: addMonths(siteDay(t.clock.now()), 12),
        hasFaceEnrolment: true,
      });
      expect(verifyPending.json()).toMatchObject({ approved: false, reason: 'pending_approval' });
      expect(lookupPending.json()).toMatchObject({ isActive: false });
      expect(confirmed.statusCode).toBe(200);
      expect(confirmed.json()).toMatchObject({
        outcome: 'approved',
        vehicle: { id: proposed.json().id, isActive: true, pendingApproval: null },
      });
      expect(verifyConfirmed.json()).toMatchObject({ approved: true, reason: 'approved' });
      expect(await actionsOf(admin.body.tenant.id, proposed.json().id)).toEqual([
        'approved-vehicle.proposed',
        'approved-vehicle.proposal-confirmed',
      ]);
    });

    it("makes a guard's delete a proposal that an admin confirms or rejects", async () => {
      const admin = await t.registerTenant();
      const guard = await t.createSignedInUser(admin, 'security_guard');
      const kept = (await admin.post('/api/approved-vehicles', aVehicle())).json();
      const gone = (await admin.post('/api/approved-vehicles', aVehicle())).json();

      const proposals = [
        await guard.delete(`/api/approved-vehicles/${kept.id}`),
        await guard.delete(`/api/approved-vehicles/${gone.id}`),
      ];
      const stillApproved = await guard.get(`/api/verify-vehicle/${gone.plateNumber}`);
      const rejected = await admin.post(`/api/approved-vehicles/${kept.id}/reject`, {
        note: 'Still contracted',
      });
      const confirmed = await admin.post(`/api/approved-vehicles/${gone.id}/confirm`, {});
      const list = (await admin.get('/api/approved-vehicles')).json<{ id: string }[]>();

      expect(proposals.map((response) => response.statusCode)).toEqual([202, 202]);
      expect(proposals[0]?.json()).toMatchObject({ id: kept.id, pendingApproval: 'deletion' });
      expect(stillApproved.json()).toMatchObject({ approved: true });
      expect(rejected.json()).toMatchObject({
        outcome: 'rejected',
        vehicle: { id: kept.id, pendingApproval: null, isActive: true },
      });
      expect(confirmed.json()).toEqual({ outcome: 'deleted', vehicle: null });
      expect(list.map((vehicle) => vehicle.id)).toEqual([kept.id]);
      expect(await actionsOf(admin.body.tenant.id, gone.id)).toEqual([
        'approved-vehicle.registered',
        'approved-vehicle.deletion-proposed',
        'approved-vehicle.deleted',
      ]);
      expect(await actionsOf(admin.body.tenant.id, kept.id)).toEqual([
        'approved-vehicle.registered',
        'approved-vehicle.deletion-proposed',
        'approved-vehicle.proposal-rejected',
      ]);
    });

    it('lets only one of two people deciding one proposal at once act on it', async () => {
      const admin = await t.registerTenant();
      const guard = await t.createSignedInUser(admin, 'security_guard');
      const backOffice = await t.createSignedInUser(admin, 'back_office');
      const vehicle = (await admin.post('/api/approved-vehicles', aVehicle())).json();
      expect((await guard.delete(`/api/approved-vehicles/${vehicle.id}`)).statusCode).toBe(202);

      const decisions = await Promise.all([
        admin.post(`/api/approved-vehicles/${vehicle.id}/reject`, { note: 'Keep it' }),
        backOffice.post(`/api/approved-vehicles/${vehicle.id}/confirm`, {}),
      ]);

      // The second finds it decided: 409 when the proposal was dropped, 404 when it was deleted.
      const [first, second] = decisions.map((response) => response.statusCode).sort();
      expect(first).toBe(200);
      expect([404, 409]).toContain(second);
      const actions = await actionsOf(admin.body.tenant.id, vehicle.id);
      expect(actions.slice(0, 2)).toEqual([
        'approved-vehicle.registered',
        'approved-vehicle.deletion-proposed',
      ]);
      expect(actions.slice(2)).toHaveLength(1);
      const stillListed = (await admin.get('/api/approved-vehicles'))
        .json<{ id: string }[]>()
        .some((row) => row.id === vehicle.id);
      expect(stillListed).toBe(actions[2] === 'approved-vehicle.proposal-rejected');
    });

    it("requires a driver photo for a guard's proposal", async () => {
      const admin = await t.registerTenant();
      const guard = await t.createSignedInUser(admin, 'security_guard');

      const response = await guard.post(
        '/api/approved-vehicles',
        aVehicle({ approvedUntil: undefined }),
      );

      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toMatch(/^Take a driver photo/);
      expect((await admin.get('/api/approved-vehicles')).json()).toEqual([]);
    });

    it("caps a guard's validity at the tenant's maximum", async () => {
      const admin = await t.registerTenant();
      const guard = await t.createSignedInUser(admin, 'security_guard');
      await admin.patch('/api/settings', { maxApprovalValidityMonths: 2 });
      const today = siteDay(t.clock.now());

      const to2099 = await guard.post(
        '/api/approved-vehicles',
        aVehicle({ driverPhoto: photo, biometricConsent: true, approvedUntil: '2099-12-31' }),
      );
      const threeMonths = await guard.post(
        '/api/approved-vehicles',
        aVehicle({
          driverPhoto: photo,
          biometricConsent: true,
          approvedUntil: addMonths(today, 3),
        }),
      );
      const twoMonths = await guard.post(
        '/api/approved-vehicles',
        aVehicle({
          driverPhoto: photo,
          biometricConsent: true,
          approvedUntil: addMonths(today, 2),
        }),
      );

      expect(to2099.statusCode).toBe(400);
      expect(to2099.json().error.message).toBe(
        `A security guard can approve a vehicle for at most 2 months (until ${addMonths(today, 2)}).`,
      );
      expect(threeMonths.statusCode).toBe(400);
      expect(twoMonths.statusCode).toBe(201);
    });

    it('lets admins and back office approve directly, with or without a photo', async () => {
      const admin = await t.registerTenant();
      const backOffice = await t.createSignedInUser(admin, 'back_office');

      const byBackOffice = await backOffice.post('/api/approved-vehicles', aVehicle());
      const byAdmin = await admin.post(
        '/api/approved-vehicles',
        aVehicle({ driverPhoto: photo, biometricConsent: true }),
      );

      for (const response of [byBackOffice, byAdmin]) {
        expect(response.statusCode).toBe(201);
        expect(response.json()).toMatchObject({
          isActive: true,
          pendingApproval: null,
          approvedUntil: '2099-12-31',
        });
      }
      expect((await admin.delete(`/api/approved-vehicles/${byAdmin.json().id}`)).statusCode).toBe(
        204,
      );
    });

    it('lets a guard register and delete directly when the tenant turns the setting off', async () => {
      const admin = await t.registerTenant();
      const guard = await t.createSignedInUser(admin, 'security_guard');
      const settings = await admin.patch('/api/settings', { separationOfDuties: false });

      const registered = await guard.post(
        '/api/approved-vehicles',
        aVehicle({ approvedUntil: undefined }),
      );
      const deleted = await guard.delete(`/api/approved-vehicles/${registered.json().id}`);

      expect(settings.json()).toMatchObject({ separationOfDuties: false });
      expect(registered.json()).toMatchObject({ isActive: true, pendingApproval: null });
      expect(deleted.statusCode).toBe(204);
    });

    it('answers 409 when nothing waits for approval', async () => {
      const admin = await t.registerTenant();
      const vehicle = (await admin.post('/api/approved-vehicles', aVehicle())).json();

      const response = await admin.post(`/api/approved-vehicles/${vehicle.id}/confirm`, {});

      expect(response.statusCode).toBe(409);
      expect(response.json().error.code).toBe('CONFLICT');
    });
  });
});
