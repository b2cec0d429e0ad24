import type { Reading } from '@boomgate/contracts/readings';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { PERSONAL_KEYS } from '@/modules/audit';
import type { Actor } from '@/modules/sessions';
import { runDueJobsOnce } from '@/platform/jobs';
import { aJpegDataUrl } from '@/testing/images';
import { type TestApp, createTestApp } from '@/testing/test-app';

/**
 * Issue 26: what the code before sealing left in plain text in free text and jsonb, and the job
 * (keys.seal-stored-data) that masks or seals it within the append-only and erase-only rules:
 * the watchlist hit's warning on entries and incoming requests (masked, migrations 0098 and
 * …_masked_feed_warnings_security) and audit details written
 * before the audit key (sealed, migration 0099).
 */
const ID = '8001015009087';
const OTHER_ID = '8501015800088';
const refused = /may only be erased|append-only/;

describe('rows stored before sealing: masked or sealed by keys.seal-stored-data (issue 26)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const runSealingJob = async () => {
    await t.modules.keys.enqueueStartup();
    await runDueJobsOnce({ ownerUrl: t.ownerUrl, jobs: t.modules.keys.jobs });
  };
  const sealedEvents = (tenantId: string) =>
    t.ownerQuery<{ details: { rows: Record<string, number> } }>(
      `select details from audit_events where tenant_id = $1 and action = 'storage.data_sealed'
       order by occurred_at`,
      [tenantId],
    );

  async function entryWithWarnings(tenantId: string, warnings: unknown[]): Promise<string> {
    const [row] = await t.ownerQuery<{ id: string }>(
      `insert into entry_logs (tenant_id, id, plate_number, vehicle_approved, face_verified,
         entry_granted, warnings)
       values ($1, gen_random_uuid(), 'CA1', true, false, true, $2::jsonb) returning id`,
      [tenantId, JSON.stringify(warnings)],
    );
    return row!.id;
  }
  const hitWarning = (value: string, severity = 'block') => ({
    code: 'watchlist_hit',
    severity: severity === 'block' ? 'critical' : 'warning',
    message: `Driver ID number ${value} is on the watchlist (${severity}): Banned driver`,
    fields: ['driverIdNumber'],
  });

  it('quotes a watched ID number masked in a new warning, as the screens show it', async () => {
    const admin = await t.registerTenant();
    const watched = await admin.post('/api/watchlist', {
      kind: 'idNumber',
      value: ID,
      reason: 'Banned driver',
      severity: 'alert',
    });
    expect(watched.statusCode, watched.body).toBe(201);
    const entry = await admin.post('/api/auto-gate/grant-entry', {
      plateNumber: 'CA5001',
      driverIdNumber: ID,
    });
    expect(entry.json().warnings[0]).toMatchObject({
      code: 'watchlist_hit',
      message: 'Driver ID number *********9087 is on the watchlist (alert): Banned driver',
    });
    const [stored] = await t.ownerQuery<{ warnings: string }>(
      'select warnings::text as warnings from entry_logs where id = $1',
      [entry.json().id],
    );
    expect(stored?.warnings).toContain('*********9087');
    expect(stored?.warnings).not.toContain(ID);
  });

  it('masks the numbers warnings stored before quoted, once, audited, leaving the rest', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const plate = {
      code: 'watchlist_hit',
      severity: 'critical',
      message: 'Plate CA 123-456 is on the watchlist (block): Stolen',
      fields: ['plateNumber'],
    };
    const quoted = await entryWithWarnings(tenantId, [plate, hitWarning(ID), hitWarning('A1234')]);
    const untouched = await entryWithWarnings(tenantId, [plate]);

    await runSealingJob();

    const read = async (id: string) =>
      (
        await t.ownerQuery<{ warnings: { message: string }[] }>(
          'select warnings from entry_logs where id = $1',
          [id],
        )
      )[0]?.warnings;
    expect(await read(quoted)).toEqual([plate, hitWarning('*********9087'), hitWarning('***34')]);
    expect(await read(untouched)).toEqual([plate]);
    // Through the API as before: the entry's detail shows the masked warning.
    const detail = await admin.get(`/api/entry-logs/${quoted}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.body).not.toContain(ID);
    expect(detail.body).toContain('*********9087');
    expect((await sealedEvents(tenantId)).map((e) => e.details.rows)).toEqual([
      { 'entry_logs.warnings': 1 },
    ]);
    await runSealingJob();
    expect(await sealedEvents(tenantId)).toHaveLength(1);
  });

  it('masks the numbers the feed’s warnings stored before quoted, audited, still listed', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const rig = { code: 'rig_incomplete', message: 'Trailer CA 77 has no licence disc' };
    // A completed request as the code before masking stored it (issue 21's warnings).
    const seed = async (plate: string, warnings: unknown[]) => {
      const [row] = await t.ownerQuery<{ id: string }>(
        `insert into incoming_requests (tenant_id, id, webhook_id, received_at, "timestamp",
           plate_number, driver_name, completed_at, warnings)
         values ($1, gen_random_uuid(), $2, now(), now(), $3, 'Thabo', now(), $4::jsonb)
         returning id`,
        [tenantId, `msg_${plate}`, plate, JSON.stringify(warnings)],
      );
      return row!.id;
    };
    const quoted = await seed('CA8001', [
      rig,
      { code: 'watchlist_hit', message: hitWarning(ID, 'alert').message },
    ]);
    const untouched = await seed('CA8002', [rig]);

    await runSealingJob();

    const stored = async (id: string) =>
      (
        await t.ownerQuery<{ warnings: unknown; text: string }>(
          'select warnings, warnings::text as text from incoming_requests where id = $1',
          [id],
        )
      )[0];
    const masked = [
      rig,
      {
        code: 'watchlist_hit',
        message: 'Driver ID number *********9087 is on the watchlist (alert): Banned driver',
      },
    ];
    expect((await stored(quoted))?.warnings).toEqual(masked);
    expect((await stored(quoted))?.text).not.toContain(ID);
    expect((await stored(untouched))?.warnings).toEqual([rig]);
    // The feed lists both as before, the warning masked.
    const feed = await admin.get('/api/webhook/pending-requests');
    expect(feed.statusCode, feed.body).toBe(200);
    expect(feed.body).not.toContain(ID);
    const listed = new Map(
      feed.json<{ id: string; warnings: unknown }[]>().map((r) => [r.id, r.warnings]),
    );
    expect(listed.get(quoted)).toEqual(masked);
    expect(listed.get(untouched)).toEqual([rig]);
    expect((await sealedEvents(tenantId)).map((e) => e.details.rows)).toEqual([
      { 'incoming_requests.warnings': 1 },
    ]);
    await runSealingJob();
    expect(await sealedEvents(tenantId)).toHaveLength(1);
  });

  it('lets an entry’s warnings be masked and changed in no other way (migration 0098)', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const id = await entryWithWarnings(tenantId, [hitWarning(ID)]);
    // As the job writes it: the API role in the tenant's transaction.
    const set = (warnings: unknown, extra = sql``) =>
      t.database.withTenant(tenantId, (tx) =>
        tx.execute(
          sql`update entry_logs set warnings = ${JSON.stringify(warnings)}::jsonb ${extra}
              where tenant_id = ${tenantId} and id = ${id}`,
        ),
      );
    const failure = (promise: Promise<unknown>) =>
      promise.then(
        () => 'allowed',
        (e: { message: string; cause?: { message?: string } }) => e.cause?.message ?? e.message,
      );
    // Another number, a longer or shorter text, structure turned into '*': refused.
    expect(await failure(set([hitWarning(OTHER_ID)]))).toMatch(refused);
    expect(await failure(set([hitWarning(`${ID}0`)]))).toMatch(refused);
    expect(await failure(set([hitWarning('8001015')]))).toMatch(refused);
    expect(await failure(set([hitWarning(ID), hitWarning(ID)]))).toMatch(refused);
    expect(await failure(set([{ ...hitWarning(ID), extra: 1 }]))).toMatch(refused);
    // Masking together with another column: refused.
    expect(await failure(set([hitWarning('*********9087')], sql`, plate_number = 'CA2'`))).toMatch(
      /permission denied|may only be erased/,
    );
    // Masked: allowed; a '*' never turns back into a character.
    expect(await failure(set([hitWarning('*********9087')]))).toBe('allowed');
    expect(await failure(set([hitWarning(ID)]))).toMatch(refused);
    expect(await failure(set([hitWarning('********19087')]))).toMatch(refused);
    // Still erase-only for everything else, for the owner too.
    await expect(
      t.ownerQuery(`update entry_logs set warnings = '[]'::jsonb where id = $1`, [id]),
    ).rejects.toThrow(refused);
  });

  it('seals the numbers of corrections stored before sealing, found and opened as before', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const entryId = await entryWithWarnings(tenantId, []);
    const insert = (field: string, typed: string, read: unknown) =>
      t.ownerQuery(
        `insert into reading_corrections (tenant_id, id, reading_type, field, kind, read_value,
           was_uncertain, typed_value, corrected_at, entry_log_id)
         values ($1, gen_random_uuid(), 'id', $2, 'corrected', $3::jsonb, true, $4, now(), $5)`,
        [tenantId, field, JSON.stringify(read), typed, entryId],
      );
    await insert('identityNumber', ID, { value: '8001015009088' });
    await insert('surname', 'Nkosi', { value: 'NKOSl' });

    await runSealingJob();

    const stored = await t.ownerQuery<Record<string, unknown>>(
      `select field, typed_value, typed_value_hash, read_value from reading_corrections
       where tenant_id = $1 order by field`,
      [tenantId],
    );
    expect(stored).toEqual([
      {
        field: 'identityNumber',
        typed_value: expect.stringMatching(/^sv1\.1\./),
        typed_value_hash: expect.stringMatching(/^[\w-]{43}$/),
        read_value: { value: expect.stringMatching(/^sv1\.1\./) },
      },
      {
        field: 'surname',
        typed_value: 'Nkosi',
        typed_value_hash: null,
        read_value: { value: 'NKOSl' },
      },
    ]);
    expect((await sealedEvents(tenantId)).map((e) => e.details.rows)).toEqual([
      { reading_corrections: 1 },
    ]);
    // Opened for the office's entry detail; found by the hash for the data subject's export.
    const detail = await admin.get(`/api/entry-logs/${entryId}`);
    const corrections = detail.json<{ corrections: Record<string, unknown>[] }>().corrections;
    expect(corrections.find((c) => c.field === 'identityNumber')).toMatchObject({
      typedValue: ID,
      readValue: '8001015009088',
    });
    const exported = await admin.post('/api/data-subjects/export', { idNumber: ID });
    expect(exported.statusCode, exported.body).toBe(200);
    const section = exported.json<{ records: { readingCorrections: Record<string, unknown>[] } }>()
      .records.readingCorrections;
    expect(section.map((c) => [c.field, c.typedValue, c.readValue])).toEqual([
      ['identityNumber', ID, { value: '8001015009088' }],
    ]);
    await runSealingJob();
    expect(await sealedEvents(tenantId)).toHaveLength(1);
  });

  it('seals the numbers of captures read before sealing, found by hash and opened', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const reading = {
      type: 'id',
      fields: {
        identityNumber: { value: ID, confidence: 0.9, source: 'ocr' },
        surname: { value: 'NKOSI', confidence: 0.9, source: 'ocr' },
      },
      uncertain: [],
    };
    await t.ownerQuery(
      `insert into captures (tenant_id, id, created_at, type, image_key, reading, citations,
         expires_at)
       values ($1::uuid, gen_random_uuid(), now(), 'id', $1::text || '/captures/' || gen_random_uuid() || '.jpg',
               $2::jsonb, 1, now() + interval '1 day')`,
      [tenantId, JSON.stringify(reading)],
    );

    await runSealingJob();

    const [stored] = await t.ownerQuery<{ reading: typeof reading; number_hashes: string[] }>(
      'select reading, number_hashes from captures where tenant_id = $1',
      [tenantId],
    );
    expect(stored?.reading.fields.identityNumber.value).toMatch(/^sv1\.1\./);
    expect(stored?.reading.fields.surname.value).toBe('NKOSI');
    expect(stored?.number_hashes).toEqual([expect.stringMatching(/^[\w-]{43}$/)]);
    expect((await sealedEvents(tenantId)).map((e) => e.details.rows)).toEqual([{ captures: 1 }]);
    const exported = await admin.post('/api/data-subjects/export', { idNumber: ID });
    expect(exported.statusCode, exported.body).toBe(200);
    const section = exported.json<{ records: { captures: { reading: unknown }[] } }>().records
      .captures;
    expect(section.map((c) => c.reading)).toEqual([reading]);
    await runSealingJob();
    expect(await sealedEvents(tenantId)).toHaveLength(1);
  });

  it('re-seals corrections and readings on a data-key rotation, then erases the old key', async () => {
    const admin = await t.registerTenant();
    const guard = await t.createSignedInUser(admin, 'security_guard');
    const tenantId = admin.body.tenant.id;
    const actor = { tenantId, userId: guard.body.user.id } as Actor;
    const reading: Reading = {
      type: 'id',
      fields: { identityNumber: { value: ID, confidence: 0.9, source: 'ocr' } },
      uncertain: [],
    };
    const { captureId } = await t.modules.captures.service.create(
      actor,
      { image: await aJpegDataUrl(), type: 'id' },
      async () => ({ reading, result: null }),
    );
    const entry = await guard.post('/api/auto-gate/grant-entry', {
      plateNumber: 'CA6001',
      driverIdNumber: ID,
      corrections: [{ captureId, readingType: 'id', field: 'identityNumber', typedValue: ID }],
    });
    expect(entry.statusCode, entry.body).toBe(201);
    const stored = async () => [
      ...(
        await t.ownerQuery<{ v: string }>(
          `select typed_value as v from reading_corrections where tenant_id = $1
           union all select read_value ->> 'value' from reading_corrections where tenant_id = $1
           union all select reading -> 'fields' -> 'identityNumber' ->> 'value' from captures
             where tenant_id = $1`,
          [tenantId],
        )
      ).map((row) => row.v.split('.').slice(0, 2).join('.')),
    ];
    expect(await stored()).toEqual(['sv1.1', 'sv1.1', 'sv1.1']);

    await t.modules.keys.service.rotateDataKey(tenantId, admin.body.user.id);
    // Counted as left on the old key (the check before the old key's erasure asks the same).
    const left = async () => (await t.modules.keys.service.status(tenantId)).leftOnOldVersions;
    expect((await left()).rows).toMatchObject({ captures: 1, reading_corrections: 1 });
    // As the reseal job runs once the key cache has expired.
    expect(
      await t.modules.keys.service.resealTenant({ tenantId, rotatedAt: new Date(0).toISOString() }),
    ).toBe(true);

    expect(await stored()).toEqual(['sv1.2', 'sv1.2', 'sv1.2']);
    const detail = await admin.get(`/api/entry-logs/${entry.json().id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    const correction = detail
      .json<{ corrections: Record<string, unknown>[] }>()
      .corrections.find((c) => c.field === 'identityNumber');
    expect(correction).toMatchObject({ typedValue: ID, readValue: ID });
  });

  async function oldAuditRow(tenantId: string, details: unknown): Promise<string> {
    // As the code before the audit key wrote it (the trigger allows inserts).
    const [row] = await t.ownerQuery<{ id: string }>(
      `insert into audit_events (tenant_id, id, action, target_type, target_id, details)
       values ($1, gen_random_uuid(), 'entry_log.created', 'entry_log', gen_random_uuid()::text,
               $2::jsonb) returning id`,
      [tenantId, JSON.stringify(details)],
    );
    return row!.id;
  }
  const storedDetails = async (id: string) =>
    (
      await t.ownerQuery<{ details: Record<string, unknown> }>(
        'select details from audit_events where id = $1',
        [id],
      )
    )[0]?.details;

  it('seals the personal values of audit rows written before the audit key, audited, readable', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const personal = {
      plateNumber: 'CA 123-456',
      driverIdNumber: ID,
      gatePath: 'grant-entry',
      hits: [{ kind: 'idNumber', value: OTHER_ID, covert: false, count: 2 }],
      person: { driverName: 'Sipho', driverSurname: 'Nkosi' },
      note: `typed ${ID} at the gate`,
      mrzLines: [
        'P<ZAFNKOSI<<SIPHO<<<<<<<<<<<<<<<<<<<<<<<<<<<',
        'A123456784ZAF8001015M3001012<<<<<<<<<<<<<<02',
      ],
    };
    const old = await oldAuditRow(tenantId, personal);
    const plain = await oldAuditRow(tenantId, { plateNumber: 'CA 1', count: 1234567890123 });

    await runSealingJob();

    const sealed = (await storedDetails(old)) as typeof personal;
    const isSealed = expect.stringMatching(/^sv1\.\d+\./);
    expect(sealed).toEqual({
      plateNumber: 'CA 123-456',
      driverIdNumber: isSealed,
      gatePath: 'grant-entry',
      hits: [{ kind: 'idNumber', value: isSealed, covert: false, count: 2 }],
      person: { driverName: isSealed, driverSurname: isSealed },
      note: isSealed,
      mrzLines: [isSealed, isSealed],
    });
    expect(JSON.stringify(sealed)).not.toMatch(/8001015009087|8501015800088|Sipho|Nkosi/);
    expect(await storedDetails(plain)).toEqual({ plateNumber: 'CA 1', count: 1234567890123 });
    // Opened for the viewer exactly as written.
    const viewed = await admin.get(`/api/audit-events?action=entry_log.created&limit=100`);
    expect(viewed.statusCode, viewed.body).toBe(200);
    const opened = viewed.json<{ id: string; details: unknown }[]>().find((e) => e.id === old);
    expect(opened?.details).toEqual(personal);
    expect((await sealedEvents(tenantId)).map((e) => e.details.rows)).toEqual([
      { audit_events: 1 },
    ]);
    await runSealingJob();
    expect(await sealedEvents(tenantId)).toHaveLength(1);
  });

  it('keeps the trail append-only but for plain values becoming sealed ones (migration 0099)', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const id = await oldAuditRow(tenantId, { idNumber: ID, plateNumber: 'CA1', n: 1 });
    // A sealed value of the right shape: the ciphertext as long as the 13 bytes it seals.
    const sealedOf = (bytes: number, version = 1) =>
      `sv1.${version}.aaaaaaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbb.${'c'.repeat(Math.ceil((bytes * 4) / 3))}`;
    const attempt = (statement: ReturnType<typeof sql>) =>
      t.database
        .withTenant(tenantId, (tx) => tx.execute(statement))
        .then(
          () => 'allowed',
          (e: { message: string; cause?: { message?: string } }) => e.cause?.message ?? e.message,
        );
    const setDetails = (details: unknown, extra = sql``) =>
      attempt(
        sql`update audit_events set details = ${JSON.stringify(details)}::jsonb ${extra}
            where tenant_id = ${tenantId} and id = ${id}`,
      );
    // Other columns, deletion, truncation: refused as before (the API role and the owner).
    expect(await attempt(sql`update audit_events set action = 'x' where id = ${id}`)).toMatch(
      /permission denied/,
    );
    expect(await attempt(sql`delete from audit_events where id = ${id}`)).toMatch(
      /permission denied/,
    );
    for (const statement of [
      `update audit_events set action = 'x' where id = '${id}'`,
      `update audit_events set ip = '10.0.0.1' where id = '${id}'`,
      `delete from audit_events where id = '${id}'`,
      'truncate audit_events',
    ])
      await expect(t.ownerQuery(statement)).rejects.toThrow('audit_events is append-only');
    // Details: any change but plain → sealed of the same length is refused.
    const cases: [string, unknown][] = [
      ['another plain value', { idNumber: OTHER_ID, plateNumber: 'CA1', n: 1 }],
      ['a sealed value of another length', { idNumber: sealedOf(12), plateNumber: 'CA1', n: 1 }],
      ['not a sealed value', { idNumber: 'sv1.x', plateNumber: 'CA1', n: 1 }],
      ['a key dropped', { plateNumber: 'CA1', n: 1 }],
      ['a key added', { idNumber: ID, plateNumber: 'CA1', n: 1, m: 2 }],
      ['a number changed', { idNumber: sealedOf(13), plateNumber: 'CA1', n: 2 }],
      ['a string made a number', { idNumber: 1, plateNumber: 'CA1', n: 1 }],
      ['erased', null],
    ];
    for (const [why, details] of cases)
      expect([why, await setDetails(details)]).toEqual([why, 'audit_events is append-only']);
    expect(
      await setDetails(
        { idNumber: sealedOf(13), plateNumber: 'CA1', n: 1 },
        sql`, details = details`,
      ),
    ).toMatch(/multiple assignments/);
    // The one change sealing makes: allowed once; a sealed value never changes again.
    expect(await setDetails({ idNumber: sealedOf(13), plateNumber: 'CA1', n: 1 })).toBe('allowed');
    expect(await setDetails({ idNumber: sealedOf(13, 2), plateNumber: 'CA1', n: 1 })).toBe(
      'audit_events is append-only',
    );
    expect(await setDetails({ idNumber: ID, plateNumber: 'CA1', n: 1 })).toBe(
      'audit_events is append-only',
    );
  });

  it('finds in SQL exactly the strings the job seals (audit_details_unsealed)', async () => {
    const unsealed = async (details: unknown) =>
      (
        await t.ownerQuery<{ found: boolean }>(
          'select audit_details_unsealed($1::jsonb, false) as found',
          [JSON.stringify(details)],
        )
      )[0]?.found;
    for (const key of PERSONAL_KEYS) {
      expect([key, await unsealed({ [key]: 'x' })]).toEqual([key, true]);
      expect([key, await unsealed({ a: [{ [key]: ['x'] }] })]).toEqual([key, true]);
      expect([key, await unsealed({ [key]: 'sv1.1.a.b.c' })]).toEqual([key, false]);
    }
    expect(await unsealed({ plateNumber: 'CA 1', count: 3 })).toBe(false);
    expect(await unsealed({ note: `ID ${ID}.` })).toBe(true);
    expect(await unsealed({ note: 'ID 8001015009088' })).toBe(false); // checksum fails
    expect(await unsealed({ note: `ID ${ID}0` })).toBe(false); // a 14-digit run
    expect(await unsealed({ line: 'A123456784ZAF8001015M3001012<<<<<<<<<<<<<<02' })).toBe(true);
  });

  it('lets ANALYZE and VACUUM evaluate the trail’s partial index (migration 0104)', async () => {
    const admin = await t.registerTenant();
    await t.ownerQuery(
      `insert into audit_events (tenant_id, id, occurred_at, action, target_type, target_id, details)
       values ($1, gen_random_uuid(), now(), 'entry.granted', 'entry', 'x', $2::jsonb)`,
      [admin.body.tenant.id, JSON.stringify({ nested: { idNumber: ID }, note: `ID ${ID}` })],
    );
    // PostgreSQL 17 and later run maintenance with search_path = pg_catalog, pg_temp: the
    // predicate's function must find itself and passes_luhn there (it did not, and ANALYZE of
    // audit_events failed, autovacuum's too). The same path set by hand, for every version:
    const client = new pg.Client({ connectionString: t.ownerUrl });
    await client.connect();
    try {
      await client.query('set search_path = pg_catalog, pg_temp');
      const { rows } = await client.query<{ found: boolean }>(
        'select public.audit_details_unsealed($1::jsonb, false) as found',
        [JSON.stringify({ list: [{ note: `ID ${ID}` }] })],
      );
      expect(rows[0]?.found).toBe(true);
      await client.query('analyze public.audit_events');
      await client.query('vacuum public.audit_events');
    } finally {
      await client.end();
    }
  });
});
