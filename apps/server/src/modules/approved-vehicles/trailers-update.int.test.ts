import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

/** Issue 21: PUT /api/approved-vehicles/{id}/trailers edits a rig's trailers. */
describe("editing a vehicle's trailers", () => {
  let t: TestApp;
  let admin: Session;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.registerTenant();
  });
  afterAll(() => t.close());

  let counter = 200;
  const aPlate = () => `TR ${counter++} GP`;

  const aVehicle = async (trailers: Record<string, unknown>[] = []) => {
    const response = await admin.post('/api/approved-vehicles', {
      plateNumber: aPlate(),
      driverName: 'Thabo Mokoena',
      trailers,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: string; plateNumber: string }>();
  };

  const put = (session: Session, id: string, body: unknown) =>
    session.put(`/api/approved-vehicles/${id}/trailers`, body as Record<string, unknown>);

  const trailerAudits = (id: string) =>
    t.ownerQuery<{ action: string; actor_user_id: string; details: Record<string, unknown> }>(
      `select action, actor_user_id, details from audit_events
        where tenant_id = $1 and target_id = $2 and action = 'approved-vehicle.trailers-updated'
        order by occurred_at`,
      [admin.body.tenant.id, id],
    );

  it('replaces the trailers (normalised), lists them and audits before and after', async () => {
    const first = aPlate();
    const vehicle = await aVehicle([{ plateNumber: first, discNumber: 'D1' }]);
    const backOffice = await t.createSignedInUser(admin, 'back_office');

    const response = await put(backOffice, vehicle.id, {
      trailers: [
        { plateNumber: 'ab 12 cd gp', discNumber: 'MVL1CC42', discExpiry: '2027-03-31' },
        { plateNumber: 'XY99ZZGP' },
      ],
    });

    expect(response.statusCode, response.body).toBe(200);
    const expected = [
      { plateNumber: 'AB12CDGP', discNumber: 'MVL1CC42', discExpiry: '2027-03-31' },
      { plateNumber: 'XY99ZZGP', discNumber: null, discExpiry: null },
    ];
    expect(response.json()).toMatchObject({ id: vehicle.id, trailers: expected });
    const listed = (await admin.get('/api/approved-vehicles')).json<
      { id: string; trailers: unknown }[]
    >();
    expect(listed.find((row) => row.id === vehicle.id)?.trailers).toEqual(expected);
    expect(await trailerAudits(vehicle.id)).toEqual([
      {
        action: 'approved-vehicle.trailers-updated',
        actor_user_id: backOffice.body.user.id,
        details: { before: [first.replace(/ /g, '')], after: ['AB12CDGP', 'XY99ZZGP'] },
      },
    ]);

    const cleared = await put(admin, vehicle.id, { trailers: [] });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toMatchObject({ trailers: [] });
  });

  it('answers bad input with a 4xx in the error format and changes nothing', async () => {
    const vehicle = await aVehicle([{ plateNumber: 'KEEP01GP' }]);
    const cases: [unknown, number][] = [
      [{ trailers: [{ plateNumber: 'A1' }, { plateNumber: 'B2' }, { plateNumber: 'C3' }] }, 400],
      [{ trailers: [{ plateNumber: 'AA11GP' }, { plateNumber: 'aa 11 gp' }] }, 400],
      [{ trailers: [{ plateNumber: 'AA11GP', discExpiry: '31/03/2027' }] }, 400],
      [{ trailers: [{ plateNumber: '' }] }, 400],
      [{ trailers: 'none' }, 400],
      [{}, 400],
      [{ trailers: [], extra: 1 }, 400],
      [{ trailers: [{ plateNumber: vehicle.plateNumber.toLowerCase() }] }, 422],
    ];
    for (const [body, status] of cases) {
      const response = await put(admin, vehicle.id, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect(response.json()).toEqual({
        error: expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
      });
    }
    const ownPlate = await admin.post('/api/approved-vehicles', {
      plateNumber: 'OWN 1 GP',
      driverName: 'Thabo Mokoena',
      trailers: [{ plateNumber: 'own1gp' }],
    });
    expect(ownPlate.statusCode).toBe(422);
    expect(ownPlate.json().error.message).toBe(
      "A trailer cannot carry the vehicle's own plate (OWN1GP).",
    );
    const missing = await put(admin, '00000000-0000-4000-8000-000000000000', { trailers: [] });
    expect(missing.statusCode).toBe(404);
    const listed = (await admin.get('/api/approved-vehicles')).json<
      { id: string; trailers: { plateNumber: string }[] }[]
    >();
    expect(listed.find((row) => row.id === vehicle.id)?.trailers).toMatchObject([
      { plateNumber: 'KEEP01GP' },
    ]);
    expect(await trailerAudits(vehicle.id)).toEqual([]);
  });

  it('refuses a trailer plate the watchlist blocks, audited, and keeps the old trailers', async () => {
    const vehicle = await aVehicle();
    const watched = aPlate();
    const entry = await admin.post('/api/watchlist', {
      kind: 'plate',
      value: watched,
      reason: 'Stolen trailer',
      severity: 'block',
    });
    expect(entry.statusCode, entry.body).toBe(201);

    const response = await put(admin, vehicle.id, { trailers: [{ plateNumber: watched }] });

    expect(response.statusCode).toBe(422);
    expect(response.json().error.message).toMatch(/watchlist.*Stolen trailer/);
    const refused = await t.ownerQuery<{ details: Record<string, unknown> }>(
      `select details from audit_events where tenant_id = $1 and action = 'approved-vehicle.refused'`,
      [admin.body.tenant.id],
    );
    expect(refused).toEqual([
      {
        details: expect.objectContaining({
          refusalReason: 'watchlist',
          plateNumbers: [watched.replace(/ /g, '')],
        }),
      },
    ]);
    const listed = (await admin.get('/api/approved-vehicles')).json<
      { id: string; trailers: unknown[] }[]
    >();
    expect(listed.find((row) => row.id === vehicle.id)?.trailers).toEqual([]);
  });

  it('is not for a security guard', async () => {
    const vehicle = await aVehicle();
    const guard = await t.createSignedInUser(admin, 'security_guard');
    const response = await put(guard, vehicle.id, { trailers: [] });
    expect(response.statusCode).toBe(403);
  });
});
