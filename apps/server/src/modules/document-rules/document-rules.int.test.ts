import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DOCUMENT_RULE_CODES, type DocumentRuleCode } from '@boomgate/contracts/document-rules';

import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

describe('document rules (issue 21)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const idOf = async (
    response: Promise<{ statusCode: number; json: <T>() => T; body: string }>,
  ) => {
    const saved = await response;
    expect(saved.statusCode, saved.body).toBe(201);
    return saved.json<{ id: string }>().id;
  };

  /** For each rule, an entry (cited documents and body) that fails it and no other rule set. */
  const failing: Record<DocumentRuleCode, (admin: Session) => Promise<Record<string, unknown>>> = {
    licence_expired: async (admin) => ({
      driversLicenceId: await idOf(
        admin.post('/api/drivers-licence', { nameOnCard: 'T MOKOENA', validTo: '2020-01-31' }),
      ),
    }),
    prdp_missing_or_expired: async (admin) => ({
      vehicleLicenceDiscId: await idOf(
        admin.post('/api/licence-disc', { licenceNumber: 'CA123456', gvm: '16 500' }),
      ),
      driversLicenceId: await idOf(
        admin.post('/api/drivers-licence', { nameOnCard: 'T MOKOENA', vehicleCode: 'EC' }),
      ),
    }),
    licence_code_invalid: async (admin) => ({
      vehicleLicenceDiscId: await idOf(
        admin.post('/api/licence-disc', { licenceNumber: 'CA123456', gvm: '16 500' }),
      ),
      driversLicenceId: await idOf(
        admin.post('/api/drivers-licence', { nameOnCard: 'T MOKOENA', vehicleCode: 'B' }),
      ),
    }),
    disc_expired: async (admin) => ({
      vehicleLicenceDiscId: await idOf(
        admin.post('/api/licence-disc', { licenceNumber: 'CA123456', dateOfExpiry: '2020-07-31' }),
      ),
    }),
    disc_plate_mismatch: async (admin) => ({
      vehicleLicenceDiscId: await idOf(
        admin.post('/api/licence-disc', { licenceNumber: 'CA999999' }),
      ),
    }),
    induction_missing_or_expired: async () => ({ driverIdNumber: '8001015009087' }),
    passport_expired: async (admin) => ({
      passportRecordId: await idOf(
        admin.post('/api/passport', {
          passportNumber: 'A1234567',
          surname: 'MOKOENA',
          expiryDate: '2020-01-31',
        }),
      ),
    }),
    id_number_invalid: async () => ({ driverIdNumber: '8001015009088' }),
    driver_name_mismatch: async (admin) => {
      const vehicle = await admin.post('/api/approved-vehicles', {
        plateNumber: 'CA123456',
        driverName: 'Sipho Nkosi',
      });
      expect([201, 409]).toContain(vehicle.statusCode);
      return {
        driversLicenceId: await idOf(
          admin.post('/api/drivers-licence', { nameOnCard: 'T MOKOENA' }),
        ),
      };
    },
  };

  it('lists every rule, off until set, and lets the admin change a subset, audited', async () => {
    const admin = await t.registerTenant();
    const other = await t.registerTenant();

    const initial = await admin.get('/api/settings/rules');
    expect(initial.statusCode).toBe(200);
    expect(initial.json()).toEqual({
      rules: Object.fromEntries(DOCUMENT_RULE_CODES.map((code) => [code, 'off'])),
    });

    const changed = await admin.patch('/api/settings/rules', {
      rules: { licence_expired: 'block', disc_expired: 'warn' },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().rules).toMatchObject({
      licence_expired: 'block',
      disc_expired: 'warn',
      passport_expired: 'off',
    });
    expect((await admin.get('/api/settings/rules')).json()).toEqual(changed.json());
    expect((await other.get('/api/settings/rules')).json().rules.licence_expired).toBe('off');
    const audits = await t.ownerQuery<{ details: { after: Record<string, string> } }>(
      `select details from audit_events where tenant_id = $1 and action = 'settings.rules.updated'`,
      [admin.body.tenant.id],
    );
    expect(audits.map((audit) => audit.details.after.licence_expired)).toEqual(['block']);
  });

  it('refuses unknown rules, unknown settings and empty changes with 400; guards and back office cannot change', async () => {
    const admin = await t.registerTenant();
    const office = await t.createSignedInUser(admin, 'back_office');
    const guard = await t.createSignedInUser(admin, 'security_guard');

    for (const body of [
      {},
      { rules: {} },
      { rules: { no_such_rule: 'block' } },
      { rules: { licence_expired: 'maybe' } },
      { rules: { licence_expired: 'block' }, extra: 1 },
    ]) {
      const response = await admin.patch('/api/settings/rules', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.code).toBe('INVALID');
    }
    expect((await office.get('/api/settings/rules')).statusCode).toBe(200);
    const patch = { rules: { licence_expired: 'block' } };
    expect((await office.patch('/api/settings/rules', patch)).statusCode).toBe(403);
    expect((await guard.get('/api/settings/rules')).statusCode).toBe(403);
  });

  describe.each(DOCUMENT_RULE_CODES)('%s', (code) => {
    // One organization per rule (registrations are rate-limited), its entries one after another.
    let tenant: Promise<Session> | undefined;
    const attempt = async (setting: 'block' | 'warn' | 'off') => {
      tenant ??= t.registerTenant();
      const admin = await tenant;
      const setRule = await admin.patch('/api/settings/rules', { rules: { [code]: setting } });
      expect(setRule.statusCode).toBe(200);
      const response = await admin.post('/api/auto-gate/grant-entry', {
        category: 'visitor',
        plateNumber: 'CA123456',
        entryGranted: true,
        ...(await failing[code](admin)),
      });
      expect(response.statusCode, response.body).toBe(201);
      const entry = response.json<{
        id: string;
        entryGranted: boolean;
        refusalReason: string | null;
        warnings: { code: string; severity: string; fields: string[] }[];
      }>();
      const audits = await t.ownerQuery<{ details: { ruleOutcomes: { code: string }[] } }>(
        `select details from audit_events where tenant_id = $1 and action like 'entry.%' and target_id = $2`,
        [admin.body.tenant.id, entry.id],
      );
      return {
        entry,
        verdicts: entry.warnings.filter((warning) => warning.code === 'document_rule'),
        outcomes: audits[0]?.details.ruleOutcomes ?? [],
      };
    };

    it('block refuses the entry with the rule code', async () => {
      const { entry, verdicts, outcomes } = await attempt('block');
      expect(entry).toMatchObject({ entryGranted: false, refusalReason: 'document_rule' });
      expect(verdicts).toEqual([
        expect.objectContaining({ severity: 'critical', fields: [`rules.${code}`] }),
      ]);
      expect(outcomes).toEqual([
        expect.objectContaining({ source: 'document_rules', verdict: 'block', code }),
      ]);
      // Issue 22: the block is an alert of its own, beside entry_refused.
      const alerts = await t.ownerQuery<{ kind: string }>(
        'select kind::text from alerts where entry_id = $1',
        [entry.id],
      );
      expect(alerts.map((alert) => alert.kind).sort()).toEqual([
        'document_rule_blocked',
        'entry_refused',
      ]);
    });

    it('warn grants with the verdict stored on the entry', async () => {
      const { entry, verdicts } = await attempt('warn');
      expect(entry).toMatchObject({ entryGranted: true, refusalReason: null });
      expect(verdicts).toEqual([
        expect.objectContaining({ severity: 'warning', fields: [`rules.${code}`] }),
      ]);
    });

    it('off gives no verdict', async () => {
      const { entry, verdicts, outcomes } = await attempt('off');
      expect(entry.entryGranted).toBe(true);
      expect(verdicts).toEqual([]);
      expect(outcomes).toEqual([]);
    });
  });

  it('passes a rule whose documents check out (a valid licence, a PrDP on a goods vehicle)', async () => {
    const admin = await t.registerTenant();
    await admin.patch('/api/settings/rules', {
      rules: Object.fromEntries(DOCUMENT_RULE_CODES.map((code) => [code, 'block'])),
    });
    const response = await admin.post('/api/auto-gate/grant-entry', {
      plateNumber: 'CA123456',
      entryGranted: true,
      vehicleLicenceDiscId: await idOf(
        admin.post('/api/licence-disc', {
          licenceNumber: 'CA123456',
          gvm: '16 500',
          dateOfExpiry: '2099-07-31',
        }),
      ),
      driversLicenceId: await idOf(
        admin.post('/api/drivers-licence', {
          nameOnCard: 'T MOKOENA',
          validTo: '2099-01-31',
          prdpExpiry: '2099-01-31',
          vehicleCode: 'EC',
        }),
      ),
    });
    expect(response.json()).toMatchObject({ entryGranted: true, refusalReason: null });
  });
});
