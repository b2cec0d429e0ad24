import type { Reading } from '@boomgate/contracts/readings';
import { passesLuhn } from '@boomgate/contracts/sa-id-number';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Actor } from '@/modules/sessions';
import { runDueJobsOnce } from '@/platform/jobs';
import { isSealedObject } from '@/platform/sealing';
import { findPlaintextNumbers, unsealedMagic } from '@/security/plaintext-scan';
import { aJpegDataUrl } from '@/testing/images';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';
import { anMp4 } from '@/testing/videos';
import {
  aCompletion,
  aTenantWithSecret,
  runJobs,
  sendEntry,
  setCallback,
  startReceiver,
} from '@/testing/webhooks';

/**
 * Issue 26's catalog-driven check: every text-like column of every table (the app's and the job
 * queue's) is searched for plaintext ID numbers (checksum-valid 13-digit runs) and MRZ-shaped
 * passport lines. Tables whose ID numbers are not sealed yet are named here, so the list can only
 * shrink: a new table or column holding a plain number fails the test.
 */
const NOT_YET_SEALED = new Set<string>([]);

let sequence = 100;
function saId(yymmdd = '850505'): string {
  const twelve = `${yymmdd}${String(sequence++).padStart(4, '0')}08`;
  const check = [...'0123456789'].find((digit) => passesLuhn(`${twelve}${digit}`)) ?? '0';
  return `${twelve}${check}`;
}

/** The catalog walk (plaintext-scan.ts, shared with the end-to-end run's closing step). */
const plaintextColumns = (t: TestApp, canaries: readonly string[] = []) =>
  findPlaintextNumbers(t.ownerQuery, { canaries });

