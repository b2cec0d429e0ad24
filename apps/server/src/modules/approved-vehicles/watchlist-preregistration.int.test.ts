import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

/** Issue 21: a plate on a `block` watchlist entry is never pre-registered. */
describe('pre-registering a watched plate', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  let counter = 100;
  const aPlate = () => `WL ${counter++} GP`;

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

  const register = (session: Session, plateNumber: string, extra: Record<string, unknown> = {}) =>
    session.post('/api/approved-vehicles', {
      plateNumber,
      driverName: 'Sipho Nkosi',
      company: 'Kumba Haulage',
      approvedUntil: '2099-12-31',
      ...extra,
    });

  const auditsOf = (tenantId: string) =>
    t.ownerQuery<{ action: string; details: Record<string, unknown> }>(
      `select action, details from audit_events
        where tenant_id = $1 and action in ('approved-vehicle.refused', 'watchlist.hit')
        order by occurred_at, action`,
      [tenantId],
    );

  it('refuses a blocked plate with a 422 naming the reason, audited, and stores nothing', async () => {
    const admin = await t.registerTenant();
    const guard = await t.createSignedInUser(admin, 'security_guard');
    const plate = aPlate();
    const entry = await watch(admin, { value: plate.toLowerCase(), reason: 'Stolen on 3 May' });

    const response = await register(guard, ` ${plate} `);

    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      error: {
        code: 'UNPROCESSABLE',
        message: expect.stringMatching(/watchlist.*Stolen on 3 May/),
      },
    });
    expect((await admin.get('/api/approved-vehicles')).json()).toEqual([]);
    const audits = await auditsOf(admin.body.tenant.id);
    expect(audits).toEqual([
      {
        action: 'approved-vehicle.refused',
        details: expect.objectContaining({
          refusalReason: 'watchlist',
          plateNumbers: [plate.replace(/ /g, '')],
          watchlistEntryIds: [entry.id],
        }),
      },
      {
        action: 'watchlist.hit',
        details: expect.objectContaining({
          watchlistEntryId: entry.id,
          gatePath: 'pre-registration',
          decision: 'refused',
        }),
      },
    ]);
  });

  it('says only "Manual check required" for a covert block, never its reason', async () => {
    const admin = await t.registerTenant();
    const plate = aPlate();
    await watch(admin, { value: plate, reason: 'Hijacked, police case 12', covert: true });

    const response = await register(admin, plate);

    expect(response.statusCode).toBe(422);
    const { message } = response.json().error;
    expect(message).toContain('Manual check required');
    expect(message).not.toMatch(/watchlist|Hijacked|police/i);
    expect((await auditsOf(admin.body.tenant.id)).map((audit) => audit.action)).toEqual([
      'approved-vehicle.refused',
      'watchlist.hit',
    ]);
  });

  it("refuses a rig whose trailer is blocked, and lets an alert, an expired block and another tenant's block through", async () => {
    const admin = await t.registerTenant();
    const other = await t.registerTenant();
    const [trailer, alerted, expired, elsewhere] = [aPlate(), aPlate(), aPlate(), aPlate()];
    await watch(admin, { value: trailer });
    await watch(admin, { value: alerted, severity: 'alert' });
    await watch(admin, {
      value: expired,
      expiresAt: new Date(t.clock.now().getTime() + 1000).toISOString(),
    });
    await watch(other, { value: elsewhere });
    t.clock.advanceMs(60_000);

    const rig = await register(admin, aPlate(), { trailers: [{ plateNumber: trailer }] });
    expect(rig.statusCode).toBe(422);
    expect(rig.json().error.message).toContain(trailer.replace(/ /g, ''));

    for (const plate of [alerted, expired, elsewhere]) {
      expect((await register(admin, plate)).statusCode, plate).toBe(201);
    }
    expect((await admin.get('/api/approved-vehicles')).json()).toHaveLength(3);
  });
});
