import type { Reading } from '@boomgate/contracts/readings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Actor } from '@/modules/sessions';
import { aJpegDataUrl } from '@/testing/images';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

import { UNCONFIRMED_PLATE_MESSAGE } from './plate-provenance';

/** Issue 15: the Auto Gate's typed or corrected plate, kept with provenance; the server decides. */
describe('grant-entry: the plate the guard typed (issue 15)', () => {
  let t: TestApp;
  let photo: string;
  beforeAll(async () => {
    t = await createTestApp();
    photo = await aJpegDataUrl();
  });
  afterAll(() => t.close());

  async function aPlateCapture(session: Session, reading: Reading | null) {
    const actor = { tenantId: session.body.tenant.id, userId: session.body.user.id } as Actor;
    const { captureId } = await t.modules.captures.service.create(
      actor,
      { image: photo, type: 'plate' },
      async () => ({ reading, result: null }),
    );
    return captureId;
  }
  const plateRead = (value: string, confidence: number, uncertain: boolean): Reading => ({
    type: 'plate',
    fields: { plateNumber: { value, confidence, source: 'ocr' } },
    uncertain: uncertain ? ['plateNumber'] : [],
  });
  const grant = (session: Session, body: Record<string, unknown>) =>
    session.post('/api/auto-gate/grant-entry', {
      category: 'contracted',
      vehicleApproved: true,
      entryGranted: true,
      ...body,
    });
  const plateCorrection = (captureId: string | null, typedValue: string) => ({
    captureId,
    readingType: 'plate',
    field: 'plateNumber',
    typedValue,
  });
  async function setUp() {
    const admin = await t.registerTenant();
    const guard = await t.createSignedInUser(admin, 'security_guard');
    // No driver photo: the automated gate grants a registered vehicle without a face.
    const vehicle = await admin.post('/api/approved-vehicles', {
      plateNumber: 'KP35XKGP',
      driverName: 'Ann Dube',
    });
    expect(vehicle.statusCode).toBe(201);
    return { admin, guard };
  }
  const correctionsOf = async (office: Session, entryId: string) => {
    const detail = await office.get(`/api/entry-logs/${entryId}`);
    expect(detail.statusCode).toBe(200);
    return detail.json<{ corrections: Record<string, unknown>[] }>().corrections;
  };

  it('decides on the corrected plate and keeps the misread one, its confidence and who typed it', async () => {
    const { admin, guard } = await setUp();
    const capture = await aPlateCapture(guard, plateRead('KP35XKG8', 0.83, false));

    const response = await grant(guard, {
      plateNumber: 'KP35XKGP',
      plateImageCaptureId: capture,
      // The client's own claim of what was read is not the evidence: the capture is.
      extractedPlate: 'SOMETHING ELSE',
      corrections: [plateCorrection(capture, 'kp 35 xk gp')],
    });

    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      plateNumber: 'KP35XKGP',
      extractedPlate: 'KP35XKG8',
      vehicleApproved: true,
      entryGranted: true,
    });
    expect(response.json().warnings.map((w: { code: string }) => w.code)).not.toContain(
      'plate_unconfirmed',
    );
    const [correction] = await correctionsOf(admin, response.json().id);
    expect(correction).toMatchObject({
      captureId: capture,
      readingType: 'plate',
      field: 'plateNumber',
      kind: 'corrected',
      readValue: 'KP35XKG8',
      readConfidence: expect.closeTo(0.83, 5),
      readSource: 'ocr',
      wasUncertain: false,
      typedValue: 'kp 35 xk gp',
      correctedBy: { id: guard.body.user.id },
      entryLogId: response.json().id,
    });
  });

  it('refuses a grant on an uncertain read nobody confirmed, and accepts it confirmed', async () => {
    const { admin, guard } = await setUp();
    const capture = await aPlateCapture(guard, plateRead('KP35XKGP', 0.55, true));

    const unconfirmed = await grant(guard, {
      plateNumber: 'KP35XKGP',
      plateImageCaptureId: capture,
    });
    expect(unconfirmed.statusCode).toBe(400);
    expect(unconfirmed.json().error).toMatchObject({
      code: 'INVALID',
      message: UNCONFIRMED_PLATE_MESSAGE,
    });

    const confirmed = await grant(guard, {
      plateNumber: 'KP35XKGP',
      plateImageCaptureId: capture,
      corrections: [plateCorrection(capture, 'KP35XKGP')],
    });
    expect(confirmed.statusCode).toBe(201);
    expect(confirmed.json()).toMatchObject({ entryGranted: true, extractedPlate: 'KP35XKGP' });
    const [correction] = await correctionsOf(admin, confirmed.json().id);
    expect(correction).toMatchObject({ kind: 'confirmed', wasUncertain: true });
    const entries = await admin.get('/api/entry-logs');
    expect(entries.json()).toHaveLength(1);
  });

  it('records a refusal on an uncertain read, flagged, since a refusal admits nobody', async () => {
    const { guard } = await setUp();
    const capture = await aPlateCapture(guard, plateRead('ZZ99ZZGP', 0.5, true));

    const refusal = await grant(guard, {
      plateNumber: 'ZZ99ZZGP',
      plateImageCaptureId: capture,
      vehicleApproved: false,
      entryGranted: false,
      refusalReason: 'not_registered',
    });

    expect(refusal.statusCode).toBe(201);
    expect(refusal.json().warnings).toContainEqual(
      expect.objectContaining({ code: 'plate_unconfirmed', fields: ['plateNumber'] }),
    );
  });

  it('keeps a plate typed where the read failed as typed, and decides on it', async () => {
    const { admin, guard } = await setUp();
    const capture = await aPlateCapture(guard, null);

    const response = await grant(guard, {
      plateNumber: 'KP35XKGP',
      plateImageCaptureId: capture,
      extractedPlate: null,
      corrections: [plateCorrection(capture, 'KP35XKGP')],
    });

    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ extractedPlate: null, vehicleApproved: true });
    const [correction] = await correctionsOf(admin, response.json().id);
    expect(correction).toMatchObject({ kind: 'typed', readValue: null, readConfidence: null });
  });

  it("stores no plate read when no plate capture backs the client's extractedPlate", async () => {
    const { admin, guard } = await setUp();

    // An image uploaded inline is stored, but nothing on the server read a plate from it.
    const inline = await grant(guard, {
      plateNumber: 'KP35XKGP',
      plateImage: photo,
      extractedPlate: 'KP35XKGP',
    });
    expect(inline.statusCode).toBe(201);
    expect(inline.json().extractedPlate).toBeNull();
    expect(inline.json().warnings).toContainEqual(
      expect.objectContaining({
        code: 'plate_read_unbacked',
        severity: 'info',
        fields: ['extractedPlate'],
      }),
    );

    // A failed read's capture cited with the read text the device showed: still no reading.
    const failed = await aPlateCapture(guard, null);
    const typed = await grant(guard, {
      plateNumber: 'KP35XKGP',
      plateImageCaptureId: failed,
      extractedPlate: 'GAUTENG',
      corrections: [plateCorrection(failed, 'KP35XKGP')],
    });
    expect(typed.statusCode).toBe(201);
    const detail = await admin.get(`/api/entry-logs/${typed.json().id}`);
    expect(detail.json().entry).toMatchObject({ extractedPlate: null });
    expect(detail.json().entry.warnings).toContainEqual(
      expect.objectContaining({
        code: 'plate_read_unbacked',
        message: expect.stringContaining('"GAUTENG"'),
      }),
    );
  });

  it('answers 400 when the typed plate is not the entry’s plate', async () => {
    const { guard } = await setUp();
    const capture = await aPlateCapture(guard, plateRead('KP35XKG8', 0.9, false));

    const response = await grant(guard, {
      plateNumber: 'KP35XKGP',
      plateImageCaptureId: capture,
      corrections: [plateCorrection(capture, 'KP35XKG8')],
    });

    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('INVALID');
  });

  it('flags a plate that differs from the read when no correction says who typed it', async () => {
    const { guard } = await setUp();
    const capture = await aPlateCapture(guard, plateRead('KP35XKG8', 0.9, false));

    const response = await grant(guard, { plateNumber: 'KP35XKGP', plateImageCaptureId: capture });

    expect(response.statusCode).toBe(201);
    expect(response.json().extractedPlate).toBe('KP35XKG8');
    expect(response.json().warnings).toContainEqual(
      expect.objectContaining({ code: 'plate_unconfirmed' }),
    );
  });
});
