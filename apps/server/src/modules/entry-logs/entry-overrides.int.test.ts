import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

describe('POST /api/entry-logs/:id/override (issue 21)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const refusedEntry = async (session: Session, plateNumber = 'OV123GP') => {
    await session.post('/api/watchlist', {
      kind: 'plate',
      value: plateNumber,
      reason: 'Reported stolen',
      severity: 'block',
    });
    const response = await session.post('/api/auto-gate/grant-entry', {
      category: 'contracted',
      plateNumber,
      vehicleApproved: false,
      faceVerified: false,
      entryGranted: false,
      refusalReason: 'not_registered',
    });
    expect(response.json()).toMatchObject({ entryGranted: false, refusalReason: 'watchlist' });
    return response.json<{ id: string }>().id;
  };

  it('grants a refused entry with the reason, audited, and the entry shows who and why', async () => {
    const admin = await t.registerTenant();
    const office = await t.createSignedInUser(admin, 'back_office');
    const id = await refusedEntry(admin);

    const response = await office.post(`/api/entry-logs/${id}/override`, {
      reason: 'Owner showed the police clearance',
    });

    expect(response.statusCode).toBe(200);
    const override = {
      reason: 'Owner showed the police clearance',
      overriddenAt: expect.any(String),
      overriddenBy: { id: office.body.user.id, name: expect.any(String) },
    };
    expect(response.json()).toMatchObject({
      id,
      entryGranted: true,
      refusalReason: 'watchlist',
      override,
    });
    const listed = (await admin.get('/api/entry-logs')).json<{ id: string }[]>();
    expect(listed.find((entry) => entry.id === id)).toMatchObject({ entryGranted: true, override });
    const audits = await t.ownerQuery<{ actor_user_id: string; details: unknown }>(
      `select actor_user_id, details from audit_events where tenant_id = $1 and action = 'entry.overridden'`,
      [admin.body.tenant.id],
    );
    expect(audits).toEqual([
      {
        actor_user_id: office.body.user.id,
        details: {
          reason: 'Owner showed the police clearance',
          refusalReason: 'watchlist',
          plateNumber: 'OV123GP',
        },
      },
    ]);
  });

  it('overrides an entry once, never a granted one, and not as a guard', async () => {
    const admin = await t.registerTenant();
    const guard = await t.createSignedInUser(admin, 'security_guard');
    const id = await refusedEntry(admin);
    const granted = await admin.post('/api/auto-gate/grant-entry', {
      plateNumber: 'FINE123GP',
      entryGranted: true,
    });

    expect(
      (await guard.post(`/api/entry-logs/${id}/override`, { reason: 'I know him' })).statusCode,
    ).toBe(403);
    expect(
      (await admin.post(`/api/entry-logs/${id}/override`, { reason: 'Checked' })).statusCode,
    ).toBe(200);
    const again = await admin.post(`/api/entry-logs/${id}/override`, { reason: 'Checked again' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('CONFLICT');
    const onGranted = await admin.post(`/api/entry-logs/${granted.json().id}/override`, {
      reason: 'Checked',
    });
    expect(onGranted.statusCode).toBe(409);
  });

  it('refuses a missing reason with 400 and an unknown entry with 404', async () => {
    const admin = await t.registerTenant();
    const id = await refusedEntry(admin);

    for (const body of [{}, { reason: '' }, { reason: 'ok', extra: true }]) {
      const response = await admin.post(`/api/entry-logs/${id}/override`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.code).toBe('INVALID');
    }
    const missing = await admin.post(`/api/entry-logs/${crypto.randomUUID()}/override`, {
      reason: 'Checked',
    });
    expect(missing.statusCode).toBe(404);
  });
});
