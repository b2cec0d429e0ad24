import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Reading } from '@boomgate/contracts/readings';

import type { Actor } from '@/modules/sessions';
import { aJpegDataUrl } from '@/testing/images';
import { type TestApp, createTestApp } from '@/testing/test-app';
import { aCompletion, aTenantWithSecret, sendEntry } from '@/testing/webhooks';

import { STATED_MARK } from './incoming-document-rules';

/**
 * Issue 21: a completion's document rules judge the readings the server stored for the licence
 * and ID captured in the Process Vehicle Entry dialog (cited by capture id, kept on the entry as
 * evidence), not the details the client states; the stated details only for a document not
 * captured, and the verdict then says so.
 */
describe('POST /api/webhook/process-request/{id}: document rules on the stored readings', () => {
  let t: TestApp;
  let tenant: Awaited<ReturnType<typeof aTenantWithSecret>>;
  let references = 0;
  beforeAll(async () => {
    t = await createTestApp();
    tenant = await aTenantWithSecret(t);
    const vehicle = await tenant.admin.post('/api/approved-vehicles', {
      plateNumber: 'READ1GP',
      driverName: 'Sipho Dlamini',
    });
    expect(vehicle.statusCode, vehicle.body).toBe(201);
  });
  afterAll(() => t.close());

  const anEntry = () =>
    sendEntry(t, tenant, { plateNumber: 'READ1GP', referenceNumber: `REF-READ${++references}` });
  const setRules = async (rules: Record<string, string>) => {
    const response = await tenant.admin.patch('/api/settings/rules', { rules });
    expect(response.statusCode, response.body).toBe(200);
  };
  const complete = (id: string, body: Record<string, unknown>) =>
    tenant.admin.post(
      `/api/webhook/process-request/${id}`,
      aCompletion({
        plateNumber: 'READ1GP',
        driverName: 'Sipho',
        driverSurname: 'Dlamini',
        ...body,
      }),
    );
  /** A capture as POST /api/ocr stores it, with this reading (the engine is outside the test). */
  const aCapture = async (
    type: 'license' | 'id' | 'weighbridge',
    fields: Record<string, unknown>,
  ) => {
    const actor = {
      tenantId: tenant.admin.body.tenant.id,
      userId: tenant.admin.body.user.id,
    } as Actor;
    const reading = {
      type,
      fields: Object.fromEntries(
        Object.entries(fields).map(([name, value]) => [
          name,
          { value, confidence: 0.95, source: 'barcode' },
        ]),
      ),
      uncertain: [],
    } as Reading;
    const { captureId } = await t.modules.captures.service.create(
      actor,
      { image: await aJpegDataUrl(), type },
      async () => ({ reading, result: null }),
    );
    return captureId;
  };
  const stored = async (id: string) =>
    (
      await t.ownerQuery<{ rule_evidence: unknown; warnings: { code: string; message: string }[] }>(
        'select rule_evidence, warnings from incoming_requests where id = $1',
        [id],
      )
    )[0];

  it("judges the licence's stored reading, not the stated end date, and cites its capture", async () => {
    await setRules({ licence_expired: 'block' });
    const licence = await aCapture('license', {
      nameOnCard: 'S DLAMINI',
      idNumber: '8001015009087',
      validTo: '2020-01-31',
    });
    const id = await anEntry();

    // The client states a licence in date; the reading the server holds says it expired.
    const refused = await complete(id, {
      driverLicenseValidTo: '2099-01-31',
      driversLicenceCaptureId: licence,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.message).toMatch(/Driving licence expired.*2020-01-31/);
    expect(refused.json().error.message).not.toContain(STATED_MARK);
    const [audit] = await t.ownerQuery<{ details: { ruleEvidence: unknown } }>(
      `select details from audit_events where action = 'incoming-request.refused' and target_id = $1`,
      [id],
    );
    expect(audit?.details.ruleEvidence).toEqual([
      { document: 'driversLicence', source: 'reading', captureId: licence },
      { document: 'identityDocument', source: 'stated', captureId: null },
    ]);

    // A licence read in date passes, whatever the client states; the evidence is kept.
    const inDate = await aCapture('license', { validTo: '2099-12-31' });
    const done = await complete(id, {
      driverLicenseValidTo: '2001-01-01',
      driversLicenceCaptureId: inDate,
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().ruleEvidence).toEqual([
      { document: 'driversLicence', source: 'reading', captureId: inDate },
      { document: 'identityDocument', source: 'stated', captureId: null },
    ]);
    expect((await stored(id))?.rule_evidence).toEqual(done.json().ruleEvidence);
    const listed = await tenant.admin.get('/api/webhook/pending-requests');
    expect(
      listed.json<{ id: string; ruleEvidence: unknown }[]>().find((row) => row.id === id)
        ?.ruleEvidence,
    ).toEqual(done.json().ruleEvidence);
  });

  it("judges the ID document's reading: its number and name, not the stated ones", async () => {
    await setRules({
      id_number_invalid: 'warn',
      driver_name_mismatch: 'block',
      licence_expired: 'off',
    });
    // The stated ID number is valid and the stated name is the registered driver's; the ID
    // document read says otherwise.
    const other = await aCapture('id', {
      identityNumber: '8001015009088',
      givenNames: 'Thabo',
      surname: 'Mokoena',
    });
    const refused = await complete(await anEntry(), { identityDocumentCaptureId: other });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.message).toContain(
      'Driver on the documents differs from the registered driver',
    );

    const same = await aCapture('id', {
      identityNumber: '8001015009088',
      givenNames: 'Sipho',
      surname: 'Dlamini',
    });
    const warned = await complete(await anEntry(), {
      driverIdNumber: '8001015009087',
      identityDocumentCaptureId: same,
    });
    expect(warned.statusCode, warned.body).toBe(200);
    expect(warned.json().warnings).toEqual([
      {
        code: 'id_number_invalid',
        message: expect.stringMatching(/^ID number fails its checksum: ID number 8001015009088/),
      },
    ]);
    expect(warned.json().warnings[0].message).not.toContain(STATED_MARK);
    expect(warned.json().ruleEvidence).toEqual([
      { document: 'identityDocument', source: 'reading', captureId: same },
    ]);
  });

  it('falls back to the stated details where no document was read, and says so', async () => {
    await setRules({
      licence_expired: 'warn',
      id_number_invalid: 'warn',
      driver_name_mismatch: 'off',
    });
    const response = await complete(await anEntry(), {
      driverLicenseValidTo: '2020-01-31',
      driverIdNumber: '8001015009088',
    });
    expect(response.statusCode, response.body).toBe(200);
    const warnings = response.json<{ warnings: { code: string; message: string }[] }>().warnings;
    expect(warnings.map((warning) => warning.code)).toEqual([
      'licence_expired',
      'id_number_invalid',
    ]);
    for (const warning of warnings) expect(warning.message).toContain(STATED_MARK);
    expect(response.json().ruleEvidence).toEqual([
      { document: 'driversLicence', source: 'stated', captureId: null },
      { document: 'identityDocument', source: 'stated', captureId: null },
    ]);
  });

  it("refuses a capture that is not the organization's reading of that document (400)", async () => {
    const ticket = await aCapture('weighbridge', {});
    const id = await anEntry();
    for (const body of [
      { driversLicenceCaptureId: ticket },
      { identityDocumentCaptureId: ticket },
      { identityDocumentCaptureId: '00000000-0000-4000-8000-000000000000' },
      { driversLicenceCaptureId: 'not-an-id' },
    ]) {
      const response = await complete(id, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.code).toBe('INVALID');
    }
    const elsewhere = await aTenantWithSecret(t);
    const theirs = await elsewhere.admin.post('/api/approved-vehicles', {
      plateNumber: 'READ1GP',
      driverName: 'Sipho Dlamini',
    });
    expect(theirs.statusCode).toBe(201);
    const theirEntry = await sendEntry(t, elsewhere, {
      plateNumber: 'READ1GP',
      referenceNumber: 'X1',
    });
    const licence = await aCapture('license', { validTo: '2099-12-31' });
    const crossTenant = await elsewhere.admin.post(
      `/api/webhook/process-request/${theirEntry}`,
      aCompletion({ plateNumber: 'READ1GP', driversLicenceCaptureId: licence }),
    );
    expect(crossTenant.statusCode).toBe(400);
  });
});
