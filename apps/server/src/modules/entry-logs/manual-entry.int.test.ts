import type { Reading } from '@boomgate/contracts/readings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Actor } from '@/modules/sessions';
import { aJpegDataUrl } from '@/testing/images';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

/**
 * Issue 15: Real Gate's "Enter manually" on the licence disc, driving licence, passport and
 * weighbridge ticket steps. What the guard typed goes with grant-entry as corrections of those
 * readings, without a capture (the read failed before one was stored) or citing the failed read.
 */
describe('grant-entry with manually entered documents (issue 15)', () => {
  let t: TestApp;
  let photo: string;
  beforeAll(async () => {
    t = await createTestApp();
    photo = await aJpegDataUrl();
  });
  afterAll(() => t.close());

  async function aCapture(session: Session, reading: Reading | null, type: Reading['type']) {
    const actor = { tenantId: session.body.tenant.id, userId: session.body.user.id } as Actor;
    const { captureId } = await t.modules.captures.service.create(
      actor,
      { image: photo, type },
      async () => ({ reading, result: null }),
    );
    return captureId;
  }

  /** A ticket read that found no ticket number (the step failed). */
  const ticketReading: Reading = {
    type: 'weighbridge',
    fields: { product: { value: 'Coal', confidence: 0.8, source: 'ocr' } },
    uncertain: [],
  };

  it('stores each typed value as a correction with who, and the failed read beside it', async () => {
    const admin = await t.registerTenant();
    const guard = await t.createSignedInUser(admin, 'security_guard');
    const ticketCapture = await aCapture(guard, ticketReading, 'weighbridge');

    const entry = await guard.post('/api/auto-gate/grant-entry', {
      plateNumber: 'KP35XKGP',
      driverPassportNumber: 'ZE000509',
      transportName: 'Imperial',
      corrections: [
        { captureId: null, readingType: 'disk', field: 'licenceNumber', typedValue: 'KP35XKGP' },
        { captureId: null, readingType: 'disk', field: 'dateOfExpiry', typedValue: '2027-03-31' },
        {
          captureId: null,
          readingType: 'license',
          field: 'licenceNumber',
          typedValue: '40170000ABCD',
        },
        {
          captureId: null,
          readingType: 'passport',
          field: 'passportNumber',
          typedValue: 'ZE000509',
        },
        {
          captureId: ticketCapture,
          readingType: 'weighbridge',
          field: 'ticketNumber',
          typedValue: 'WB-77',
        },
        {
          captureId: ticketCapture,
          readingType: 'weighbridge',
          field: 'product',
          typedValue: 'Coal',
        },
      ],
    });
    expect(entry.statusCode).toBe(201);
    expect(entry.json()).toMatchObject({
      driverPassportNumber: 'ZE000509',
      transportName: 'Imperial',
    });

    const response = await admin.get(`/api/entry-logs/${entry.json().id}`);
    expect(response.statusCode).toBe(200);
    const corrections = response.json().corrections as {
      readingType: string;
      field: string;
    }[];
    const byKey = Object.fromEntries(corrections.map((c) => [`${c.readingType}.${c.field}`, c]));
    expect(Object.keys(byKey).sort()).toEqual([
      'disk.dateOfExpiry',
      'disk.licenceNumber',
      'license.licenceNumber',
      'passport.passportNumber',
      'weighbridge.product',
      'weighbridge.ticketNumber',
    ]);
    expect(byKey['disk.licenceNumber']).toMatchObject({
      kind: 'typed',
      captureId: null,
      readValue: null,
      readSource: null,
      typedValue: 'KP35XKGP',
      correctedBy: { id: guard.body.user.id },
      entryLogId: entry.json().id,
    });
    expect(byKey['passport.passportNumber']).toMatchObject({
      kind: 'typed',
      typedValue: 'ZE000509',
    });
    // The ticket read found no number: typed; what it did read is confirmed, not replaced.
    expect(byKey['weighbridge.ticketNumber']).toMatchObject({
      kind: 'typed',
      captureId: ticketCapture,
      readValue: null,
      typedValue: 'WB-77',
    });
    expect(byKey['weighbridge.product']).toMatchObject({
      kind: 'confirmed',
      readValue: 'Coal',
      readSource: 'ocr',
    });
  });

  it('refuses with a 400 a typed field the reading has not, or a capture read as another type', async () => {
    const admin = await t.registerTenant();
    const guard = await t.createSignedInUser(admin, 'security_guard');
    const ticketCapture = await aCapture(guard, ticketReading, 'weighbridge');

    const unknownField = await guard.post('/api/auto-gate/grant-entry', {
      plateNumber: 'KP35XKGP',
      corrections: [
        { captureId: null, readingType: 'disk', field: 'ticketNumber', typedValue: 'X' },
      ],
    });
    expect(unknownField.statusCode).toBe(400);
    expect(unknownField.json()).toHaveProperty('error');

    const otherType = await guard.post('/api/auto-gate/grant-entry', {
      plateNumber: 'KP35XKGP',
      corrections: [
        {
          captureId: ticketCapture,
          readingType: 'license',
          field: 'licenceNumber',
          typedValue: '40170000ABCD',
        },
      ],
    });
    expect(otherType.statusCode).toBe(400);
    const [count] = await t.ownerQuery<{ n: string }>(
      'select count(*) as n from reading_corrections where tenant_id = $1',
      [admin.body.tenant.id],
    );
    expect(Number(count?.n)).toBe(0);
  });
});