describe('personal data sealed at rest: the catalog (issue 26)', () => {
  let t: TestApp;
  let photo: string;
  const written: { key: string; bytes: Buffer }[] = [];
  beforeAll(async () => {
    t = await createTestApp({
      env: { WEBHOOKS_ALLOW_LOOPBACK_HTTP: 'true' },
      // Every object as it reaches the storage folder (below the sealing the keys module adds).
      storage: (storage) => ({
        ...storage,
        put: async (key, bytes) => {
          written.push({ key, bytes: Buffer.from(bytes) });
          await storage.put(key, bytes);
        },
      }),
    });
    photo = await aJpegDataUrl();
  });

  /** A capture with the given reading, made through the service (the engine is not the subject). */
  async function aCapture(session: Session, reading: Reading) {
    const actor = { tenantId: session.body.tenant.id, userId: session.body.user.id } as Actor;
    const { captureId } = await t.modules.captures.service.create(
      actor,
      { image: photo, type: reading.type },
      async () => ({ reading, result: null }),
    );
    return captureId;
  }
  afterAll(() => t.close());

  it('finds no plaintext ID number outside the tables not yet sealed, after seeding through the API', async () => {
    const admin = await t.registerTenant();
    const ids = [saId(), saId(), saId()];
    for (const [i, idNumber] of ids.entries()) {
      const created = await admin.post('/api/onboarding/drivers', {
        name: 'Sipho',
        surname: 'Nkosi',
        idNumber,
        phone: '082 123 4567',
        plateNumber: `CA ${1000 + i}`,
        approvedUntil: '2099-06-30',
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().driver.idNumber).toBe(idNumber);
    }
    const watched = await admin.post('/api/watchlist', {
      kind: 'idNumber',
      value: ids[2],
      reason: 'Banned driver',
      severity: 'alert',
    });
    expect(watched.statusCode, watched.body).toBe(201);
    expect(watched.json().value).toBe(ids[2]);
    const entry = await admin.post('/api/auto-gate/grant-entry', {
      plateNumber: 'CA1000',
      driverIdNumber: ids[0],
    });
    expect(entry.statusCode, entry.body).toBe(201);
    // A watchlist hit (an alert: the entry goes through with a warning): the entry's audit
    // event keeps the hit, the watched number in it.
    const hit = await admin.post('/api/auto-gate/grant-entry', {
      plateNumber: 'CA1002',
      driverIdNumber: ids[2],
    });
    expect(hit.json().warnings[0]?.code, hit.body).toBe('watchlist_hit');
    const hitEntryId = hit.json().id;
    const visitor = await admin.post('/api/visits/people', {
      name: 'Naledi',
      idNumber: ids[1],
      company: 'Acme',
    });
    expect(visitor.statusCode, visitor.body).toBe(201);
    expect(visitor.json().personIdNumber).toBe(ids[1]);
    // Documents read at the gate (their numbers and fields) and the incoming feed.
    const documents = [
      await admin.post('/api/identity-document', { identityNumber: ids[0], surname: 'Nkosi' }),
      await admin.post('/api/drivers-licence', {
        licenceNumber: '0123456789AB',
        idNumber: ids[0],
        nameOnCard: 'S NKOSI',
      }),
      await admin.post('/api/passport', { passportNumber: 'A98765432', surname: 'Nkosi' }),
    ];
    for (const document of documents) expect(document.statusCode, document.body).toBe(201);
    const secret = await admin.post('/api/integrations/secret');
    const feedTenant = {
      tenantId: admin.body.tenant.id,
      secret: secret.json<{ secret: string }>().secret,
    };
    const posted = await sendEntry(t, feedTenant, { plateNumber: 'CA 55', driverIdNumber: ids[1] });
    await sendEntry(t, feedTenant, { plateNumber: 'CA 56', driverIdNumber: ids[0] });
    const completed = await admin.post(
      `/api/webhook/process-request/${posted}`,
      aCompletion({ plateNumber: 'CA55', driverIdNumber: ids[1] }),
    );
    expect(completed.statusCode, completed.body).toBe(200);

    const found = await plaintextColumns(t);
    expect([...found].filter((column) => !NOT_YET_SEALED.has(column))).toEqual([]);
    // The search itself works: an entry stored as before sealing is found.
    await t.ownerQuery(
      `insert into entry_logs (tenant_id, id, plate_number, vehicle_approved, face_verified,
         entry_granted, driver_id_number) values ($1, gen_random_uuid(), 'CA9', false, false, false, $2)`,
      [admin.body.tenant.id, ids[1]],
    );
    expect(await plaintextColumns(t)).toContain('public.entry_logs.driver_id_number');
    // Erased again (the erase-only rule allows it), so the next test's walk starts clean.
    await t.ownerQuery(
      `update entry_logs set driver_id_number = null where tenant_id = $1 and plate_number = 'CA9'`,
      [admin.body.tenant.id],
    );

    const stored = await t.ownerQuery<{ id_number: string; id_number_hash: string }>(
      'select id_number, id_number_hash from drivers where tenant_id = $1',
      [admin.body.tenant.id],
    );
    expect(stored).toHaveLength(3);
    for (const row of stored) {
      expect(row.id_number).toMatch(/^sv1\.1\./);
      expect(row.id_number_hash).toMatch(/^[\w-]{43}$/);
    }
    const listed = await admin.get('/api/drivers');
    expect(
      listed
        .json()
        .map((d: { idNumber: string }) => d.idNumber)
        .sort(),
    ).toEqual([...ids].sort());

    // The audit trail: sealed at rest, opened for its viewer and its export.
    const [sealedEvent] = await t.ownerQuery<{ details: string }>(
      `select details::text as details from audit_events where tenant_id = $1 and target_id = $2`,
      [admin.body.tenant.id, hitEntryId],
    );
    expect(sealedEvent?.details).not.toContain(ids[2]);
    expect(sealedEvent?.details).toContain('"sv1.');
    const viewed = await admin.get(`/api/audit-events?targetId=${hitEntryId}`);
    expect(JSON.stringify(viewed.json()[0].details.watchlistHits)).toContain(ids[2]);
    const exported = await admin.get(`/api/audit-events/export?targetId=${hitEntryId}`);
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.body).toContain(ids[2]);
  });

  it('finds no plaintext ID or passport number in any column after a realistic flow', async () => {
    const receiver = await startReceiver();
    try {
      const tenant = await aTenantWithSecret(t);
      const { admin, tenantId } = tenant;
      await setCallback(admin, receiver.url);
      const guard = await t.createSignedInUser(admin, 'security_guard');
      const [driverId, alertId, blockId, incomingId, visitorId, inductedId] = [
        saId('910202'),
        saId('910202'),
        saId('910202'),
        saId('910202'),
        saId('910202'),
        saId('910202'),
      ];
      const passport = 'ZE7700509';
      const onboarded = await admin.post('/api/onboarding/drivers', {
        name: 'Sipho',
        surname: 'Nkosi',
        idNumber: driverId,
        phone: '082 123 4567',
        plateNumber: 'GP 1000',
        approvedUntil: '2099-06-30',
      });
      expect(onboarded.statusCode, onboarded.body).toBe(201);
      for (const [value, severity] of [
        [alertId, 'alert'],
        [blockId, 'block'],
      ] as const) {
        const watched = await admin.post('/api/watchlist', {
          kind: 'idNumber',
          value,
          reason: 'Banned driver',
          severity,
        });
        expect(watched.statusCode, watched.body).toBe(201);
      }

      // Entries at the gate: a photographed ID read right and a typed correction, a passport,
      // a watchlist hit that warns and one that refuses.
      const idCapture = await aCapture(guard, {
        type: 'id',
        fields: {
          identityNumber: { value: driverId, confidence: 0.97, source: 'ocr' },
          surname: { value: 'NKOSI', confidence: 0.93, source: 'ocr' },
        },
        uncertain: [],
      });
      const corrected = await guard.post('/api/auto-gate/grant-entry', {
        plateNumber: 'GP1000',
        driverName: 'Sipho',
        driverSurname: 'Nkosi',
        driverIdNumber: driverId,
        corrections: [
          {
            captureId: idCapture,
            readingType: 'id',
            field: 'identityNumber',
            typedValue: driverId,
          },
        ],
      });
      expect(corrected.statusCode, corrected.body).toBe(201);
      const byPassport = await guard.post('/api/auto-gate/grant-entry', {
        plateNumber: 'GP2000',
        driverPassportNumber: passport,
        corrections: [
          {
            captureId: null,
            readingType: 'passport',
            field: 'passportNumber',
            typedValue: passport,
          },
        ],
      });
      expect(byPassport.statusCode, byPassport.body).toBe(201);
      const warned = await guard.post('/api/auto-gate/grant-entry', {
        plateNumber: 'GP3000',
        driverIdNumber: alertId,
      });
      expect(warned.json().warnings[0]?.code, warned.body).toBe('watchlist_hit');
      const refusedEntry = await guard.post('/api/auto-gate/grant-entry', {
        plateNumber: 'GP4000',
        driverIdNumber: blockId,
      });
      expect(refusedEntry.json().refusalReason, refusedEntry.body).toBe('watchlist');

      // The incoming feed: a request with an ID number, processed, its callback delivered.
      const requestId = await sendEntry(t, tenant, {
        plateNumber: 'GP5000',
        timestamp: '2026-01-01T07:00:00Z',
        driverName: 'Thabo',
        driverIdNumber: incomingId,
      });
      const processed = await admin.post(
        `/api/webhook/process-request/${requestId}`,
        aCompletion({ plateNumber: 'GP5000', driverIdNumber: incomingId }),
      );
      expect(processed.statusCode, processed.body).toBe(200);

      const visit = await guard.post('/api/visits/people', {
        name: 'Naledi',
        idNumber: visitorId,
        company: 'Acme',
      });
      expect(visit.statusCode, visit.body).toBe(201);
      const file = await t.inject({
        method: 'POST',
        url: '/api/safety-videos/files',
        payload: anMp4(30),
        headers: { cookie: admin.cookie, 'content-type': 'video/mp4' },
      });
      const video = await admin.post('/api/safety-videos', {
        title: 'Site safety',
        passScore: 67,
        questions: [{ question: 'Speed limit?', options: ['20 km/h', '60 km/h'], correctIndex: 0 }],
        video: { kind: 'upload', fileKey: file.json().fileKey },
      });
      expect(video.statusCode, video.body).toBe(201);
      const inducted = await admin.post('/api/induction/assignments', {
        videoId: video.json().id,
        driverName: 'Lerato Dlamini',
        driverIdNumber: inductedId,
        driverImage: photo,
      });
      expect(inducted.statusCode, inducted.body).toBe(201);

      const exported = await admin.post('/api/data-subjects/export', { idNumber: driverId });
      expect(exported.statusCode, exported.body).toBe(200);
      expect(exported.body).toContain(driverId);
      await runJobs(t);
      expect(receiver.received.length).toBeGreaterThan(0);
      const alerts = await t.ownerQuery('select 1 from alerts where tenant_id = $1', [tenantId]);
      expect(alerts.length).toBeGreaterThan(0);

      const numbers = [driverId, alertId, blockId, incomingId, visitorId, inductedId, passport];
      const found = await plaintextColumns(t, numbers);
      expect([...found].filter((column) => !NOT_YET_SEALED.has(column))).toEqual([]);

      // Storage: every object written (captures, the induction photo, the safety video) is sealed;
      // none is an image, a PDF or a video as uploaded.
      const kinds = new Set(written.map(({ key }) => key.split('/')[1]));
      expect([...kinds].sort()).toEqual(expect.arrayContaining(['captures', 'safety-videos']));
      for (const { key, bytes } of written) {
        expect([key, isSealedObject(bytes)]).toEqual([key, true]);
        expect([key, unsealedMagic(bytes)]).toEqual([key, null]);
      }
    } finally {
      await receiver.close();
    }
  });

  it('seals drivers stored by the code before sealing, audited, and reads every value back', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const legacy = [saId('700707'), saId('700707')];
    for (const idNumber of legacy)
      await t.ownerQuery(
        `insert into drivers (tenant_id, id, id_number, name, surname, source)
         values ($1, gen_random_uuid(), $2, 'Lerato', 'Dlamini', 'bulk')`,
        [tenantId, idNumber],
      );
    // Entries as the code before sealing stored them: one by ID number, one by passport.
    const passport = 'A12345678';
    await t.ownerQuery(
      `insert into entry_logs (tenant_id, id, plate_number, vehicle_approved, face_verified,
         entry_granted, driver_id_number, driver_passport_number)
       values ($1, gen_random_uuid(), 'CA7001', true, false, true, $2, null),
              ($1, gen_random_uuid(), 'CA7002', true, false, true, null, $3)`,
      [tenantId, legacy[0], passport],
    );
    const visitorId = saId('700707');
    await t.ownerQuery(
      `insert into visits (tenant_id, id, kind, site_id, person_name, person_id_number, entered_at)
       select $1, gen_random_uuid(), 'person', id, 'Thabo', $2, now() from sites
       where tenant_id = $1 and is_default`,
      [tenantId, visitorId],
    );
    // Documents and a feed entry as the code before sealing stored them (fields: JSON text).
    const documentId = saId('700707');
    await t.ownerQuery(
      `insert into identity_documents (tenant_id, id, identity_number, fields)
       values ($1, gen_random_uuid(), $2, json_build_object('identityNumber', $2::text)::text)`,
      [tenantId, documentId],
    );
    await t.ownerQuery(
      `insert into passports (tenant_id, id, passport_number, fields)
       values ($1, gen_random_uuid(), 'P7007007', '{"passportNumber": "P7007007"}')`,
      [tenantId],
    );
    await t.ownerQuery(
      `insert into incoming_requests (tenant_id, id, webhook_id, received_at, "timestamp",
         plate_number, driver_id_number)
       values ($1, gen_random_uuid(), 'msg_before', now(), now(), 'CA7003', $2)`,
      [tenantId, documentId],
    );
    const watchedId = saId('700707');
    await t.ownerQuery(
      `insert into watchlist_entries (tenant_id, id, kind, value, match_key, reason, severity,
         created_at, updated_at)
       values ($1, gen_random_uuid(), 'idNumber', $2, $2, 'Banned', 'block', now(), now())`,
      [tenantId, watchedId],
    );
    const atGate = async () =>
      (
        await admin.post('/api/auto-gate/grant-entry', {
          plateNumber: 'CA7000',
          driverIdNumber: watchedId,
        })
      ).json<{ refusalReason: string | null }>().refusalReason;
    expect(await atGate()).toBe('watchlist');
    // Before the migration: found by number (a duplicate is refused), listed in the clear.
    const duplicate = await admin.post('/api/onboarding/drivers', {
      name: 'Lerato',
      surname: 'Dlamini',
      idNumber: legacy[0],
      plateNumber: 'CA 7070',
      approvedUntil: '2099-06-30',
    });
    expect(duplicate.statusCode).toBe(409);

    await t.modules.keys.enqueueStartup();
    await runDueJobsOnce({ ownerUrl: t.ownerUrl, jobs: t.modules.keys.jobs });

    const stored = await t.ownerQuery<{ id_number: string; id_number_hash: string | null }>(
      'select id_number, id_number_hash from drivers where tenant_id = $1',
      [tenantId],
    );
    expect(stored.every((row) => row.id_number.startsWith('sv1.') && row.id_number_hash)).toBe(
      true,
    );
    const listed = await admin.get('/api/drivers');
    expect(
      listed
        .json()
        .map((d: { idNumber: string }) => d.idNumber)
        .sort(),
    ).toEqual([...legacy].sort());
    const [watchRow] = await t.ownerQuery<{ value: string; match_key: string }>(
      'select value, match_key from watchlist_entries where tenant_id = $1',
      [tenantId],
    );
    expect(watchRow?.value).toMatch(/^sv1\./);
    expect(watchRow?.match_key).not.toContain(watchedId);
    expect(await atGate()).toBe('watchlist');
    expect((await admin.get('/api/watchlist')).json()[0].value).toBe(watchedId);
    const entries = await t.ownerQuery<Record<string, string | null>>(
      `select plate_number, driver_id_number, driver_id_number_hash, driver_passport_number,
         driver_passport_number_hash from entry_logs where tenant_id = $1 and plate_number in ('CA7001', 'CA7002')
       order by plate_number`,
      [tenantId],
    );
    expect(entries).toHaveLength(2);
    expect(entries[0]?.driver_id_number).toMatch(/^sv1\.1\./);
    expect(entries[0]?.driver_id_number_hash).toMatch(/^[\w-]{43}$/);
    expect(entries[0]?.driver_passport_number).toBeNull();
    expect(entries[1]?.driver_passport_number).toMatch(/^sv1\.1\./);
    expect(entries[1]?.driver_passport_number_hash).toMatch(/^[\w-]{43}$/);
    // Read back through the API, opened.
    const page = (await admin.get('/api/entry-logs?limit=100')).json<
      { plateNumber: string; driverIdNumber: string | null; driverPassportNumber: string | null }[]
    >();
    const byPlate = new Map(page.map((item) => [item.plateNumber, item]));
    expect(byPlate.get('CA7001')?.driverIdNumber).toBe(legacy[0]);
    expect(byPlate.get('CA7002')?.driverPassportNumber).toBe(passport);
    // The data subject's entries are found by the keyed hashes once sealed.
    const exported = await admin.post('/api/data-subjects/export', { idNumber: legacy[0] });
    expect(exported.statusCode, exported.body).toBe(200);
    const exportedEntries = exported.json<{
      records: { entryLogs: { plateNumber: string; driverIdNumber: string }[] };
    }>().records.entryLogs;
    expect(exportedEntries.map((e) => [e.plateNumber, e.driverIdNumber])).toEqual([
      ['CA7001', legacy[0]],
    ]);
    const again = await admin.post('/api/onboarding/drivers', {
      name: 'Lerato',
      surname: 'Dlamini',
      idNumber: legacy[1],
      plateNumber: 'CA 7071',
      approvedUntil: '2099-06-30',
    });
    expect(again.statusCode).toBe(409);
    const audited = await t.ownerQuery<{ details: unknown }>(
      `select details from audit_events where tenant_id = $1 and action = 'storage.data_sealed'`,
      [tenantId],
    );
    const [visit] = await t.ownerQuery<{ number: string; hash: string | null }>(
      'select person_id_number as number, person_id_number_hash as hash from visits where tenant_id = $1',
      [tenantId],
    );
    expect(visit?.number).toMatch(/^sv1\.1\./);
    expect(visit?.hash).toMatch(/^[\w-]{43}$/);
    const onSite = (await admin.get('/api/on-site')).json<{ personIdNumber: string | null }[]>();
    expect(onSite.map((v) => v.personIdNumber)).toContain(visitorId);
    // Sealing ran once: a second run finds nothing.
    await t.modules.keys.enqueueStartup();
    await runDueJobsOnce({ ownerUrl: t.ownerUrl, jobs: t.modules.keys.jobs });
    expect(audited).toEqual([
      {
        details: {
          objects: 0,
          rows: {
            drivers: 2,
            watchlist_entries: 1,
            entry_logs: 2,
            visits: 1,
            identity_documents: 1,
            passports: 1,
            incoming_requests: 1,
          },
        },
      },
    ]);
    // After the migration: no plaintext ID or passport number in any column of any table (the
    // job sealed every tenant's rows, the plain entry the first test planted included).
    const left = await plaintextColumns(t);
    expect([...left].filter((column) => !NOT_YET_SEALED.has(column))).toEqual([]);
  });

  it('lets the erase-only entries take their sealed form and nothing else (migration 0093)', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const [row] = await t.ownerQuery<{ id: string }>(
      `insert into entry_logs (tenant_id, id, plate_number, vehicle_approved, face_verified,
         entry_granted, driver_name, driver_id_number)
       values ($1, gen_random_uuid(), 'CA1', true, false, true, 'Sipho', $2) returning id`,
      [tenantId, saId('660606')],
    );
    const set = (assignment: string, ...values: unknown[]) =>
      t.ownerQuery(`update entry_logs set ${assignment} where tenant_id = $1 and id = $2`, [
        tenantId,
        row!.id,
        ...values,
      ]);
    const refused = /may only be erased/;
    // Plain to plain, or an ordinary field: refused as before.
    await expect(set(`driver_id_number = '8001015009087'`)).rejects.toThrow(refused);
    await expect(set(`driver_name = 'Other'`)).rejects.toThrow(refused);
    // A hash without its number is refused; plain to sealed with its hash, once, is allowed.
    await expect(set(`driver_passport_number_hash = 'h'`)).rejects.toThrow(refused);
    await set(`driver_id_number = 'sv1.2.aaaa.bbbb.cccc', driver_id_number_hash = 'hash-1'`);
    // The hash never changes once there; a sealed value never goes back to plain.
    await expect(set(`driver_id_number_hash = 'hash-2'`)).rejects.toThrow(refused);
    await expect(set(`driver_id_number = '8001015009087'`)).rejects.toThrow(refused);
    // A rotation moves forward only: not to the same key version, not to an older one.
    await expect(set(`driver_id_number = 'sv1.2.dddd.eeee.ffff'`)).rejects.toThrow(refused);
    await expect(set(`driver_id_number = 'sv1.1.dddd.eeee.ffff'`)).rejects.toThrow(refused);
    await set(`driver_id_number = 'sv1.3.dddd.eeee.ffff'`);
    // Erasure as before, the hash with the number.
    await set(`driver_id_number = null, driver_id_number_hash = null, driver_name = null`);
    const [after] = await t.ownerQuery<Record<string, string | null>>(
      'select driver_id_number, driver_id_number_hash, driver_name from entry_logs where id = $1',
      [row!.id],
    );
    expect(after).toEqual({
      driver_id_number: null,
      driver_id_number_hash: null,
      driver_name: null,
    });
  });
});
