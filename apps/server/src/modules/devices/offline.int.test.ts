import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

/** Issue 18: what the server does with work a guard's device recorded offline. */
describe('offline guard app (issue 18)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const plate = () =>
    t
      .unique('OF')
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, '')
      .slice(0, 8);

  async function approved(admin: Session) {
    const plateNumber = plate();
    const created = await admin.post('/api/approved-vehicles', {
      plateNumber,
      driverName: 'Thabo Mokoena',
    });
    expect(created.statusCode).toBe(201);
    return plateNumber;
  }

  const offlineGrant = (session: Session, plateNumber: string, key: string) =>
    session.post(
      '/api/auto-gate/grant-entry',
      {
        category: 'contracted',
        plateNumber,
        vehicleApproved: true,
        entryGranted: true,
        recordedOffline: true,
      },
      { headers: { 'idempotency-key': key } },
    );

  async function alertsOf(admin: Session, kind: string) {
    const response = await admin.get('/api/alerts');
    expect(response.statusCode).toBe(200);
    return response
      .json<{ kind: string; entryId: string | null }[]>()
      .filter((alert) => alert.kind === kind);
  }

  describe('offlineDecisions setting', () => {
    it('defaults to grant: an offline grant of an approved vehicle is granted and flagged', async () => {
      const admin = await t.registerTenant();
      expect((await admin.get('/api/settings')).json()).toMatchObject({
        offlineDecisions: 'grant',
      });
      const plateNumber = await approved(admin);

      const entry = await offlineGrant(admin, plateNumber, randomUUID());
      expect(entry.statusCode).toBe(201);
      expect(entry.json()).toMatchObject({ entryGranted: true, refusalReason: null });
      expect(entry.json<{ warnings: { rule?: string }[] }>().warnings).toContainEqual(
        expect.objectContaining({ source: 'offline', rule: 'recorded_offline' }),
      );
      expect(await alertsOf(admin, 'offline_entry_refused')).toEqual([]);
    });

    it('record_only: an offline grant replays as a refusal with an alert, and the vehicle stays On Site', async () => {
      const admin = await t.registerTenant();
      const changed = await admin.patch('/api/settings', { offlineDecisions: 'record_only' });
      expect(changed.statusCode).toBe(200);
      expect(changed.json()).toMatchObject({ offlineDecisions: 'record_only' });
      const plateNumber = await approved(admin);

      const entry = await offlineGrant(admin, plateNumber, randomUUID());
      expect(entry.statusCode).toBe(201);
      const body = entry.json<{ id: string; entryGranted: boolean; refusalReason: string }>();
      expect(body).toMatchObject({
        entryGranted: false,
        refusalReason: 'offline_grant_not_allowed',
      });
      expect(await alertsOf(admin, 'offline_entry_refused')).toEqual([
        expect.objectContaining({ entryId: body.id }),
      ]);
      // The truck came in: it is On Site until its exit is recorded.
      const onSite = (await admin.get('/api/on-site')).json<{ entryLogId: string | null }[]>();
      expect(onSite.map((visit) => visit.entryLogId)).toContain(body.id);

      // Online (not recorded offline), the same vehicle is granted as usual.
      const online = await admin.post('/api/auto-gate/grant-entry', {
        category: 'contracted',
        plateNumber,
        vehicleApproved: true,
      });
      expect(online.json()).toMatchObject({ entryGranted: true });
    });

    it('raises offline_entry_refused when the server refuses a vehicle granted offline', async () => {
      const admin = await t.registerTenant();
      const entry = await offlineGrant(admin, plate(), randomUUID());
      expect(entry.json()).toMatchObject({ entryGranted: false, refusalReason: 'not_registered' });
      expect(await alertsOf(admin, 'offline_entry_refused')).toHaveLength(1);
    });

    it('refuses an unknown setting value with 400', async () => {
      const admin = await t.registerTenant();
      const response = await admin.patch('/api/settings', { offlineDecisions: 'sometimes' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: { code: 'INVALID' } });
    });
  });

  describe('exits replayed from the queue', () => {
    it('stores an exit once when it is replayed with the same Idempotency-Key', async () => {
      const admin = await t.registerTenant();
      const plateNumber = await approved(admin);
      const entry = await offlineGrant(admin, plateNumber, randomUUID());
      const entryId = entry.json<{ id: string }>().id;
      const key = randomUUID();
      const exit = (idempotencyKey: string) =>
        admin.post(
          `/api/entry-logs/${entryId}/exit`,
          {},
          { headers: { 'idempotency-key': idempotencyKey } },
        );

      const first = await exit(key);
      expect(first.statusCode).toBe(200);
      const replay = await exit(key);
      expect(replay.statusCode).toBe(200);
      expect(replay.json()).toEqual(first.json());
      // A different exit of the same visit is still a conflict.
      expect((await exit(randomUUID())).statusCode).toBe(409);
      const audited = await t.ownerQuery<{ count: string }>(
        `select count(*) from audit_events where action = 'visit.exited' and details->>'entryLogId' = $1`,
        [entryId],
      );
      expect(audited[0]?.count).toBe('1');
    });
  });

  describe('guard devices', () => {
    it('registers a device at its first contact, lists it for admins, and refuses it once revoked', async () => {
      const admin = await t.registerTenant();
      const guard = await t.createSignedInUser(admin, 'security_guard');
      const deviceId = randomUUID();

      const first = await guard.post('/api/devices/contact', { deviceId, label: 'Gate phone' });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toMatchObject({
        deviceId,
        label: 'Gate phone',
        lastUser: { id: guard.body.user.id },
        revokedAt: null,
      });
      const again = await guard.post('/api/devices/contact', { deviceId });
      expect(again.json()).toMatchObject({
        id: first.json<{ id: string }>().id,
        label: 'Gate phone',
      });

      expect((await guard.get('/api/devices')).statusCode).toBe(403);
      const listed = await admin.get('/api/devices');
      expect(listed.json()).toEqual([expect.objectContaining({ deviceId })]);

      const id = first.json<{ id: string }>().id;
      expect((await guard.post(`/api/devices/${id}/revoke`)).statusCode).toBe(403);
      const revoked = await admin.post(`/api/devices/${id}/revoke`);
      expect(revoked.statusCode).toBe(200);
      expect(revoked.json()).toMatchObject({ revokedAt: expect.any(String) });

      const refused = await guard.post('/api/devices/contact', { deviceId });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: { code: 'DEVICE_REVOKED' } });

      const audit = await t.ownerQuery<{ action: string }>(
        `select action from audit_events where target_id = $1 order by occurred_at`,
        [id],
      );
      expect(audit.map((row) => row.action)).toEqual(['device.revoked', 'device.revoked_contact']);
    });

    it("keeps tenants apart: another tenant's device is not found", async () => {
      const admin = await t.registerTenant();
      const other = await t.registerTenant();
      const contact = await admin.post('/api/devices/contact', { deviceId: randomUUID() });
      const id = contact.json<{ id: string }>().id;
      expect((await other.post(`/api/devices/${id}/revoke`)).statusCode).toBe(404);
      expect((await other.get('/api/devices')).json()).toEqual([]);
    });

    it('answers 400 for a device id that is not a UUID', async () => {
      const admin = await t.registerTenant();
      const response = await admin.post('/api/devices/contact', { deviceId: 'phone-1' });
      expect(response.statusCode).toBe(400);
    });
  });
});
