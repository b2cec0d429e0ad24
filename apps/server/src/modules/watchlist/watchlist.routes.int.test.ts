import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Session, type TestApp, createTestApp } from '@/testing/test-app';
import { aCompletion, aTenantWithSecret, sendEntry } from '@/testing/webhooks';

type Audit = { action: string; details: Record<string, unknown> };

describe('watchlist (issue 21)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  let plates = 0;
  const aPlate = () => `WL${String(++plates).padStart(4, '0')}GP`;

  const watch = async (admin: Session, body: Record<string, unknown>) => {
    const response = await admin.post('/api/watchlist', {
      kind: 'plate',
      reason: 'Reported stolen',
      severity: 'block',
      ...body,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: string }>();
  };

  const atGate = (session: Session, body: Record<string, unknown>) =>
    session.post('/api/auto-gate/grant-entry', {
      category: 'visitor',
      entryGranted: true,
      ...body,
    });

  const auditsOf = (admin: Session, action: string) =>
    t.ownerQuery<Audit>(
      `select action, details from audit_events where tenant_id = $1 and action = $2 order by occurred_at`,
      [admin.body.tenant.id, action],
    );

  describe('the list', () => {
    it('adds, lists, changes and deletes entries, each audited with who did it', async () => {
      const admin = await t.registerTenant();

      const created = await admin.post('/api/watchlist', {
        kind: 'plate',
        value: 'ca 123-456',
        reason: 'Stolen on 3 May',
        severity: 'block',
        covert: true,
        expiresAt: new Date(t.clock.now().getTime() + 86_400_000).toISOString(),
      });
      expect(created.statusCode).toBe(201);
      const entry = created.json();
      expect(entry).toMatchObject({
        kind: 'plate',
        value: 'ca 123-456',
        reason: 'Stolen on 3 May',
        severity: 'block',
        covert: true,
        isActive: true,
        createdBy: { id: admin.body.user.id, name: 'Thandi Admin' },
      });

      const changed = await admin.patch(`/api/watchlist/${entry.id}`, {
        severity: 'alert',
        expiresAt: null,
      });
      expect(changed.statusCode).toBe(200);
      expect(changed.json()).toMatchObject({ severity: 'alert', expiresAt: null, covert: true });
      expect((await admin.get('/api/watchlist')).json()).toEqual([changed.json()]);

      expect((await admin.delete(`/api/watchlist/${entry.id}`)).statusCode).toBe(204);
      expect((await admin.get('/api/watchlist')).json()).toEqual([]);
      expect((await admin.delete(`/api/watchlist/${entry.id}`)).statusCode).toBe(404);

      const audits = await t.ownerQuery<{ action: string; actor_user_id: string }>(
        `select action, actor_user_id from audit_events where tenant_id = $1 and action like 'watchlist.%' order by occurred_at`,
        [admin.body.tenant.id],
      );
      expect(audits).toEqual(
        ['watchlist.created', 'watchlist.updated', 'watchlist.deleted'].map((action) => ({
          action,
          actor_user_id: admin.body.user.id,
        })),
      );
    });

    it('refuses bad input with 400 in the error format', async () => {
      const admin = await t.registerTenant();
      for (const body of [
        {},
        { kind: 'plate', value: 'CA123456', severity: 'block' },
        { kind: 'vin', value: 'CA123456', reason: 'x', severity: 'block' },
        { kind: 'plate', value: 'CA123456', reason: 'x', severity: 'maybe' },
        { kind: 'plate', value: 'CA123456', reason: 'x', severity: 'block', expiresAt: 'soon' },
        { kind: 'plate', value: 'CA123456', reason: 'x', severity: 'block', tenantId: 'x' },
      ]) {
        const response = await admin.post('/api/watchlist', body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json().error.code).toBe('INVALID');
      }
      const entry = await watch(admin, { value: aPlate() });
      expect((await admin.patch(`/api/watchlist/${entry.id}`, {})).statusCode).toBe(400);
      expect(
        (await admin.patch(`/api/watchlist/${entry.id}`, { kind: 'company' })).statusCode,
      ).toBe(400);
    });

    it('lets back office read but not change it; guards neither', async () => {
      const admin = await t.registerTenant();
      const office = await t.createSignedInUser(admin, 'back_office');
      const guard = await t.createSignedInUser(admin, 'security_guard');
      const entry = await watch(admin, { value: aPlate() });

      expect((await office.get('/api/watchlist')).statusCode).toBe(200);
      expect((await office.post('/api/watchlist', { kind: 'plate' })).statusCode).toBe(403);
      expect((await office.delete(`/api/watchlist/${entry.id}`)).statusCode).toBe(403);
      expect((await guard.get('/api/watchlist')).statusCode).toBe(403);
    });
  });

  describe('at the gate (grant-entry)', () => {
    it('refuses a blocked plate at the auto gate and the real gate, logged with its reason', async () => {
      const admin = await t.registerTenant();
      const guard = await t.createSignedInUser(admin, 'security_guard');
      const plateNumber = aPlate();
      // Registered (no driver photo), so the watchlist is the only reason to refuse; watched
      // afterwards (a watched plate is never pre-registered).
      await admin.post('/api/approved-vehicles', {
        plateNumber,
        driverName: 'Sipho Nkosi',
        company: 'Kumba Haulage',
      });
      const entry = await watch(admin, { value: plateNumber, reason: 'Reported stolen' });

      for (const category of ['contracted', 'visitor']) {
        const response = await atGate(guard, { category, plateNumber });
        expect(response.statusCode).toBe(201);
        expect(response.json()).toMatchObject({
          entryGranted: false,
          refusalReason: 'watchlist',
          warnings: [
            {
              code: 'watchlist_hit',
              severity: 'critical',
              message: expect.stringContaining('Reported stolen'),
              fields: ['plateNumber'],
            },
          ],
        });
      }
      const refusals = await auditsOf(admin, 'entry.refused');
      expect(refusals).toHaveLength(2);
      expect(refusals[0]?.details).toMatchObject({
        refusalReason: 'watchlist',
        ruleOutcomes: [
          {
            source: 'watchlist',
            verdict: 'block',
            refusalReason: 'watchlist',
            code: 'watchlist_plate',
          },
        ],
      });
      const hits = await auditsOf(admin, 'watchlist.hit');
      expect(hits.map((hit) => hit.details)).toEqual([
        expect.objectContaining({
          watchlistEntryId: entry.id,
          reason: 'Reported stolen',
          gatePath: 'grant-entry',
          decision: 'refused',
        }),
        expect.objectContaining({ watchlistEntryId: entry.id }),
      ]);
      // Issue 22: each hit is a critical watchlist_hit alert for the office.
      const alerts = await t.ownerQuery<{ severity: string; message: string }>(
        "select severity, message from alerts where tenant_id = $1 and kind = 'watchlist_hit'",
        [admin.body.tenant.id],
      );
      expect(alerts).toHaveLength(2);
      expect(alerts[0]).toMatchObject({
        severity: 'critical',
        message: expect.stringContaining('Reported stolen'),
      });
    });

    it('refuses whatever the client reported (a refusal the screen sent as not_registered too)', async () => {
      const admin = await t.registerTenant();
      const plateNumber = aPlate();
      await watch(admin, { value: plateNumber });

      const response = await atGate(admin, {
        plateNumber,
        vehicleApproved: false,
        entryGranted: false,
        refusalReason: 'not_registered',
      });

      expect(response.json()).toMatchObject({ entryGranted: false, refusalReason: 'watchlist' });
    });

    it('shows a covert block only as "Manual check required"', async () => {
      const admin = await t.registerTenant();
      const guard = await t.createSignedInUser(admin, 'security_guard');
      const plateNumber = aPlate();
      await watch(admin, { value: plateNumber, reason: 'Police case 4711', covert: true });

      const response = await atGate(guard, { plateNumber });

      expect(response.json()).toMatchObject({
        entryGranted: false,
        refusalReason: 'watchlist',
        warnings: [{ code: 'watchlist_hit', message: 'Manual check required', fields: [] }],
      });
      expect(response.body).not.toContain('Police case');
      expect(response.body).not.toContain('watchlist_plate');
      // The reason is logged for the tenant's admins, not shown at the gate.
      expect((await auditsOf(admin, 'watchlist.hit'))[0]?.details).toMatchObject({
        reason: 'Police case 4711',
        covert: true,
      });
    });

    it('grants an alert hit with a warning; a covert alert shows nothing but is logged', async () => {
      const admin = await t.registerTenant();
      const open = aPlate();
      const covert = aPlate();
      await watch(admin, { value: open, severity: 'alert', reason: 'Check the load' });
      await watch(admin, { value: covert, severity: 'alert', covert: true, reason: 'Quiet' });

      const alerted = await atGate(admin, { plateNumber: open });
      expect(alerted.json()).toMatchObject({
        entryGranted: true,
        refusalReason: null,
        warnings: [
          {
            code: 'watchlist_hit',
            severity: 'warning',
            message: expect.stringContaining('Check the load'),
          },
        ],
      });
      const quiet = await atGate(admin, { plateNumber: covert });
      expect(quiet.json()).toMatchObject({ entryGranted: true, warnings: [] });
      expect(quiet.body).not.toContain('Quiet');
      const hits = await auditsOf(admin, 'watchlist.hit');
      expect(hits.map((hit) => [hit.details.reason, hit.details.decision])).toEqual([
        ['Check the load', 'granted'],
        ['Quiet', 'granted'],
      ]);
    });

    it('matches driver ID numbers and companies as well as plates, however they are written', async () => {
      const admin = await t.registerTenant();
      await watch(admin, { kind: 'idNumber', value: '8001015009087', reason: 'Banned driver' });
      await watch(admin, { kind: 'company', value: 'Rogue Haulage (Pty) Ltd', reason: 'Unpaid' });

      const byId = await atGate(admin, {
        plateNumber: aPlate(),
        driverIdNumber: '800101 5009 087',
      });
      expect(byId.json()).toMatchObject({
        refusalReason: 'watchlist',
        warnings: [expect.objectContaining({ fields: ['driverIdNumber'] })],
      });
      const byCompany = await atGate(admin, {
        plateNumber: aPlate(),
        transportName: 'ROGUE HAULAGE PTY LTD',
      });
      expect(byCompany.json()).toMatchObject({ refusalReason: 'watchlist' });
      expect((await atGate(admin, { plateNumber: aPlate() })).json().entryGranted).toBe(true);
    });

    it("never matches another tenant's watchlist, nor an expired entry", async () => {
      const admin = await t.registerTenant();
      const other = await t.registerTenant();
      const plateNumber = aPlate();
      const expiring = aPlate();
      await watch(other, { value: plateNumber });
      await watch(admin, {
        value: expiring,
        expiresAt: new Date(t.clock.now().getTime() + 60_000).toISOString(),
      });

      expect((await atGate(admin, { plateNumber })).json()).toMatchObject({ entryGranted: true });
      expect((await atGate(admin, { plateNumber: expiring })).json().entryGranted).toBe(false);
      t.clock.advanceMs(60_000);
      expect((await atGate(admin, { plateNumber: expiring })).json().entryGranted).toBe(true);
      expect((await other.get('/api/watchlist')).json()).toHaveLength(1);
    });
  });

  describe('completing an incoming entry', () => {
    it('refuses a blocked plate with 422 and logs the refusal and the hit', async () => {
      const tenant = await aTenantWithSecret(t);
      const plateNumber = aPlate();
      await watch(tenant.admin, { value: plateNumber, reason: 'Reported stolen' });
      const id = await sendEntry(t, tenant, { plateNumber, referenceNumber: 'REF-WL1' });

      const response = await tenant.admin.post(
        `/api/webhook/process-request/${id}`,
        aCompletion({ plateNumber }),
      );

      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        error: {
          code: 'UNPROCESSABLE',
          message: expect.stringContaining('Reported stolen'),
        },
      });
      const feed = (await tenant.admin.get('/api/webhook/pending-requests')).json();
      expect(feed).toEqual([expect.objectContaining({ id, status: 'Incomplete' })]);
      expect((await auditsOf(tenant.admin, 'incoming-request.refused'))[0]?.details).toMatchObject({
        refusalReason: 'watchlist',
      });
      expect((await auditsOf(tenant.admin, 'watchlist.hit'))[0]?.details).toMatchObject({
        gatePath: 'incoming-feed',
        decision: 'refused',
      });
    });

    it('completes an alert hit and logs it', async () => {
      const tenant = await aTenantWithSecret(t);
      await watch(tenant.admin, { kind: 'company', value: 'Haul Co', severity: 'alert' });
      const id = await sendEntry(t, tenant, { plateNumber: aPlate(), referenceNumber: 'REF-WL2' });

      const response = await tenant.admin.post(`/api/webhook/process-request/${id}`, aCompletion());

      expect(response.statusCode).toBe(200);
      expect((await auditsOf(tenant.admin, 'watchlist.hit'))[0]?.details).toMatchObject({
        gatePath: 'incoming-feed',
        decision: 'granted',
      });
    });
  });
});
