import type { Reading } from '@boomgate/contracts/readings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Actor } from '@/modules/sessions';
import { aJpegDataUrl } from '@/testing/images';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

/** Issue 15: corrections with provenance, and GET /api/entry-logs/{id}. */
describe('entry detail and corrections (issue 15)', () => {
  let t: TestApp;
  let photo: string;
  beforeAll(async () => {
    t = await createTestApp();
    photo = await aJpegDataUrl();
  });
  afterAll(() => t.close());

  /** A capture with the given reading, made through the service (the engine is not the subject). */
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
  const plateReading: Reading = {
    type: 'plate',
    fields: { plateNumber: { value: 'KP35XKGP', confidence: 0.88, source: 'ocr' } },
    uncertain: [],
  };

  /** A guard's real-gate entry: an ID whose number was misread and whose names were typed. */
  async function aCorrectedEntry(admin: Session, guard: Session) {
    const idCapture = await aCapture(guard, idReading);
    const plateCapture = await aCapture(guard, plateReading);
    const document = await guard.post('/api/identity-document', {
      identityNumber: '8001015009087',
      surname: 'NKOSI',
      givenNames: 'Sipho',
      sourceImageFrontCaptureId: idCapture,
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
    expect(document.statusCode).toBe(201);
    const entry = await guard.post('/api/auto-gate/grant-entry', {
      plateNumber: 'KP35XKGP',
      plateImageCaptureId: plateCapture,
      identityDocumentId: document.json().id,
      driverName: 'Sipho',
      driverSurname: 'Nkosi',
      driverIdNumber: '8001015009087',
      corrections: [
        {
          captureId: plateCapture,
          readingType: 'plate',
          field: 'plateNumber',
          typedValue: 'KP35XKGP',
        },
      ],
    });
    expect(entry.statusCode).toBe(201);
    void admin;
    return {
      entryId: entry.json().id as string,
      idCapture,
      plateCapture,
      documentId: document.json().id,
    };
  }

  it('keeps the read value beside the typed one, with who and when; the reading is unchanged', async () => {
    const admin = await t.registerTenant();
    const guard = await t.createSignedInUser(admin, 'security_guard');
    const office = await t.createSignedInUser(admin, 'back_office');
    const { entryId, idCapture, documentId } = await aCorrectedEntry(admin, guard);

    const response = await office.get(`/api/entry-logs/${entryId}`);
    expect(response.statusCode).toBe(200);
    const detail = response.json();
    expect(detail.entry).toMatchObject({ id: entryId, driverIdNumber: '8001015009087' });
    const byField = Object.fromEntries(
      detail.corrections.map((c: { field: string }) => [c.field, c]),
    );
    expect(byField.identityNumber).toMatchObject({
      kind: 'corrected',
      readValue: '8001015009088',
      readConfidence: expect.closeTo(0.41, 5),
      readSource: 'ocr',
      wasUncertain: true,
      typedValue: '8001015009087',
      correctedBy: { id: guard.body.user.id },
      documentType: 'identity-documents',
      documentId,
      captureId: idCapture,
    });
    expect(byField.surname).toMatchObject({ kind: 'confirmed', wasUncertain: false });
    expect(byField.givenNames).toMatchObject({ kind: 'typed', readValue: null, readSource: null });
    expect(byField.plateNumber).toMatchObject({ kind: 'confirmed', entryLogId: entryId });

    // The OCR value is never replaced: the capture's reading is as read (issue 26: its ID
    // number sealed at rest, opened below for the office).
    const [capture] = await t.ownerQuery<{ reading: Reading }>(
      'select reading from captures where id = $1',
      [idCapture],
    );
    expect(capture?.reading).toEqual({
      ...idReading,
      fields: {
        ...idReading.fields,
        identityNumber: {
          ...idReading.fields.identityNumber,
          value: expect.stringMatching(/^sv1\.1\./),
        },
      },
    });

    // Every capture the entry stands on, with its reading.
    expect(detail.captures).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ citedAs: 'plateImage', type: 'plate', reading: plateReading }),
        expect.objectContaining({
          citedAs: 'identityDocument',
          captureId: idCapture,
          reading: idReading,
          image: expect.stringMatching(/^\/api\/images\//),
        }),
      ]),
    );
    expect(detail.documents).toEqual([
      expect.objectContaining({ citedAs: 'identityDocument', id: documentId }),
    ]);
    expect(detail.faceComparison).toBeNull();
    expect(detail.auditTrail.map((event: { action: string }) => event.action)).toEqual(
      expect.arrayContaining([
        'document.identity-documents.saved',
        'reading.corrected',
        'entry.granted',
      ]),
    );
    // The audit names the fields, never the values.
    expect(JSON.stringify(detail.auditTrail)).not.toContain('8001015009087');
  });

  it('shows a guard the detail masked as the lists are', async () => {
    const admin = await t.registerTenant();
    const guard = await t.createSignedInUser(admin, 'security_guard');
    const { entryId } = await aCorrectedEntry(admin, guard);

    const detail = (await guard.get(`/api/entry-logs/${entryId}`)).json();
    expect(detail.entry.driverIdNumber).toBe('*********9087');
    const id = detail.corrections.find((c: { field: string }) => c.field === 'identityNumber');
    expect(id).toMatchObject({ readValue: '*********9088', typedValue: '*********9087' });
    const idImage = detail.captures.find(
      (c: { citedAs: string }) => c.citedAs === 'identityDocument',
    );
    expect(idImage.image).toBeNull();
    expect(idImage.reading.fields.identityNumber.value).toBe('*********9088');
    expect(idImage.reading.fields.surname.value).toBe('NKOSI');
    expect(JSON.stringify(detail)).not.toContain('8001015009087');

    const admins = (await admin.get(`/api/entry-logs/${entryId}`)).json();
    expect(JSON.stringify(admins)).toContain('8001015009087');
  });

  it('refuses a field the reading type does not have, a capture of another type and an unknown capture', async () => {
    const admin = await t.registerTenant();
    const idCapture = await aCapture(admin, idReading);

    const unknownField = await admin.post('/api/identity-document', {
      corrections: [{ captureId: idCapture, readingType: 'id', field: 'gvm', typedValue: '1' }],
    });
    expect(unknownField.statusCode).toBe(400);

    const wrongType = await admin.post('/api/auto-gate/grant-entry', {
      plateNumber: 'KP35XKGP',
      corrections: [
        {
          captureId: idCapture,
          readingType: 'plate',
          field: 'plateNumber',
          typedValue: 'KP35XKGP',
        },
      ],
    });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().error.message).toMatch(/read as id/);

    const twice = await admin.post('/api/identity-document', {
      corrections: [
        { captureId: idCapture, readingType: 'id', field: 'surname', typedValue: 'A' },
        { captureId: idCapture, readingType: 'id', field: 'surname', typedValue: 'B' },
      ],
    });
    expect(twice.statusCode).toBe(400);

    const other = await t.registerTenant();
    const othersCapture = await aCapture(other, idReading);
    const foreign = await admin.post('/api/identity-document', {
      corrections: [
        { captureId: othersCapture, readingType: 'id', field: 'surname', typedValue: 'X' },
      ],
    });
    expect(foreign.statusCode).toBe(404);
    // Nothing was saved by the refused calls.
    const [count] = await t.ownerQuery<{ n: string }>(
      'select count(*) as n from reading_corrections where tenant_id = $1',
      [admin.body.tenant.id],
    );
    expect(Number(count?.n)).toBe(0);
  });

  it("a driver field corrected at the last step is the entry's value, the misread one kept beside it", async () => {
    const admin = await t.registerTenant();
    const guard = await t.createSignedInUser(admin, 'security_guard');
    const idCapture = await aCapture(guard, idReading);
    // The real gate saves the document as read, then the guard corrects at the last step.
    const document = await guard.post('/api/identity-document', {
      identityNumber: '8001015009088',
      surname: 'NKOSI',
      sourceImageFrontCaptureId: idCapture,
    });
    const entry = await guard.post('/api/auto-gate/grant-entry', {
      plateNumber: 'KP35XKGP',
      identityDocumentId: document.json().id,
      driverIdNumber: '8001015009087',
      driverName: 'Sipho',
      corrections: [
        {
          captureId: idCapture,
          readingType: 'id',
          field: 'identityNumber',
          typedValue: '8001015009087',
        },
        { captureId: idCapture, readingType: 'id', field: 'givenNames', typedValue: 'Sipho' },
      ],
    });
    expect(entry.statusCode).toBe(201);
    expect(entry.json()).toMatchObject({
      driverIdNumber: '8001015009087',
      driverName: 'Sipho',
      driverSurname: 'NKOSI',
    });

    const detail = (await admin.get(`/api/entry-logs/${entry.json().id}`)).json();
    expect(detail.corrections).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          field: 'identityNumber',
          readValue: '8001015009088',
          typedValue: '8001015009087',
          kind: 'corrected',
        }),
        expect.objectContaining({ field: 'givenNames', readValue: null, kind: 'typed' }),
      ]),
    );
  });

  it("exports a driver's corrections and erases them with the driver's data", async () => {
    const admin = await t.registerTenant();
    const guard = await t.createSignedInUser(admin, 'security_guard');
    await aCorrectedEntry(admin, guard);
    const count = async () =>
      Number(
        (
          await t.ownerQuery<{ n: string }>(
            'select count(*) as n from reading_corrections where tenant_id = $1',
            [admin.body.tenant.id],
          )
        )[0]?.n,
      );
    expect(await count()).toBe(4);

    const exported = await admin.post('/api/data-subjects/export', { idNumber: '8001015009087' });
    expect(exported.json().records.readingCorrections).toHaveLength(4);
    const erased = await admin.post('/api/data-subjects/erase', { idNumber: '8001015009087' });
    expect(erased.statusCode).toBe(200);
    expect(erased.json().erased.readingCorrections).toBe(4);
    expect(await count()).toBe(0);
  });

  it("answers 404 for another organization's entry and for an unknown id", async () => {
    const admin = await t.registerTenant();
    const other = await t.registerTenant();
    const entry = await other.post('/api/auto-gate/grant-entry', { plateNumber: 'KP35XKGP' });
    expect(entry.statusCode).toBe(201);
    const foreign = await admin.get(`/api/entry-logs/${entry.json().id}`);
    const unknown = await admin.get('/api/entry-logs/00000000-0000-4000-8000-000000000000');
    expect(foreign.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(foreign.json()).toEqual(unknown.json());
    expect((await admin.get('/api/entry-logs/not-a-uuid')).statusCode).toBe(400);
  });
});
