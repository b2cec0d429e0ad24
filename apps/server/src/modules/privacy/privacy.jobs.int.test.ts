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
    expect(
      (
        await strict.patch('/api/settings', {
          documentRetentionDays: 10,
          biometricRetentionDays: 10,
        })
      ).statusCode,
    ).toBe(200);
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
    // five documents, one entry's plate and permit photos, and its face photo (biometric)
    expect(purged).toBe(7);
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
    const audited = await t.ownerQuery<{ action: string; target_type: string; images: number }>(
      `select action, target_type, (details->>'images')::int as images from audit_events
       where tenant_id = $1 and action in ('document-images.purged', 'biometrics.purged')
       order by target_type, action`,
      [strict.body.tenant.id],
    );
    expect(audited).toEqual([
      { action: 'document-images.purged', target_type: 'drivers_licence', images: 1 },
      { action: 'biometrics.purged', target_type: 'entry_log', images: 1 },
      { action: 'document-images.purged', target_type: 'entry_log', images: 2 },
      { action: 'document-images.purged', target_type: 'identity_document', images: 1 },
      { action: 'document-images.purged', target_type: 'licence_disc', images: 1 },
      { action: 'document-images.purged', target_type: 'passport', images: 1 },
      { action: 'document-images.purged', target_type: 'weighbridge_ticket', images: 1 },
    ]);
    // The records themselves stay (the entry, the document's number and fields).
    const [entry] = await t.ownerQuery<{ driver_id_number: string }>(
      'select driver_id_number from entry_logs where tenant_id = $1',
      [strict.body.tenant.id],
    );
    // Sealed at rest (issue 26); it opens to the number the entry was recorded with.
    expect(
      await t.modules.keys.keyring.open(
        strict.body.tenant.id,
        'entry_logs.driver_id_number',
        entry!.driver_id_number,
      ),
    ).toBe('8001015009087');

    t.clock.advanceMs(365 * DAY);
    expect(await t.modules.privacy.service.purgeExpiredDocumentImages()).toBe(7);
    expect((await imageKeysOf(lenient.body.tenant.id)).every((row) => row.key === null)).toBe(true);
  });

  it("keeps an entry's face photo for the biometric period, its other photos for the document period", async () => {
    // Face shorter than documents, and the other way round: each photo follows its own period.
    const faceFirst = await t.registerTenant();
    const documentsFirst = await t.registerTenant();
    await Promise.all([
      faceFirst.patch('/api/settings', { biometricRetentionDays: 5, documentRetentionDays: 30 }),
      documentsFirst.patch('/api/settings', {
        biometricRetentionDays: 30,
        documentRetentionDays: 5,
      }),
    ]);
    const admit = (admin: Session) =>
      admin.post('/api/auto-gate/grant-entry', {
        plateNumber: 'CA123456',
        driverIdNumber: '8001015009087',
        plateImage: image,
        driverFaceImage: image,
      });
    expect((await admit(faceFirst)).statusCode).toBe(201);
    expect((await admit(documentsFirst)).statusCode).toBe(201);
    const keysOf = async (admin: Session) => {
      const [row] = await t.ownerQuery<{ plate: string | null; face: string | null }>(
        'select plate_image_key as plate, driver_face_image_key as face from entry_logs where tenant_id = $1',
        [admin.body.tenant.id],
      );
      return row;
    };
    const captured = {
      faceFirst: await keysOf(faceFirst),
      documentsFirst: await keysOf(documentsFirst),
    };
    const purge = () => t.modules.privacy.service.purgeExpiredDocumentImages();

    t.clock.advanceMs(4 * DAY);
    const beforeAnyPeriod = await purge();
    t.clock.advanceMs(2 * DAY);
    const afterFiveDays = await purge();
    const repeated = await purge();
    const atSixDays = {
      faceFirst: await keysOf(faceFirst),
      documentsFirst: await keysOf(documentsFirst),
    };
    t.clock.advanceMs(25 * DAY);
    const afterThirtyDays = await purge();

    expect(beforeAnyPeriod).toBe(0);
    expect(afterFiveDays).toBe(2); // one tenant's face photo, the other's plate photo
    expect(repeated).toBe(0);
    expect(atSixDays).toEqual({
      faceFirst: { plate: captured.faceFirst?.plate, face: null },
      documentsFirst: { plate: null, face: captured.documentsFirst?.face },
    });
    expect(afterThirtyDays).toBe(2);
    expect(await keysOf(faceFirst)).toEqual({ plate: null, face: null });
    expect(await keysOf(documentsFirst)).toEqual({ plate: null, face: null });
    expect(await purge()).toBe(0);
    // The face purge is audited as biometric, on the entry.
    expect(
      await t.ownerQuery(
        `select target_type, details->>'reason' as reason from audit_events
         where tenant_id = $1 and action = 'biometrics.purged'`,
        [faceFirst.body.tenant.id],
      ),
    ).toEqual([{ target_type: 'entry_log', reason: 'retention period ended' }]);
  });

  it('purges the face photo on the server default biometric period when the tenant has none', async () => {
    const admin = await t.registerTenant();
    await admin.patch('/api/settings', { documentRetentionDays: 3650 });
    const entry = await admin.post('/api/auto-gate/grant-entry', {
      plateNumber: 'CA123456',
      driverIdNumber: '8001015009087',
      plateImage: image,
      driverFaceImage: image,
    });
    expect(entry.statusCode).toBe(201);
    const faceKey = () =>
      t.ownerQuery<{ face: string | null; plate: string | null }>(
        'select driver_face_image_key as face, plate_image_key as plate from entry_logs where tenant_id = $1',
        [admin.body.tenant.id],
      );

    t.clock.advanceMs(364 * DAY);
    await t.modules.privacy.service.purgeExpiredDocumentImages();
    const before = (await faceKey())[0];
    t.clock.advanceMs(2 * DAY);
    await t.modules.privacy.service.purgeExpiredDocumentImages();
    const after = (await faceKey())[0];

    expect(before?.face).toEqual(expect.any(String));
    expect(after).toEqual({ face: null, plate: before?.plate }); // BIOMETRIC_RETENTION_DAYS = 365
  });

  it('runs daily on the job worker', () => {
    const { schedules } = jobsOf(t.modules);

    expect(
      schedules.find(({ job }) => job.name === 'privacy.purge-document-images')?.schedule,
    ).toMatch(/^\d+ \d+ \* \* \*$/);
  });
});
