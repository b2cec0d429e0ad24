import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type TestApp, createTestApp } from '@/testing/test-app';

/**
 * Issue 16: a guard at an out-lane scans (or types) the plate of a vehicle leaving, and the
 * server closes that plate's visit at the gate's site, never another site's.
 */
describe('POST /api/visits/plate-exit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const plate = () =>
    t
      .unique('P')
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, '')
      .slice(0, 8);

  async function twoSites() {
    const admin = await t.registerTenant();
    const [main] = (await admin.get('/api/sites')).json<{ id: string }[]>();
    const mainGate = (await admin.get(`/api/sites/${main!.id}/gates`)).json<{ id: string }[]>()[0]!;
    const north = (await admin.post('/api/sites', { name: 'North' })).json<{ id: string }>();
    const northGate = (
      await admin.post(`/api/sites/${north.id}/gates`, {
        name: 'North gate',
        lanes: [{ name: 'Out', direction: 'out' }],
      })
    ).json<{ id: string }>();
    const guard = await t.createSignedInUser(admin, 'security_guard');
    expect(
      (await admin.patch(`/api/users/${guard.body.user.id}`, { siteIds: [main!.id] })).statusCode,
    ).toBe(200);
    return { admin, guard, mainId: main!.id, mainGateId: mainGate.id, north, northGate };
  }

  it("closes the plate's visit at the gate's site: exit source guard, turnaround from the server's times", async () => {
    const { admin, guard, mainId, mainGateId } = await twoSites();
    const truck = plate();
    const entry = await admin.post('/api/auto-gate/grant-entry', {
      plateNumber: truck,
      gateId: mainGateId,
    });
    expect(entry.statusCode).toBe(201);
    // 45 minutes on site (the sessions touched, so their 30-minute idle timeout does not end them).
    for (let step = 0; step < 3; step++) {
      t.clock.advanceMs(15 * 60_000);
      await guard.get('/api/auth/me');
      await admin.get('/api/auth/me');
    }

    const out = await guard.post('/api/visits/plate-exit', {
      plateNumber: ` ${truck.toLowerCase()} `,
      gateId: mainGateId,
      sealNumbers: ['S1'],
    });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toMatchObject({
      entryLogId: entry.json().id,
      siteId: mainId,
      exitGateId: mainGateId,
      exitSource: 'guard',
      exitedBy: { id: guard.body.user.id },
      exitSealNumbers: ['S1'],
      turnaroundMinutes: 45,
    });
    expect((await guard.get('/api/on-site')).json()).toEqual([]);
    const audit = await t.ownerQuery<{ actor_user_id: string }>(
      "select actor_user_id from audit_events where action = 'visit.exited' and target_id = $1",
      [out.json().id],
    );
    expect(audit).toEqual([{ actor_user_id: guard.body.user.id }]);

    // Out already: nothing on site for the plate.
    const again = await guard.post('/api/visits/plate-exit', { plateNumber: truck });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({
      error: { code: 'NOT_FOUND', message: `Vehicle ${truck} is not on site.` },
    });
  });

  it("a guard of one site cannot close another site's visit or use its gate (404); bad input is 400", async () => {
    const { admin, guard, north, northGate } = await twoSites();
    const truck = plate();
    expect(
      (await admin.post('/api/auto-gate/grant-entry', { plateNumber: truck, siteId: north.id }))
        .statusCode,
    ).toBe(201);

    expect((await guard.post('/api/visits/plate-exit', { plateNumber: truck })).statusCode).toBe(
      404,
    );
    expect(
      (
        await guard.post('/api/visits/plate-exit', {
          plateNumber: truck,
          gateId: northGate.id,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await guard.post('/api/visits/plate-exit', { plateNumber: truck, siteId: north.id }))
        .statusCode,
    ).toBe(404);
    const open = await t.ownerQuery<{ exited_at: Date | null }>(
      'select exited_at from visits where plate_number = $1',
      [truck],
    );
    expect(open).toEqual([{ exited_at: null }]);

    for (const body of [{}, { plateNumber: '' }, { plateNumber: truck, extra: 1 }])
      expect((await guard.post('/api/visits/plate-exit', body)).statusCode).toBe(400);

    // The admin (every site) closes it at the north gate.
    const out = await admin.post('/api/visits/plate-exit', {
      plateNumber: truck,
      gateId: northGate.id,
    });
    expect(out.json()).toMatchObject({ siteId: north.id, exitGateId: northGate.id });
  });
});
