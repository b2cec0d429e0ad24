import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Session, type TestApp, createTestApp } from '@/testing/test-app';
import { aCompletion, aTenantWithSecret, postIncoming, signedHeaders } from '@/testing/webhooks';

/**
 * Issue 16: camera reads and pushed requests belong to a site. A camera is placed at a site (its
 * reads are that site's); a booking system may name the site of an entry or an exit (one of the
 * tenant's, else 400); a guard of one site neither sees nor processes another site's rows.
 */
describe('sites for cameras and incoming requests (issue 16)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const plate = () =>
    t
      .unique('S')
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, '')
      .slice(0, 8);

  /** A tenant with its default site, a second site with one gate, and a guard of each site. */
  async function twoSites() {
    const tenant = await aTenantWithSecret(t);
    const { admin } = tenant;
    const [main] = (await admin.get('/api/sites')).json<{ id: string }[]>();
    const north = (await admin.post('/api/sites', { name: t.unique('North') })).json<{
      id: string;
    }>();
    const northGate = (
      await admin.post(`/api/sites/${north.id}/gates`, {
        name: 'North gate',
        lanes: [{ name: 'In', direction: 'in' }],
      })
    ).json<{ id: string }>();
    const guardOf = async (siteId: string) => {
      const guard = await t.createSignedInUser(admin, 'security_guard');
      const assigned = await admin.patch(`/api/users/${guard.body.user.id}`, {
        siteIds: [siteId],
      });
      expect(assigned.statusCode).toBe(200);
      return guard;
    };
    return {
      ...tenant,
      mainId: main!.id,
      northId: north.id,
      northGateId: northGate.id,
      mainGuard: await guardOf(main!.id),
      northGuard: await guardOf(north.id),
    };
  }

  const sendSigned = (
    tenant: { tenantId: string; secret: string },
    path: '' | '/exit',
    payload: Record<string, unknown>,
  ) => {
    const body = JSON.stringify(payload);
    return path === ''
      ? postIncoming(
          t,
          tenant.tenantId,
          body,
          signedHeaders(tenant.secret, body, { at: t.clock.now() }),
        )
      : t.inject({
          method: 'POST',
          url: `/api/webhook/incoming/${tenant.tenantId}/exit`,
          payload: body,
          headers: signedHeaders(tenant.secret, body, { at: t.clock.now() }),
        });
  };

  const feedIds = async (session: Session, query = '') => {
    const response = await session.get(`/api/webhook/pending-requests${query}`);
    expect(response.statusCode).toBe(200);
    return response.json<{ id: string }[]>();
  };

  it("a pushed entry naming a site is that site's: listed, filtered and processed there only", async () => {
    const tenant = await twoSites();
    const north = await sendSigned(tenant, '', {
      plateNumber: plate(),
      referenceNumber: 'REF-N',
      siteId: tenant.northId,
    });
    expect(north.statusCode).toBe(202);
    const northEntry = north.json<{ id: string }>().id;
    const unnamed = await sendSigned(tenant, '', {
      plateNumber: plate(),
      referenceNumber: 'REF-M',
    });
    expect(unnamed.statusCode).toBe(202);
    const mainEntry = unnamed.json<{ id: string }>().id;

    // Stored at the site named (else the default site); the admin sees both, the filter one site's.
    const atSites = await t.ownerQuery<{ id: string; site_id: string }>(
      'select id, site_id from incoming_requests where tenant_id = $1 order by site_id = $2',
      [tenant.tenantId, tenant.mainId],
    );
    expect(atSites).toEqual([
      { id: northEntry, site_id: tenant.northId },
      { id: mainEntry, site_id: tenant.mainId },
    ]);
    expect((await feedIds(tenant.admin)).map((r) => r.id).sort()).toEqual(
      [northEntry, mainEntry].sort(),
    );
    expect((await feedIds(tenant.admin, `?siteId=${tenant.northId}`)).map((r) => r.id)).toEqual([
      northEntry,
    ]);
    // Each guard sees their own site's entry only.
    expect((await feedIds(tenant.northGuard)).map((r) => r.id)).toEqual([northEntry]);
    expect((await feedIds(tenant.mainGuard)).map((r) => r.id)).toEqual([mainEntry]);

    // Another site's entry cannot be processed by the guard (404, as unknown); its own can.
    const refused = await tenant.mainGuard.post(
      `/api/webhook/process-request/${northEntry}`,
      aCompletion(),
    );
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'Incoming request not found.' },
    });
    const stored = await t.ownerQuery<{ completed_at: Date | null }>(
      'select completed_at from incoming_requests where id = $1',
      [northEntry],
    );
    expect(stored).toEqual([{ completed_at: null }]);
    const processed = await tenant.northGuard.post(
      `/api/webhook/process-request/${northEntry}`,
      aCompletion(),
    );
    expect(processed.statusCode).toBe(200);
    expect(processed.json()).toMatchObject({ id: northEntry, status: 'Complete' });
  });

  it("refuses a site that is unknown, another tenant's or inactive with 400, storing nothing", async () => {
    const tenant = await twoSites();
    const other = await twoSites();
    const before = await feedIds(tenant.admin);

    for (const siteId of [other.northId, crypto.randomUUID()]) {
      const response = await sendSigned(tenant, '', { plateNumber: plate(), siteId });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: { code: 'INVALID', message: 'Unknown siteId: not a site of this organization.' },
      });
    }
    expect(
      (await tenant.admin.patch(`/api/sites/${tenant.northId}`, { isActive: false })).statusCode,
    ).toBe(200);
    const inactive = await sendSigned(tenant, '', { plateNumber: plate(), siteId: tenant.northId });
    expect(inactive.statusCode).toBe(400);
    expect(inactive.json()).toMatchObject({ error: { code: 'INVALID' } });
    const malformed = await sendSigned(tenant, '', { plateNumber: plate(), siteId: 'north' });
    expect(malformed.statusCode).toBe(400);

    expect(await feedIds(tenant.admin)).toEqual(before);
  });

  it("a pushed exit naming a site closes the plate's visit at that site, not another site's", async () => {
    const tenant = await twoSites();
    const truck = plate();
    // The same plate is (wrongly) open at both sites: the main site's first, then the north's.
    const atMain = await tenant.admin.post('/api/auto-gate/grant-entry', {
      plateNumber: truck,
      siteId: tenant.mainId,
    });
    expect(atMain.statusCode).toBe(201);
    t.clock.advanceMs(1000);
    const atNorth = await tenant.admin.post('/api/auto-gate/grant-entry', {
      plateNumber: truck,
      gateId: tenant.northGateId,
    });
    expect(atNorth.json()).toMatchObject({ siteId: tenant.northId });

    // The main site's exit closes the main site's visit, though the north's is newer.
    const out = await sendSigned(tenant, '/exit', { plateNumber: truck, siteId: tenant.mainId });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toMatchObject({
      duplicate: false,
      visit: { entryLogId: atMain.json().id, siteId: tenant.mainId, exitSource: 'webhook' },
    });
    // Our entry id at the wrong site is not found; the north gate is not the main site's.
    const wrongSite = await sendSigned(tenant, '/exit', {
      entryLogId: atNorth.json().id,
      siteId: tenant.mainId,
    });
    expect(wrongSite.statusCode).toBe(404);
    const other = await twoSites();
    const foreign = await sendSigned(tenant, '/exit', { plateNumber: truck, siteId: other.mainId });
    expect(foreign.statusCode).toBe(400);
    const north = await sendSigned(tenant, '/exit', {
      plateNumber: truck,
      siteId: tenant.northId,
      gateId: tenant.northGateId,
    });
    expect(north.json()).toMatchObject({
      visit: { entryLogId: atNorth.json().id, exitGateId: tenant.northGateId },
    });
  });

  it("a camera placed at a site files its reads there; other sites' admins and guards do not see it", async () => {
    const tenant = await twoSites();
    const created = await tenant.admin.post('/api/anpr/cameras', {
      name: 'North in',
      gateId: tenant.northGateId,
    });
    expect(created.statusCode).toBe(201);
    const camera = created.json<{ id: string; token: string; siteId: string; gateId: string }>();
    expect(camera).toMatchObject({ siteId: tenant.northId, gateId: tenant.northGateId });
    const unplaced = (await tenant.admin.post('/api/anpr/cameras', { name: 'Main in' })).json<{
      id: string;
      siteId: string;
      gateId: string | null;
    }>();
    expect(unplaced).toMatchObject({ siteId: tenant.mainId, gateId: null });

    const truck = plate();
    const read = await t.inject({
      method: 'POST',
      url: `/api/anpr/${camera.token}`,
      payload: { plateNumber: truck },
    });
    expect(read.statusCode).toBe(201);
    const truckList = async (session: Session) =>
      (await session.get('/api/truck-list')).json<{ plateNumber: string }[]>();
    expect((await truckList(tenant.northGuard)).map((row) => row.plateNumber)).toEqual([truck]);
    expect(await truckList(tenant.mainGuard)).toEqual([]);
    const [stored] = await t.ownerQuery<{ site_id: string }>(
      'select site_id from truck_list_entries where tenant_id = $1',
      [tenant.tenantId],
    );
    expect(stored).toEqual({ site_id: tenant.northId });

    // A tenant admin scoped to the main site sees and moves only the main site's cameras.
    const mainAdmin = await t.createSignedInUser(tenant.admin, 'tenant_admin');
    await tenant.admin.patch(`/api/users/${mainAdmin.body.user.id}`, { siteIds: [tenant.mainId] });
    expect((await mainAdmin.get('/api/anpr/cameras')).json()).toEqual([
      expect.objectContaining({ id: unplaced.id }),
    ]);
    expect(
      (await mainAdmin.patch(`/api/anpr/cameras/${camera.id}`, { name: 'Mine' })).statusCode,
    ).toBe(404);
    expect((await mainAdmin.delete(`/api/anpr/cameras/${camera.id}`)).statusCode).toBe(404);
    expect(
      (await mainAdmin.patch(`/api/anpr/cameras/${unplaced.id}`, { siteId: tenant.northId }))
        .statusCode,
    ).toBe(404);

    // The unscoped admin moves the north camera to the main site: its gate stays behind.
    const moved = await tenant.admin.patch(`/api/anpr/cameras/${camera.id}`, {
      siteId: tenant.mainId,
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ siteId: tenant.mainId, gateId: null });
    const audit = await t.ownerQuery<{ action: string }>(
      "select action from audit_events where tenant_id = $1 and action like 'anpr-camera.%' order by action",
      [tenant.tenantId],
    );
    expect(audit.map((row) => row.action)).toEqual([
      'anpr-camera.created',
      'anpr-camera.created',
      'anpr-camera.updated',
    ]);
    // Another tenant's gate, an empty patch: refused.
    const other = await twoSites();
    expect(
      (await tenant.admin.patch(`/api/anpr/cameras/${camera.id}`, { gateId: other.northGateId }))
        .statusCode,
    ).toBe(404);
    expect((await tenant.admin.patch(`/api/anpr/cameras/${camera.id}`, {})).statusCode).toBe(400);
  });
});
