import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Session, type TestApp, createTestApp } from '@/testing/test-app';
import { aTenantWithSecret, sendEntry, signedHeaders } from '@/testing/webhooks';

describe('exit checks, the webhook exit and per-site lists (issue 16)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const plate = () =>
    t
      .unique('X')
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, '')
      .slice(0, 8);

  async function ticket(session: Session, body: Record<string, unknown>) {
    const response = await session.post('/api/weighbridge-ticket', {
      tareWeight: 15_000,
      grossWeight: 49_500,
      netWeight: 34_500,
      ...body,
    });
    expect(response.statusCode).toBe(201);
    return response.json<{ id: string }>().id;
  }

  async function admitted(session: Session, body: Record<string, unknown>) {
    const response = await session.post('/api/auto-gate/grant-entry', body);
    expect(response.statusCode).toBe(201);
    return response.json<{ id: string }>().id;
  }

  it("compares the exit's ticket and seals with the entry's and stores the mismatches", async () => {
    const admin = await t.registerTenant();
    const truck = plate();
    const inbound = await ticket(admin, {
      ticketNumber: 'WB-100',
      vehicleReg: truck,
      sealNumbers: ['S1', 'S2'],
    });
    const entryId = await admitted(admin, { plateNumber: truck, weighbridgeTicketId: inbound });

    const outbound = await ticket(admin, {
      ticketNumber: 'wb 100',
      vehicleReg: 'ND999',
      sealNumbers: 'S1, S9',
    });
    const exit = await admin.post(`/api/entry-logs/${entryId}/exit`, {
      weighbridgeTicketId: outbound,
    });
    expect(exit.statusCode).toBe(200);
    expect(exit.json()).toMatchObject({
      exitTicketNumber: 'wb 100',
      exitSealNumbers: ['S1', 'S9'],
      exitMismatches: [
        { code: 'seal_mismatch', entry: 'S1, S2', exit: 'S1, S9' },
        { code: 'ticket_vehicle_mismatch', entry: truck, exit: 'ND999' },
      ],
    });
    // Stored with the visit, not recomputed: the entry's visit shows the same.
    const visit = (await admin.get(`/api/entry-logs/${entryId}/visit`)).json();
    expect(visit.exitMismatches.map((m: { code: string }) => m.code)).toEqual([
      'seal_mismatch',
      'ticket_vehicle_mismatch',
    ]);
    const [audit] = await t.ownerQuery<{ details: { mismatches?: string[] } }>(
      "select details from audit_events where tenant_id = $1 and action = 'visit.exited'",
      [admin.body.tenant.id],
    );
    expect(audit?.details.mismatches).toEqual(['seal_mismatch', 'ticket_vehicle_mismatch']);

    // Seals typed by the guard that agree (order and case aside): nothing to warn about.
    const second = plate();
    const sealed = await ticket(admin, { ticketNumber: 'WB-7', sealNumbers: 'A1;B2' });
    const other = await admitted(admin, { plateNumber: second, weighbridgeTicketId: sealed });
    const clean = await admin.post(`/api/entry-logs/${other}/exit`, {
      ticketNumber: 'WB-7',
      sealNumbers: ['b2', 'a1'],
    });
    expect(clean.json()).toMatchObject({ exitMismatches: [], exitSealNumbers: ['b2', 'a1'] });

    const unknownTicket = await admin.post(
      `/api/entry-logs/${await admitted(admin, { plateNumber: plate() })}/exit`,
      { weighbridgeTicketId: crypto.randomUUID() },
    );
    expect(unknownTicket.statusCode).toBe(404);
  });

  it('records the exit a booking system pushes through the signed webhook', async () => {
    const tenant = await aTenantWithSecret(t);
    const truck = plate();
    const entryId = await admitted(tenant.admin, { plateNumber: truck });
    const send = (payload: Record<string, unknown>, id?: string) => {
      const body = JSON.stringify(payload);
      return t.inject({
        method: 'POST',
        url: `/api/webhook/incoming/${tenant.tenantId}/exit`,
        payload: body,
        headers: signedHeaders(tenant.secret, body, { at: t.clock.now(), ...(id && { id }) }),
      });
    };

    const first = await send({ plateNumber: truck.toLowerCase(), sealNumbers: ['Z1'] }, 'msg_1');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      duplicate: false,
      visit: { entryLogId: entryId, exitSource: 'webhook', exitedBy: { id: null } },
    });
    expect((await tenant.admin.get('/api/on-site')).json()).toEqual([]);
    // A redelivery answers the same visit; the entry stays exited once.
    const again = await send({ entryLogId: entryId }, 'msg_1');
    expect(again.json()).toMatchObject({ duplicate: true, visit: { entryLogId: entryId } });

    expect((await send({ plateNumber: plate() })).statusCode).toBe(404);
    expect((await send({ sealNumbers: ['Z1'] })).statusCode).toBe(400);
    const guardExited = await admitted(tenant.admin, { plateNumber: plate() });
    await tenant.admin.post(`/api/entry-logs/${guardExited}/exit`, {});
    expect((await send({ entryLogId: guardExited })).statusCode).toBe(409);

    // Unsigned, or signed with another tenant's secret: 401, nothing closed.
    const open = await admitted(tenant.admin, { plateNumber: plate() });
    const unsigned = await t.inject({
      method: 'POST',
      url: `/api/webhook/incoming/${tenant.tenantId}/exit`,
      payload: JSON.stringify({ entryLogId: open }),
      headers: { 'content-type': 'application/json' },
    });
    expect(unsigned.statusCode).toBe(401);
    const stranger = await aTenantWithSecret(t);
    const body = JSON.stringify({ entryLogId: open });
    const forged = await t.inject({
      method: 'POST',
      url: `/api/webhook/incoming/${tenant.tenantId}/exit`,
      payload: body,
      headers: signedHeaders(stranger.secret, body, { at: t.clock.now() }),
    });
    expect(forged.statusCode).toBe(401);
    expect((await tenant.admin.get(`/api/entry-logs/${open}/visit`)).json().exitedAt).toBeNull();
  });

  it("filters the truck list and the incoming feed by site; a guard sees their sites' only", async () => {
    const tenant = await aTenantWithSecret(t);
    const { admin } = tenant;
    const [main] = (await admin.get('/api/sites')).json<{ id: string }[]>();
    const north = (await admin.post('/api/sites', { name: 'North' })).json<{ id: string }>().id;
    const guard = await t.createSignedInUser(admin, 'security_guard');
    expect(
      (await admin.patch(`/api/users/${guard.body.user.id}`, { siteIds: [north] })).statusCode,
    ).toBe(200);

    // Neither a camera nor a sender names a site yet: the default site's.
    const incomingId = await sendEntry(t, tenant, { plateNumber: plate(), driverName: 'Thabo' });
    await t.database.withTenant(tenant.tenantId, (tx) =>
      t.modules.truckList.service.recordRead(tx, {
        tenantId: tenant.tenantId,
        timestamp: t.clock.now(),
        truckNumber: null,
        plateNumber: plate(),
        category: 'other',
        transportName: null,
        imageKey: null,
        source: 'test',
      }),
    );

    const ids = async (session: Session, url: string) => {
      const response = await session.get(url);
      expect(response.statusCode).toBe(200);
      return response.json<{ id: string }[]>().map((row) => row.id);
    };
    expect(await ids(admin, `/api/webhook/pending-requests?siteId=${main!.id}`)).toEqual([
      incomingId,
    ]);
    expect(await ids(admin, `/api/webhook/pending-requests?siteId=${north}`)).toEqual([]);
    expect(await ids(admin, '/api/webhook/pending-requests')).toEqual([incomingId]);
    expect(await ids(admin, `/api/truck-list?siteId=${main!.id}`)).toHaveLength(1);
    expect(await ids(admin, `/api/truck-list?siteId=${north}`)).toEqual([]);

    // The guard works at North: the default site's rows are not theirs, nor is its filter.
    expect(await ids(guard, '/api/webhook/pending-requests')).toEqual([]);
    expect(await ids(guard, '/api/truck-list')).toEqual([]);
    expect((await guard.get(`/api/truck-list?siteId=${main!.id}`)).statusCode).toBe(404);
    expect((await guard.get(`/api/webhook/pending-requests?siteId=${main!.id}`)).statusCode).toBe(
      404,
    );
    expect((await admin.get('/api/truck-list?siteId=nonsense')).statusCode).toBe(400);
  });
});
