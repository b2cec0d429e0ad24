import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { aJpegDataUrl } from '@/testing/images';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';
import { jobsOf } from '@/worker';

const DAY = 86_400_000;

describe('document image retention (POPIA s14)', () => {
  let t: TestApp;
  let image: string;
  beforeAll(async () => {
    t = await createTestApp();
    image = await aJpegDataUrl();
  });
  afterAll(() => t.close());

  /** Every kind of record that keeps a document or gate image, captured now. */
  async function capture(admin: Session) {
    const posts = await Promise.all([
      admin.post('/api/identity-document', {
        identityNumber: '8001015009087',
        sourceImageFront: image,
      }),
      admin.post('/api/drivers-licence', { licenceNumber: 'L1', sourceImageFront: image }),
      admin.post('/api/passport', { passportNumber: 'A1', passportImage: image }),
      admin.post('/api/licence-disc', { licenceNumber: 'D1', discImage: image }),
      admin.post('/api/weighbridge-ticket', { ticketNumber: 'WB-1', ticketImage: image }),
      admin.post('/api/auto-gate/grant-entry', {
        plateNumber: 'CA123456',
        driverIdNumber: '8001015009087',
        plateImage: image,
        driverFaceImage: image,
        permitImages: [image],
      }),
    ]);
    for (const response of posts) expect(response.statusCode, response.body).toBeLessThan(300);
    const entry = posts[5]?.json<{ driverFaceImage: string; permitImages: string[] }>();
    return { entryImages: entry ? [entry.driverFaceImage, ...entry.permitImages] : [] };
  }

  const imageKeysOf = (tenantId: string) =>
    t.ownerQuery<{ key: string | null }>(
      `select image_key as key from identity_documents where tenant_id = $1
       union all select image_key from drivers_licences where tenant_id = $1
       union all select image_key from passports where tenant_id = $1
       union all select image_key from licence_discs where tenant_id = $1
       union all select image_key from weighbridge_tickets where tenant_id = $1
       union all select unnest(array[plate_image_key, driver_face_image_key] || permit_image_keys)
         from entry_logs where tenant_id = $1`,
      [tenantId],
    );

  it("deletes images past each tenant's period, files included, audited, once", async () => {
    const strict = await t.registerTenant();
    const lenient = await t.registerTenant();
    expect((await strict.patch('/api/settings', { documentRetentionDays: 10 })).statusCode).toBe(
      200,
    );
    await capture(strict);
    const lenientCapture = await capture(lenient);
    const strictKeys = (await imageKeysOf(strict.body.tenant.id)).map((row) => row.key);
    expect(strictKeys).toHaveLength(8);
    expect(strictKeys.every(Boolean)).toBe(true);

    t.clock.advanceMs(9 * DAY);
    const early = await t.modules.privacy.service.purgeExpiredDocumentImages();
    t.clock.advanceMs(2 * DAY);
    const purged = await t.modules.privacy.service.purgeExpiredDocumentImages();
    const again = await t.modules.privacy.service.purgeExpiredDocumentImages();

    expect(early).toBe(0);
    expect(purged).toBe(6); // five documents and one entry (with three images)
    expect(again).toBe(0);
    expect((await imageKeysOf(strict.body.tenant.id)).every((row) => row.key === null)).toBe(true);
    // The files themselves are gone from storage (the image route reads storage by key).
    // Sessions have expired on the fake clock: sign in again.
    const strictNow = await t.login(strict.body.user.username, strict.password);
    const lenientNow = await t.login(lenient.body.user.username, lenient.password);
    for (const key of strictKeys) {
      expect((await strictNow.get(`/api/images/${key}`)).statusCode).toBe(404);
    }
    // The other tenant keeps the server default (365 days): nothing of theirs was touched.
    expect((await imageKeysOf(lenient.body.tenant.id)).every((row) => row.key !== null)).toBe(true);
    for (const url of lenientCapture.entryImages) {
      expect((await lenientNow.get(url)).statusCode).toBe(200);
    }
    const audited = await t.ownerQuery<{ target_type: string; details: { images: number } }>(
      `select target_type, details from audit_events
       where tenant_id = $1 and action = 'document-images.purged' order by target_type`,
      [strict.body.tenant.id],
    );
    expect(audited.map((event) => event.target_type)).toEqual([
      'drivers_licence',
      'entry_log',
      'identity_document',
      'licence_disc',
      'passport',
      'weighbridge_ticket',
    ]);
    expect(audited.find((event) => event.target_type === 'entry_log')?.details.images).toBe(3);
    // The records themselves stay (the entry, the document's number and fields).
    const [entry] = await t.ownerQuery<{ driver_id_number: string }>(
      'select driver_id_number from entry_logs where tenant_id = $1',
      [strict.body.tenant.id],
    );
    expect(entry?.driver_id_number).toBe('8001015009087');

    t.clock.advanceMs(365 * DAY);
    expect(await t.modules.privacy.service.purgeExpiredDocumentImages()).toBe(6);
    expect((await imageKeysOf(lenient.body.tenant.id)).every((row) => row.key === null)).toBe(true);
  });

  it('runs daily on the job worker', () => {
    const { schedules } = jobsOf(t.modules);

    expect(
      schedules.find(({ job }) => job.name === 'privacy.purge-document-images')?.schedule,
    ).toMatch(/^\d+ \d+ \* \* \*$/);
  });
});
