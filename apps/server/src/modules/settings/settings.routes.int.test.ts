import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type TestApp, createTestApp } from '@/testing/test-app';

describe('/api/settings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('starts with the defaults: server retention, 365-day inductions, anti-spoofing recorded only, MFA not required', async () => {
    const admin = await t.registerTenant();

    const response = await admin.get('/api/settings');

    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('no-store');
    expect(response.json()).toEqual({
      biometricRetentionDays: null,
      documentRetentionDays: null,
      inductionValidityDays: 365,
      antispoofGating: false,
      antispoofThreshold: 0.5,
      separationOfDuties: true,
      maxApprovalValidityMonths: 12,
      requireMfaForAdmins: false,
      requireMfaForEveryone: false,
      offlineDecisions: 'grant',
    });
  });

  it('lets the tenant admin change a subset, audits before and after, and leaves other tenants alone', async () => {
    const admin = await t.registerTenant();
    const other = await t.registerTenant();

    const changed = await admin.patch('/api/settings', {
      antispoofGating: true,
      antispoofThreshold: 0.7,
      documentRetentionDays: 90,
    });

    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      antispoofGating: true,
      antispoofThreshold: 0.7,
      documentRetentionDays: 90,
      inductionValidityDays: 365,
    });
    expect((await admin.get('/api/settings')).json()).toEqual(changed.json());
    expect((await other.get('/api/settings')).json()).toMatchObject({
      antispoofGating: false,
      documentRetentionDays: null,
    });
    const audits = await t.ownerQuery<{ details: unknown }>(
      `select details from audit_events where tenant_id = $1 and action = 'settings.updated'`,
      [admin.body.tenant.id],
    );
    expect(audits).toEqual([
      {
        details: {
          before: expect.objectContaining({ antispoofGating: false }),
          after: expect.objectContaining({ antispoofGating: true, antispoofThreshold: 0.7 }),
        },
      },
    ]);
  });

  it('refuses out-of-range values and empty or unknown changes with 400', async () => {
    const admin = await t.registerTenant();

    for (const body of [
      { antispoofThreshold: 1.5 },
      { inductionValidityDays: 0 },
      { biometricRetentionDays: 2.5 },
      {},
      { tenantId: admin.body.tenant.id },
    ]) {
      const response = await admin.patch('/api/settings', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.code).toBe('INVALID');
    }
  });

  it('accepts the ends of every range, which the database holds too', async () => {
    const admin = await t.registerTenant();
    const edges = {
      biometricRetentionDays: 3650,
      documentRetentionDays: 1,
      inductionValidityDays: 3650,
      antispoofThreshold: 0.99,
      maxApprovalValidityMonths: 120,
    };

    expect((await admin.patch('/api/settings', edges)).statusCode).toBe(200);
    expect((await admin.patch('/api/settings', { antispoofThreshold: 0.05 })).statusCode).toBe(200);
    expect((await admin.get('/api/settings')).json()).toMatchObject({
      ...edges,
      antispoofThreshold: 0.05,
    });
    // Another path that skips the contract (a script, a future route) is refused by PostgreSQL.
    for (const [column, value] of [
      ['antispoof_threshold', 1.5],
      ['induction_validity_days', 0],
      ['document_retention_days', 4000],
      ['max_approval_validity_months', 0],
    ] as const)
      await expect(
        t.ownerQuery(`update tenants set ${column} = $1 where id = $2`, [
          value,
          admin.body.tenant.id,
        ]),
      ).rejects.toThrow(/check constraint/);
  });

  it('lets back office read but not change; guards neither', async () => {
    const admin = await t.registerTenant();
    const office = await t.createSignedInUser(admin, 'back_office');
    const guard = await t.createSignedInUser(admin, 'security_guard');

    expect((await office.get('/api/settings')).statusCode).toBe(200);
    expect((await office.patch('/api/settings', { antispoofGating: true })).statusCode).toBe(403);
    expect((await guard.get('/api/settings')).statusCode).toBe(403);
    expect((await guard.patch('/api/settings', { antispoofGating: true })).statusCode).toBe(403);
    expect((await admin.get('/api/settings')).json().antispoofGating).toBe(false);
  });
});
