import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { passesLuhn } from '@boomgate/contracts/sa-id-number';

import { SA_ID_NUMBER } from '@/platform/sealing';
import { type ObjectStorage } from '@/platform/storage';
import { aJpegDataUrl } from '@/testing/images';
import { anMp4 } from '@/testing/videos';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';
import { aCompletion, aTenantWithSecret, openedCallbacks, sendEntry } from '@/testing/webhooks';

/** A valid SA ID number (Luhn check digit) born on 1 January of `year`, with `sequence`. */
function anIdNumber(year: number, sequence: number): string {
  const base = `${String(year % 100).padStart(2, '0')}0101${String(5000 + sequence).padStart(4, '0')}08`;
  const check = [...Array(10).keys()].find((digit) => passesLuhn(`${base}${digit}`));
  return `${base}${check}`;
}

describe('data-subject export and erasure (POPIA s23, s24)', () => {
  let t: TestApp;
  let image: string;
  let files: ObjectStorage;
  /** Deletes to let through before the storage fails one (Infinity: it never fails). */
  let deletesBeforeFailure = Infinity;
  beforeAll(async () => {
    t = await createTestApp({
      storage: (inner) => {
        files = inner;
        return {
          ...inner,
          async delete(key) {
            if (deletesBeforeFailure-- === 0) throw new Error('The bucket is unreachable');
            await inner.delete(key);
          },
        };
      },
    });
    image = await aJpegDataUrl();
  });
  afterAll(() => t.close());

  /** One driver's data in every module that holds some, the way the product collects it. */
  async function aDriverEverywhere(
    tenant: { admin: Session; tenantId: string; secret: string },
    idNumber: string,
    licenceNumber: string,
  ) {
    const { admin } = tenant;
    const passportNumber = `P${licenceNumber}`;
    const onboarded = await admin.post('/api/onboarding/drivers', {
      name: 'Sipho',
      surname: 'Dlamini',
      idNumber,
      phone: '0821234567',
      licenceNumber,
      plateNumber: `CA${Math.floor(100_000 + Math.random() * 899_999)}`,
    });
    const identity = await admin.post('/api/identity-document', {
      identityNumber: idNumber,
      surname: 'Dlamini',
      sourceImageFront: image,
    });
    const licence = await admin.post('/api/drivers-licence', {
      licenceNumber,
      idNumber,
      sourceImageFront: image,
    });
    const entry = await admin.post('/api/auto-gate/grant-entry', {
      plateNumber: 'CA123456',
      driverName: 'Sipho',
      driverSurname: 'Dlamini',
      driverIdNumber: idNumber,
      driverPhone1: '0821234567',
      driverPassportNumber: passportNumber,
      driverFaceImage: image,
      plateImage: image,
      identityDocumentId: identity.json().id,
    });
    const passport = await admin.post('/api/passport', {
      passportNumber,
      passportImage: image,
    });
    const incomingId = await sendEntry(t, tenant, {
      plateNumber: 'CA123456',
      driverIdNumber: idNumber,
    });
    const processed = await admin.post(
      `/api/webhook/process-request/${incomingId}`,
      aCompletion({ driverIdNumber: idNumber }),
    );
    const file = await t.inject({
      method: 'POST',
      url: '/api/safety-videos/files',
      payload: anMp4(5),
      headers: { cookie: admin.cookie, 'content-type': 'video/mp4' },
    });
    const video = await admin.post('/api/safety-videos', {
      title: 'Site safety',
      passScore: 50,
      questions: [
        { question: 'Where do you walk?', options: ['Road', 'Walkway'], correctIndex: 1 },
      ],
      video: { kind: 'upload', fileKey: file.json().fileKey },
    });
    const assigned = await admin.post('/api/induction/assignments', {
      videoId: video.json().id,
      driverName: 'Sipho Dlamini',
      driverIdNumber: idNumber,
      driverImage: image,
    });
    // Issue 21: the organization's watchlist names the driver (an alert: the entries still pass).
    const watched = await admin.post('/api/watchlist', {
      kind: 'idNumber',
      value: idNumber,
      reason: 'Speeding on site',
      severity: 'alert',
    });
    for (const response of [
      onboarded,
      identity,
      licence,
      entry,
      passport,
      processed,
      assigned,
      watched,
    ]) {
      expect(response.statusCode, response.body).toBeLessThan(300);
    }
    return { entry: entry.json(), identityId: identity.json().id as string };
  }

  /** A watchlist alert whose message names the driver, as the screening raises it. */
  const aWatchlistAlert = (tenantId: string, entryId: string | null, name: string) =>
    t.modules.alerts.service.raise({
      tenantId,
      kind: 'watchlist_hit',
      entryId,
      plateNumber: 'CA123456',
      message: `Watchlist block at the gate: Name ${name} — stolen goods`,
    });

  it('exports everything held about the driver in each module, and nothing of others', async () => {
    const acme = await aTenantWithSecret(t);
    const other = await aTenantWithSecret(t);
    const subject = anIdNumber(80, 1);
    const someoneElse = anIdNumber(81, 2);
    const { entry, identityId } = await aDriverEverywhere(acme, subject, 'L0001');
    await aDriverEverywhere(acme, someoneElse, 'L0002');
    await aDriverEverywhere(other, subject, 'L0003'); // the same person at another organization
    // A view of the face photo: it must appear in the subject's access trail.
    expect((await acme.admin.get(entry.driverFaceImage)).statusCode).toBe(200);
    // An alert about the subject's entry (issue 22), and one about someone else's.
    await aWatchlistAlert(acme.tenantId, entry.id, 'Sipho Dlamini');
    await aWatchlistAlert(acme.tenantId, null, 'Someone Else');

    const response = await acme.admin.post('/api/data-subjects/export', { idNumber: subject });

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="data-subject-/);
    const exported = response.json();
    const counts = Object.fromEntries(
      Object.entries(exported.records as Record<string, unknown[]>).map(([k, v]) => [k, v.length]),
    );
    expect(counts).toEqual({
      drivers: 1,
      approvedVehicles: 1,
      entryLogs: 1,
      documents: 3, // identity document, driving licence, passport
      incomingRequests: 1,
      inductions: 1,
      faceComparisons: 0, // the subject's vehicle has no driver record linked
      captures: 0,
      readingCorrections: 0, // nothing was typed (issue 15: entry-detail.int.test.ts)
      visits: 1, // the granted entry opened a visit (issue 16)
      alerts: 1, // the alert about the subject's entry (issue 22)
      watchlist: 1, // issue 21: the entry naming the ID number
      siteSyncEvents: 0, // issue 28: no site node sent facts (site-sync-events.int.test.ts)
    });
    expect(exported.linkedIdentifiers).toEqual({
      licenceNumbers: ['L0001'],
      passportNumbers: ['PL0001'],
    });
    expect(exported.records.drivers[0]).toMatchObject({ idNumber: subject, name: 'Sipho' });
    expect(exported.records.approvedVehicles[0]).toMatchObject({ driverLicense: 'L0001' });
    expect(exported.records.approvedVehicles[0]).not.toHaveProperty('driverFaceDescriptor');
    expect(exported.records.entryLogs[0]).toMatchObject({
      id: entry.id,
      driverIdNumber: subject,
      driverFaceImageKey: entry.driverFaceImage,
    });
    expect(exported.records.watchlist[0]).toMatchObject({
      kind: 'idNumber',
      value: subject,
      reason: 'Speeding on site',
    });
    expect(exported.records.incomingRequests[0]).toMatchObject({
      driverIdNumber: subject,
      callbacks: [expect.objectContaining({ status: 'pending' })],
    });
    const text = JSON.stringify(exported.records);
    expect(text).not.toContain(someoneElse);
    expect(text).not.toContain('L0002');
    expect(text).not.toContain('L0003');
    expect(text).not.toContain(other.tenantId);
    const actions = exported.auditTrail.map((event: { action: string }) => event.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'image.viewed',
        'document.identity-documents.saved',
        'driver.created',
      ]),
    );
    expect(exported.auditTrail.some((e: { targetId: string }) => e.targetId === identityId)).toBe(
      true,
    );
    const [audited] = await t.ownerQuery<{ target_id: string; details: Record<string, number> }>(
      `select target_id, details from audit_events
       where tenant_id = $1 and action = 'data-subject.exported'`,
      [acme.tenantId],
    );
    expect(audited?.details).toMatchObject({ drivers: 1, entryLogs: 1 });
    expect(audited?.target_id).not.toContain(subject);
  });

  it('erases the driver everywhere, deletes the images, keeps the audit trail, and is idempotent', async () => {
    const acme = await aTenantWithSecret(t);
    const other = await aTenantWithSecret(t);
    const subject = anIdNumber(79, 3);
    const someoneElse = anIdNumber(78, 4);
    const { entry } = await aDriverEverywhere(acme, subject, 'L0101');
    const kept = await aDriverEverywhere(acme, someoneElse, 'L0102');
    await aDriverEverywhere(other, subject, 'L0103');
    const auditBefore = await t.ownerQuery('select id from audit_events where tenant_id = $1', [
      acme.tenantId,
    ]);

    const alert = await aWatchlistAlert(acme.tenantId, entry.id, 'Sipho Dlamini');
    const keptAlert = await aWatchlistAlert(acme.tenantId, kept.entry.id, 'Someone Else');
    const first = await acme.admin.post('/api/data-subjects/erase', { idNumber: subject });
    const second = await acme.admin.post('/api/data-subjects/erase', { idNumber: subject });
    const after = (
      await acme.admin.post('/api/data-subjects/export', { idNumber: subject })
    ).json();

    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      erased: {
        drivers: 1,
        approvedVehicles: 1,
        entryLogs: 1,
        documents: 3,
        inductions: 1,
        alerts: 1,
        watchlist: 1,
      },
      imagesDeleted: 6, // identity document, licence, passport, entry face and plate, induction
    });
    expect(first.json().erased.incomingRequests).toBeGreaterThanOrEqual(1);
    expect(first.json().retained.length).toBeGreaterThan(0);
    expect(second.statusCode).toBe(200);
    expect(Object.values(second.json().erased)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    // The alert stays (what, when, the plate) without the driver's name; the other one is kept.
    const alertMessages = await t.ownerQuery<{ id: string; message: string; plate_number: string }>(
      'select id, message, plate_number from alerts where tenant_id = $1',
      [acme.tenantId],
    );
    expect(alertMessages.find((row) => row.id === alert?.id)).toEqual({
      id: alert?.id,
      message: 'Watchlist hit for CA123456 (details erased on request).',
      plate_number: 'CA123456',
    });
    expect(alertMessages.find((row) => row.id === keptAlert?.id)?.message).toContain(
      'Someone Else',
    );
    expect(second.json().imagesDeleted).toBe(0);
    expect(Object.values(after.records).flat()).toEqual([]);
    // Images are gone from storage; the other driver's are not.
    expect((await acme.admin.get(entry.driverFaceImage)).statusCode).toBe(404);
    expect((await acme.admin.get(entry.plateImage)).statusCode).toBe(404);
    expect((await acme.admin.get(kept.entry.driverFaceImage)).statusCode).toBe(200);
    // The entry itself stays, without the driver; the vehicle approval stays without its driver.
    const [row] = await t.ownerQuery<Record<string, unknown>>(
      'select * from entry_logs where tenant_id = $1 and id = $2',
      [acme.tenantId, entry.id],
    );
    expect(row).toMatchObject({
      plate_number: 'CA123456',
      driver_name: null,
      driver_id_number: null,
      driver_id_number_hash: null,
      driver_phone1: null,
      driver_face_image_key: null,
      entry_granted: true,
    });
    const [callback] = await openedCallbacks<{ body: string }>(
      t,
      'select tenant_id, body from webhook_deliveries where tenant_id = $1',
      [acme.tenantId],
    );
    expect(callback?.body ?? '').not.toContain(subject);
    // Nothing of anyone else changed.
    expect(
      (await other.admin.post('/api/data-subjects/export', { idNumber: subject })).json().records
        .drivers,
    ).toHaveLength(1);
    expect(
      (await acme.admin.post('/api/data-subjects/export', { idNumber: someoneElse })).json().records
        .entryLogs,
    ).toHaveLength(1);
    // The audit trail keeps every earlier event and records the erasure without the ID number.
    const auditAfter = await t.ownerQuery<{ id: string; action: string; details: unknown }>(
      'select id, action, target_id, details from audit_events where tenant_id = $1',
      [acme.tenantId],
    );
    expect(auditAfter.map((event) => event.id)).toEqual(
      expect.arrayContaining(auditBefore.map((event) => (event as { id: string }).id)),
    );
    expect(auditAfter.filter((e) => e.action === 'data-subject.erased')).toHaveLength(2);
    expect(JSON.stringify(auditAfter)).not.toContain(subject);
  });

  it('rolls an erasure back when storage fails, so a retry deletes every image', async () => {
    const acme = await aTenantWithSecret(t);
    const subject = anIdNumber(76, 7);
    const { entry } = await aDriverEverywhere(acme, subject, 'L0301');

    deletesBeforeFailure = 2; // two files go, then the store fails
    const failed = await acme.admin.post('/api/data-subjects/erase', { idNumber: subject });
    deletesBeforeFailure = Infinity;
    const between = (
      await acme.admin.post('/api/data-subjects/export', { idNumber: subject })
    ).json();
    const retried = await acme.admin.post('/api/data-subjects/erase', { idNumber: subject });

    expect(failed.statusCode).toBe(503);
    expect(failed.json().error).toMatchObject({ code: 'UNAVAILABLE' });
    // Nothing was erased: the rows still name every image, so the retry can find them.
    expect(between.records.entryLogs[0]).toMatchObject({ driverIdNumber: subject });
    expect(between.records.entryLogs[0].driverFaceImageKey).not.toBeNull();
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ erased: { entryLogs: 1 }, imagesDeleted: 6 });
    expect((await acme.admin.get(entry.driverFaceImage)).statusCode).toBe(404);
    expect((await acme.admin.get(entry.plateImage)).statusCode).toBe(404);
    const erasures = await t.ownerQuery(
      `select 1 from audit_events where tenant_id = $1 and action = 'data-subject.erased'`,
      [acme.tenantId],
    );
    expect(erasures).toHaveLength(1);
  });

  it('keeps a due selfie when storage fails, and the next purge deletes it', async () => {
    const acme = await aTenantWithSecret(t);
    const subject = anIdNumber(75, 8);
    await aDriverEverywhere(acme, subject, 'L0401');
    const photoKey = `${acme.tenantId}/driver-photo/${crypto.randomUUID()}.jpg`;
    await files.put(photoKey, Buffer.from('a selfie'));
    // ID numbers are sealed (issue 26): the row is found by the keyed hash.
    const subjectHash = await t.modules.keys.keyring.index(acme.tenantId, SA_ID_NUMBER, subject);
    await t.ownerQuery(
      `update drivers set photo_key = $2, biometrics_purge_after = now() - interval '1 day'
       where tenant_id = $1 and id_number_hash = $3`,
      [acme.tenantId, photoKey, subjectHash],
    );
    const photoKeyNow = async () =>
      (
        await t.ownerQuery<{ photo_key: string | null }>(
          'select photo_key from drivers where tenant_id = $1 and id_number_hash = $2',
          [acme.tenantId, subjectHash],
        )
      )[0]?.photo_key;

    deletesBeforeFailure = 0;
    const failed = await t.modules.drivers.service.purgeExpiredBiometrics().then(
      () => null,
      // The run goes on past a failed row and then reports it, with the row's error as the cause.
      (error: Error) => (error.cause as Error).message,
    );
    deletesBeforeFailure = Infinity;
    const keyBetween = await photoKeyNow();
    const purged = await t.modules.drivers.service.purgeExpiredBiometrics();

    expect(failed).toBe('The bucket is unreachable');
    expect(keyBetween).toBe(photoKey);
    expect(purged).toBe(1);
    expect(await photoKeyNow()).toBeNull();
    expect(await files.get(photoKey)).toBeUndefined();
    expect(await t.modules.drivers.service.purgeExpiredBiometrics()).toBe(0);
  });

  it('on withdrawn consent deletes only the biometric data, at once and once', async () => {
    const acme = await aTenantWithSecret(t);
    const subject = anIdNumber(77, 6);
    const { entry } = await aDriverEverywhere(acme, subject, 'L0201');
    // An enrolled face on the approval (enrolment itself runs the face engine; covered elsewhere).
    await t.ownerQuery(
      `update approved_vehicles set driver_face_descriptor = 'v1.sealed', photo_consent_at = now()
       where tenant_id = $1 and driver_license = 'L0201'`,
      [acme.tenantId],
    );

    const first = await acme.admin.post('/api/data-subjects/erase-biometrics', {
      idNumber: subject,
    });
    const second = await acme.admin.post('/api/data-subjects/erase-biometrics', {
      idNumber: subject,
    });
    const after = (
      await acme.admin.post('/api/data-subjects/export', { idNumber: subject })
    ).json();

    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      erased: { drivers: 0, approvedVehicles: 1, entryLogs: 1, inductions: 1 },
      imagesDeleted: 2, // the face photo taken at the gate and the induction photo
    });
    expect(Object.values(second.json().erased).every((n) => n === 0)).toBe(true);
    expect((await acme.admin.get(entry.driverFaceImage)).statusCode).toBe(404);
    expect((await acme.admin.get(entry.plateImage)).statusCode).toBe(200);
    expect(after.records.drivers).toHaveLength(1);
    expect(after.records.entryLogs[0]).toMatchObject({
      driverIdNumber: subject,
      driverFaceImageKey: null,
    });
    expect(after.records.approvedVehicles[0]).toMatchObject({
      hasFaceEnrolment: false,
      photoConsentAt: null,
      driverLicense: 'L0201',
    });
    expect(after.records.inductions[0]).toMatchObject({ driverPhotoKey: null });
    const events = await t.ownerQuery(
      `select 1 from audit_events where tenant_id = $1 and action = 'data-subject.biometrics-erased'`,
      [acme.tenantId],
    );
    expect(events).toHaveLength(2);
  });

  it('erases the driver from a vehicle onboarded for them by the link alone, keeping the vehicle', async () => {
    const { admin, tenantId } = await aTenantWithSecret(t);
    const subject = anIdNumber(75, 8);
    // No licence number: only the vehicle's link to the driver record names the subject.
    const onboarded = await admin.post('/api/onboarding/drivers', {
      name: 'Lerato',
      surname: 'Mokoena',
      idNumber: subject,
      phone: '0821234567',
      plateNumber: 'LNK123GP',
    });
    expect(onboarded.statusCode, onboarded.body).toBe(201);

    const exported = (await admin.post('/api/data-subjects/export', { idNumber: subject })).json();
    const erased = await admin.post('/api/data-subjects/erase', { idNumber: subject });

    expect(exported.records.approvedVehicles).toEqual([
      expect.objectContaining({ plateNumber: 'LNK123GP', driverName: 'Lerato Mokoena' }),
    ]);
    expect(erased.statusCode).toBe(200);
    expect(erased.json().erased).toMatchObject({ drivers: 1, approvedVehicles: 1 });
    const vehicles = await t.ownerQuery(
      'select plate_number, driver_name, driver_id from approved_vehicles where tenant_id = $1',
      [tenantId],
    );
    expect(vehicles).toEqual([
      { plate_number: 'LNK123GP', driver_name: '[erased]', driver_id: null },
    ]);
  });

  it('never lets the link block deleting a driver: the vehicle stays and drops the link', async () => {
    const { admin, tenantId } = await aTenantWithSecret(t);
    const idNumber = anIdNumber(74, 9);
    await admin.post('/api/onboarding/drivers', {
      name: 'Lerato',
      surname: 'Mokoena',
      idNumber,
      phone: '0821234567',
      plateNumber: 'LNK456GP',
    });

    // As the API's role, without the approved-vehicles provider clearing the link first.
    const idNumberHash = await t.modules.keys.keyring.index(tenantId, SA_ID_NUMBER, idNumber);
    const deleted = await t.database.withTenant(tenantId, (tx) =>
      tx.execute(
        sql`delete from drivers where tenant_id = ${tenantId} and id_number_hash = ${idNumberHash}`,
      ),
    );

    expect(deleted.rowCount).toBe(1);
    expect(
      await t.ownerQuery(
        'select tenant_id, driver_id from approved_vehicles where plate_number = $1',
        ['LNK456GP'],
      ),
    ).toEqual([{ tenant_id: tenantId, driver_id: null }]);
  });

  it('lets only the tenant admin ask, and checks the ID number', async () => {
    const { admin } = await aTenantWithSecret(t);
    const office = await t.createSignedInUser(admin, 'back_office');
    const guard = await t.createSignedInUser(admin, 'security_guard');
    const id = anIdNumber(90, 5);

    expect((await office.post('/api/data-subjects/export', { idNumber: id })).statusCode).toBe(403);
    expect((await guard.post('/api/data-subjects/erase', { idNumber: id })).statusCode).toBe(403);
    expect(
      (await office.post('/api/data-subjects/erase-biometrics', { idNumber: id })).statusCode,
    ).toBe(403);
    expect(
      (
        await t.inject({
          method: 'POST',
          url: '/api/data-subjects/export',
          payload: { idNumber: id },
        })
      ).statusCode,
    ).toBe(401);
    const bad = await admin.post('/api/data-subjects/export', { idNumber: '8001015009086' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('INVALID');
    expect((await admin.post('/api/data-subjects/export', { idNumber: id })).statusCode).toBe(200);
  });
});
