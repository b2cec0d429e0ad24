import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type TestApp, createTestApp } from '@/testing/test-app';
import { aCompletion, aTenantWithSecret, openedCallbacks, sendEntry } from '@/testing/webhooks';

/**
 * Issue 21: completing an incoming entry runs the tenant's document rules on what the completion
 * holds, as the gate paths do: a `block` rule refuses it (422 naming the rule, audited, the entry
 * stays pending), a `warn` rule completes it with the warning, `off` says nothing.
 */
describe('POST /api/webhook/process-request/{id} with document rules (issue 21)', () => {
  let t: TestApp;
  let tenant: Awaited<ReturnType<typeof aTenantWithSecret>>;
  let references = 0;
  beforeAll(async () => {
    t = await createTestApp();
    tenant = await aTenantWithSecret(t);
    const vehicle = await tenant.admin.post('/api/approved-vehicles', {
      plateNumber: 'RULES1GP',
      driverName: 'Sipho Dlamini',
    });
    expect(vehicle.statusCode, vehicle.body).toBe(201);
  });
  afterAll(() => t.close());

  const anEntry = () =>
    sendEntry(t, tenant, { plateNumber: 'RULES1GP', referenceNumber: `REF-DOC${++references}` });
  const setRules = async (rules: Record<string, string>) => {
    const response = await tenant.admin.patch('/api/settings/rules', { rules });
    expect(response.statusCode, response.body).toBe(200);
  };
  const complete = (id: string, body: Record<string, unknown>) =>
    tenant.admin.post(
      `/api/webhook/process-request/${id}`,
      aCompletion({ plateNumber: 'RULES1GP', ...body }),
    );
  const completedAt = async (id: string) =>
    (
      await t.ownerQuery<{ completed_at: Date | null }>(
        'select completed_at from incoming_requests where id = $1',
        [id],
      )
    )[0]?.completed_at ?? null;

  it('refuses an expired licence under a block rule, audited, and leaves the entry pending', async () => {
    await setRules({ licence_expired: 'block' });
    const id = await anEntry();

    const response = await complete(id, { driverLicenseValidTo: '2020-01-31' });

    expect(response.statusCode).toBe(422);
    expect(response.json().error).toMatchObject({
      code: 'UNPROCESSABLE',
      message: expect.stringMatching(/Driving licence expired.*2020-01-31/),
    });
    expect(await completedAt(id)).toBeNull();
    const [refusal] = await t.ownerQuery<{
      details: { refusalReason: string; ruleOutcomes: { code: string }[] };
    }>(
      `select details from audit_events where action = 'incoming-request.refused' and target_id = $1`,
      [id],
    );
    expect(refusal?.details.refusalReason).toBe('document_rule');
    expect(refusal?.details.ruleOutcomes.map((outcome) => outcome.code)).toEqual([
      'licence_expired',
    ]);
    // A licence in date passes the same rule.
    const valid = await complete(id, { driverLicenseValidTo: '2099-01-31' });
    expect(valid.statusCode, valid.body).toBe(200);
    expect(valid.json().warnings).toEqual([]);
  });

  it('completes with the warning under a warn rule, and says nothing when the rule is off', async () => {
    await setRules({ licence_expired: 'warn', id_number_invalid: 'warn' });
    const warned = await complete(await anEntry(), {
      driverLicenseValidTo: '2020-01-31',
      driverIdNumber: '8001015009088',
    });
    expect(warned.statusCode, warned.body).toBe(200);
    expect(warned.json().warnings.map((warning: { code: string }) => warning.code)).toEqual([
      'licence_expired',
      'id_number_invalid',
    ]);
    // Stored on the entry: the feed lists them, and the callback carries them.
    const [stored] = await t.ownerQuery<{ warnings: { code: string }[] }>(
      'select warnings from incoming_requests where id = $1',
      [warned.json().id],
    );
    expect(stored?.warnings).toEqual(warned.json().warnings);
    const [delivery] = await openedCallbacks<{ body: string }>(
      t,
      'select tenant_id, body from webhook_deliveries where incoming_request_id = $1',
      [warned.json().id],
    );
    expect(JSON.parse(delivery?.body ?? '{}').data.warnings).toEqual(warned.json().warnings);

    await setRules({ licence_expired: 'off', id_number_invalid: 'off' });
    const quiet = await complete(await anEntry(), {
      driverLicenseValidTo: '2020-01-31',
      driverIdNumber: '8001015009088',
    });
    expect(quiet.statusCode, quiet.body).toBe(200);
    expect(quiet.json().warnings).toEqual([]);
  });

  it('checks the driver against the registered driver and the induction', async () => {
    await setRules({ driver_name_mismatch: 'block', induction_missing_or_expired: 'warn' });
    const id = await anEntry();

    const other = await complete(id, { driverName: 'Thabo', driverSurname: 'Mokoena' });
    expect(other.statusCode).toBe(422);
    expect(other.json().error.message).toContain(
      'Driver on the documents differs from the registered driver',
    );

    const same = await complete(id, { driverName: 'Sipho', driverSurname: 'Dlamini' });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().warnings).toEqual([
      expect.objectContaining({ code: 'induction_missing_or_expired' }),
    ]);
  });
});
