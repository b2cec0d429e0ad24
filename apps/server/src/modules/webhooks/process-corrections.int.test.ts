import type { Reading } from '@boomgate/contracts/readings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Actor } from '@/modules/sessions';
import { aJpegDataUrl } from '@/testing/images';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';
import { aCompletion, aTenantWithSecret, sendEntry } from '@/testing/webhooks';

/**
 * Issue 15: the Process Vehicle Entry dialog sends what the back office typed with the
 * completion; the server keeps the read value (confidence, source) beside it, with who and when.
 */
describe('POST /api/webhook/process-request/:id with corrections (issue 15)', () => {
  let t: TestApp;
  let photo: string;
  beforeAll(async () => {
    t = await createTestApp();
    photo = await aJpegDataUrl();
  });
  afterAll(() => t.close());

  async function aCapture(session: Session, reading: Reading | null, type = reading?.type ?? 'id') {
    const actor = { tenantId: session.body.tenant.id, userId: session.body.user.id } as Actor;
    const { captureId } = await t.modules.captures.service.create(
      actor,
      { image: photo, type },
      async () => ({ reading, result: null }),
    );
    return captureId;
  }

  const idReading: Reading = {
    type: 'id',
    fields: {
      identityNumber: { value: '8001015009088', confidence: 0.41, source: 'ocr' },
      surname: { value: 'NKOSI', confidence: 0.93, source: 'ocr' },
    },
    uncertain: ['identityNumber'],
  };

  type Row = {
    capture_id: string | null;
    field: string;
    kind: string;
    read_value: { value: unknown } | null;
    read_confidence: number | null;
    read_source: string | null;
    was_uncertain: boolean;
    typed_value: string;
    typed_value_hash: string | null;
    corrected_by: string;
    corrected_by_name: string | null;
    corrected_at: Date;
    document_type: string;
    document_id: string;
  };
  const correctionsOf = (tenantId: string) =>
    t.ownerQuery<Row>(
      `select capture_id, field, kind, read_value, read_confidence, read_source, was_uncertain,
              typed_value, typed_value_hash, corrected_by, corrected_by_name, corrected_at,
              document_type, document_id
         from reading_corrections where tenant_id = $1 order by field`,
      [tenantId],
    );

  it('keeps the read value, confidence and source beside the typed one, with who and when', async () => {
    const tenant = await aTenantWithSecret(t);
    const office = await t.createSignedInUser(tenant.admin, 'back_office');
    const id = await sendEntry(t, tenant, { plateNumber: 'ND123456' });
    const idCapture = await aCapture(office, idReading);

    const response = await office.post(`/api/webhook/process-request/${id}`, {
      ...aCompletion({ driverIdNumber: '8001015009087' }),
      corrections: [
        {
          captureId: idCapture,
          readingType: 'id',
          field: 'identityNumber',
          typedValue: '8001015009087',
        },
        { captureId: idCapture, readingType: 'id', field: 'surname', typedValue: 'Nkosi' },
        { captureId: null, readingType: 'id', field: 'givenNames', typedValue: 'Sipho' },
      ],
    });

    expect(response.statusCode).toBe(200);
    // The entry carries the typed ID number; the reading keeps what was read.
    expect(response.json()).toMatchObject({ id, driverIdNumber: '8001015009087' });
    const stored = await correctionsOf(tenant.tenantId);
    // ID numbers are sealed at rest (issue 26), with a keyed hash beside the typed one: opened
    // here with the tenant's keyring to compare what was kept.
    const keyring = t.modules.keys.keyring;
    const idRow = stored.find((row) => row.field === 'identityNumber');
    expect(idRow?.typed_value).toMatch(/^sv1\./);
    expect(idRow?.typed_value_hash).toEqual(expect.any(String));
    const rows = await Promise.all(
      stored.map(async (row) =>
        row.field !== 'identityNumber'
          ? row
          : {
              ...row,
              typed_value: await keyring.open(
                tenant.tenantId,
                'reading_corrections.typed_value',
                row.typed_value,
              ),
              read_value: {
                value: JSON.parse(
                  await keyring.open(
                    tenant.tenantId,
                    'reading_corrections.read_value',
                    String(row.read_value?.value),
                  ),
                ) as unknown,
              },
            },
      ),
    );
    expect(rows).toEqual([
      expect.objectContaining({
        capture_id: null,
        field: 'givenNames',
        kind: 'typed',
        read_value: null,
        read_confidence: null,
        read_source: null,
        was_uncertain: false,
        typed_value: 'Sipho',
      }),
      expect.objectContaining({
        capture_id: idCapture,
        field: 'identityNumber',
        kind: 'corrected',
        read_value: { value: '8001015009088' },
        read_source: 'ocr',
        was_uncertain: true,
        typed_value: '8001015009087',
      }),
      expect.objectContaining({
        field: 'surname',
        kind: 'confirmed',
        read_value: { value: 'NKOSI' },
        was_uncertain: false,
        typed_value: 'Nkosi',
      }),
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({
        corrected_by: office.body.user.id,
        document_type: 'incoming_request',
        document_id: id,
      });
      // When: the completion's own time (one clock reading for the whole save).
      expect(row.corrected_at.toISOString()).toBe(
        response.json<{ completedAt: string }>().completedAt,
      );
    }
    expect(rows[1]?.read_confidence).toBeCloseTo(0.41, 5);
    // The capture's own reading is never rewritten by the correction.
    const [capture] = await t.ownerQuery<{ reading: Reading }>(
      'select reading from captures where tenant_id = $1 and id = $2',
      [tenant.tenantId, idCapture],
    );
    const fields = capture?.reading.fields as Record<string, { value: unknown } | undefined>;
    const readNumber = fields.identityNumber?.value;
    expect(readNumber).toMatch(/^sv1\./);
    expect(
      JSON.parse(await keyring.open(tenant.tenantId, 'captures.reading', String(readNumber))),
    ).toBe('8001015009088');
    // Audited by field and kind, never by value.
    const [audit] = await t.ownerQuery<{ target_id: string; details: unknown }>(
      "select target_id, details from audit_events where tenant_id = $1 and action = 'reading.corrected'",
      [tenant.tenantId],
    );
    expect(audit?.target_id).toBe(id);
    expect(JSON.stringify(audit?.details)).not.toContain('8001015009087');
  });

  it('completes without corrections as before, and stores none', async () => {
    const tenant = await aTenantWithSecret(t);
    const office = await t.createSignedInUser(tenant.admin, 'back_office');
    const id = await sendEntry(t, tenant, { plateNumber: 'ND123456' });
    const response = await office.post(`/api/webhook/process-request/${id}`, aCompletion());
    expect(response.statusCode).toBe(200);
    expect(await correctionsOf(tenant.tenantId)).toEqual([]);
  });

  it('answers 400 for a field the reading type lacks, and completes nothing', async () => {
    const tenant = await aTenantWithSecret(t);
    const office = await t.createSignedInUser(tenant.admin, 'back_office');
    const id = await sendEntry(t, tenant, { plateNumber: 'ND123456' });
    const response = await office.post(`/api/webhook/process-request/${id}`, {
      ...aCompletion(),
      corrections: [{ captureId: null, readingType: 'id', field: 'gvm', typedValue: '1' }],
    });
    expect(response.statusCode).toBe(400);
    const [entry] = await t.ownerQuery<{ completed_at: Date | null }>(
      'select completed_at from incoming_requests where tenant_id = $1 and id = $2',
      [tenant.tenantId, id],
    );
    expect(entry?.completed_at).toBeNull();
  });

  it("answers 404 for another tenant's capture and rolls the completion back", async () => {
    const tenant = await aTenantWithSecret(t);
    const other = await aTenantWithSecret(t);
    const office = await t.createSignedInUser(tenant.admin, 'back_office');
    const othersCapture = await aCapture(other.admin, idReading);
    const id = await sendEntry(t, tenant, { plateNumber: 'ND123456' });
    const response = await office.post(`/api/webhook/process-request/${id}`, {
      ...aCompletion(),
      corrections: [
        { captureId: othersCapture, readingType: 'id', field: 'surname', typedValue: 'X' },
      ],
    });
    expect(response.statusCode).toBe(404);
    const [entry] = await t.ownerQuery<{ completed_at: Date | null }>(
      'select completed_at from incoming_requests where tenant_id = $1 and id = $2',
      [tenant.tenantId, id],
    );
    expect(entry?.completed_at).toBeNull();
    expect(await correctionsOf(tenant.tenantId)).toEqual([]);
  });
});
