import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { KeyStatus } from '@boomgate/contracts/keys';
import { passesLuhn } from '@boomgate/contracts/sa-id-number';

import { runDueJobsOnce } from '@/platform/jobs';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

let sequence = 500;
function saId(yymmdd = '810303'): string {
  const twelve = `${yymmdd}${String(sequence++).padStart(4, '0')}08`;
  const check = [...'0123456789'].find((digit) => passesLuhn(`${twelve}${digit}`)) ?? '0';
  return `${twelve}${check}`;
}

type StoredDocument = { number: string | null; hash: string | null; fields: string | null };
type ExportedDocument = { type: string; id: string; fields: Record<string, unknown> } & Record<
  string,
  unknown
>;

/**
 * Issue 26: identity documents, driving licences and passports keep their ID/passport number and
 * their fields sealed at rest, with the number's keyed hash beside it; every reader (the gate's
 * rules, the entry detail, the data-subject export and erasure) works on them as before.
 */
describe('documents sealed at rest (issue 26)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // No key cache: the re-seal job can retire the old key as soon as it has run.
    t = await createTestApp({ env: { KEY_CACHE_SECONDS: '0' } });
  });
  afterAll(() => t.close());
  const jobs = () => runDueJobsOnce({ ownerUrl: t.ownerUrl, jobs: t.modules.keys.jobs });

  const stored = async (table: string, number: string, id: string): Promise<StoredDocument> => {
    const [row] = await t.ownerQuery<StoredDocument>(
      `select ${number} as number, ${number}_hash as hash, fields from ${table} where id = $1`,
      [id],
    );
    return row!;
  };

  async function saveAll(
    session: Session,
    idNumber: string,
    passport: string,
    licenceNumber = '0123456789AB',
  ) {
    const identity = await session.post('/api/identity-document', {
      identityNumber: idNumber,
      givenNames: 'Thabo',
      surname: 'Mokoena',
    });
    const licence = await session.post('/api/drivers-licence', {
      licenceNumber,
      nameOnCard: 'T MOKOENA',
      idNumber,
      validTo: '2099-01-01',
    });
    const passportDoc = await session.post('/api/passport', {
      passportNumber: passport,
      givenNames: 'Thabo',
      surname: 'Mokoena',
      nationality: 'ZAF',
    });
    for (const response of [identity, licence, passportDoc])
      expect(response.statusCode, response.body).toBe(201);
    return {
      identityId: identity.json<{ id: string }>().id,
      licenceId: licence.json<{ id: string }>().id,
      passportId: passportDoc.json<{ id: string }>().id,
    };
  }

  it('stores each document kind sealed, reads it back through the entry, finds, exports and erases it by number', async () => {
    const admin = await t.registerTenant();
    const idNumber = saId();
    const passport = 'A20304050';
    const { identityId, licenceId, passportId } = await saveAll(admin, idNumber, passport);

    for (const [table, number, id] of [
      ['identity_documents', 'identity_number', identityId],
      ['drivers_licences', 'id_number', licenceId],
      ['passports', 'passport_number', passportId],
    ] as const) {
      const row = await stored(table, number, id);
      expect(row.number, table).toMatch(/^sv1\.1\./);
      expect(row.hash, table).toMatch(/^[\w-]{43}$/);
      expect(row.fields, table).toMatch(/^sv1\.1\./);
      expect(JSON.stringify(row)).not.toContain(idNumber);
      expect(JSON.stringify(row)).not.toContain(passport);
    }
    // The same ID number hashes alike on the identity document and the licence.
    expect((await stored('identity_documents', 'identity_number', identityId)).hash).toBe(
      (await stored('drivers_licences', 'id_number', licenceId)).hash,
    );

    // The gate reads the documents' sealed fields (the name on the licence card).
    const entry = await admin.post('/api/auto-gate/grant-entry', {
      plateNumber: 'KP35XKGP',
      identityDocumentId: identityId,
      driversLicenceId: licenceId,
      passportRecordId: passportId,
      driverIdNumber: idNumber,
      driverPassportNumber: passport,
    });
    expect(entry.statusCode, entry.body).toBe(201);
    expect(entry.json()).toMatchObject({ driverName: 'T MOKOENA' });
    const detail = await admin.get(`/api/entry-logs/${entry.json<{ id: string }>().id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    const fieldsOf = Object.fromEntries(
      detail
        .json<{ documents: { citedAs: string; fields: Record<string, unknown> }[] }>()
        .documents.map((document) => [document.citedAs, document.fields]),
    );
    expect(fieldsOf.identityDocument).toMatchObject({ identityNumber: idNumber });
    expect(fieldsOf.driversLicence).toMatchObject({
      idNumber,
      licenceNumber: '0123456789AB',
      validTo: '2099-01-01',
    });
    expect(fieldsOf.passportRecord).toMatchObject({ passportNumber: passport, nationality: 'ZAF' });

    // Documents no entry cites are found by the keyed hash of the subject's numbers.
    const loose = await saveAll(admin, idNumber, passport);
    const other = await saveAll(admin, saId(), 'B99887766', '5566778899EF');
    const exported = await admin.post('/api/data-subjects/export', { idNumber });
    expect(exported.statusCode, exported.body).toBe(200);
    const documents = exported.json<{ records: { documents: ExportedDocument[] } }>().records
      .documents;
    const byId = new Map(documents.map((document) => [document.id, document]));
    for (const id of [identityId, licenceId, passportId, ...Object.values(loose)])
      expect(byId.has(id), id).toBe(true);
    for (const id of Object.values(other)) expect(byId.has(id), id).toBe(false);
    expect(byId.get(loose.identityId)).toMatchObject({
      type: 'identity_document',
      identityNumber: idNumber,
      fields: { identityNumber: idNumber, surname: 'Mokoena' },
    });
    expect(byId.get(loose.licenceId)).toMatchObject({
      type: 'drivers_licence',
      idNumber,
      fields: { idNumber, nameOnCard: 'T MOKOENA' },
    });
    expect(byId.get(loose.passportId)).toMatchObject({
      type: 'passport',
      passportNumber: passport,
      fields: { passportNumber: passport, nationality: 'ZAF' },
    });
    expect(JSON.stringify(documents)).not.toMatch(/sv1\.|Hash/);

    const erased = await admin.post('/api/data-subjects/erase', { idNumber });
    expect(erased.statusCode, erased.body).toBe(200);
    for (const [table, number, id] of [
      ['identity_documents', 'identity_number', loose.identityId],
      ['drivers_licences', 'id_number', loose.licenceId],
      ['passports', 'passport_number', loose.passportId],
    ] as const)
      expect(await stored(table, number, id), table).toEqual({
        number: null,
        hash: null,
        fields: null,
      });
    // Another driver's documents stay as they were.
    expect((await stored('passports', 'passport_number', other.passportId)).number).toMatch(
      /^sv1\./,
    );
    const again = await admin.post('/api/data-subjects/export', { idNumber });
    expect(
      again.json<{ records: { documents: ExportedDocument[] } }>().records.documents,
    ).toSatisfy((list: ExportedDocument[]) =>
      list.every((document) => document.fields && Object.keys(document.fields).length === 0),
    );
  });

  it('seals documents stored by the code before sealing, reads every value back, and re-seals them on a rotation', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const idNumber = saId('690909');
    const passport = 'C11223344';
    // As the code before sealing stored them: the numbers plain, the fields as JSON (the text
    // migration 0096 turned the jsonb into).
    const identityFields = { identityNumber: idNumber, givenNames: 'Lerato', surname: 'Dlamini' };
    const licenceFields = { licenceNumber: '9988776655CD', idNumber, nameOnCard: 'L DLAMINI' };
    const passportFields = { passportNumber: passport, surname: 'Dlamini', nationality: 'ZAF' };
    const [identity] = await t.ownerQuery<{ id: string }>(
      `insert into identity_documents (tenant_id, id, identity_number, fields)
       values ($1, gen_random_uuid(), $2, ($3::jsonb)::text) returning id`,
      [tenantId, idNumber, JSON.stringify(identityFields)],
    );
    const [licence] = await t.ownerQuery<{ id: string }>(
      `insert into drivers_licences (tenant_id, id, licence_number, id_number, fields)
       values ($1, gen_random_uuid(), '9988776655CD', $2, ($3::jsonb)::text) returning id`,
      [tenantId, idNumber, JSON.stringify(licenceFields)],
    );
    const [passportRow] = await t.ownerQuery<{ id: string }>(
      `insert into passports (tenant_id, id, passport_number, fields)
       values ($1, gen_random_uuid(), $2, ($3::jsonb)::text) returning id`,
      [tenantId, passport, JSON.stringify(passportFields)],
    );
    const ids = { identity: identity!.id, licence: licence!.id, passport: passportRow!.id };
    // Before the job: read and found by the plain number.
    const before = await admin.post('/api/data-subjects/export', { idNumber });
    expect(
      before
        .json<{ records: { documents: ExportedDocument[] } }>()
        .records.documents.map((d) => d.id)
        .sort(),
    ).toEqual([ids.identity, ids.licence].sort());

    await t.modules.keys.enqueueStartup();
    await jobs();

    const sealed = {
      identity: await stored('identity_documents', 'identity_number', ids.identity),
      licence: await stored('drivers_licences', 'id_number', ids.licence),
      passport: await stored('passports', 'passport_number', ids.passport),
    };
    for (const row of Object.values(sealed)) {
      expect(row.number).toMatch(/^sv1\.1\./);
      expect(row.hash).toMatch(/^[\w-]{43}$/);
      expect(row.fields).toMatch(/^sv1\.1\./);
    }
    const [audited] = await t.ownerQuery<{ details: { rows: Record<string, number> } }>(
      `select details from audit_events where tenant_id = $1 and action = 'storage.data_sealed'`,
      [tenantId],
    );
    expect(audited?.details.rows).toMatchObject({
      identity_documents: 1,
      drivers_licences: 1,
      passports: 1,
    });

    // Every value reads back, through the entry that cites them and the export.
    const entry = await admin.post('/api/auto-gate/grant-entry', {
      plateNumber: 'CA6900',
      identityDocumentId: ids.identity,
      driversLicenceId: ids.licence,
      passportRecordId: ids.passport,
      driverIdNumber: idNumber,
      driverPassportNumber: passport,
    });
    expect(entry.statusCode, entry.body).toBe(201);
    expect(entry.json()).toMatchObject({ driverName: 'L DLAMINI' });
    const detail = await admin.get(`/api/entry-logs/${entry.json<{ id: string }>().id}`);
    const fieldsOf = Object.fromEntries(
      detail
        .json<{ documents: { citedAs: string; fields: Record<string, unknown> }[] }>()
        .documents.map((document) => [document.citedAs, document.fields]),
    );
    expect(fieldsOf).toEqual({
      identityDocument: identityFields,
      driversLicence: licenceFields,
      passportRecord: passportFields,
    });
    const exported = await admin.post('/api/data-subjects/export', { idNumber });
    const byId = new Map(
      exported
        .json<{ records: { documents: ExportedDocument[] } }>()
        .records.documents.map((document) => [document.id, document]),
    );
    expect(byId.get(ids.identity)).toMatchObject({
      identityNumber: idNumber,
      fields: identityFields,
    });
    expect(byId.get(ids.licence)).toMatchObject({ idNumber, fields: licenceFields });
    // The passport is found by the hash of the number the subject's entry carries.
    expect(byId.get(ids.passport)).toMatchObject({
      passportNumber: passport,
      fields: passportFields,
    });

    // A rotation re-seals every document; nothing is left on the old key.
    const rotated = await admin.post('/api/keys/rotate', {});
    expect(rotated.statusCode, rotated.body).toBe(202);
    const running = (await admin.get('/api/keys/status')).json<KeyStatus>();
    expect(running.leftOnOldVersions.rows).toMatchObject({
      identity_documents: 1,
      drivers_licences: 1,
      passports: 1,
    });
    await jobs();
    const done = (await admin.get('/api/keys/status')).json<KeyStatus>();
    expect(done).toMatchObject({
      activeVersion: 2,
      rotationInProgress: false,
      leftOnOldVersions: { rows: {}, objects: 0 },
    });
    const resealed = await stored('passports', 'passport_number', ids.passport);
    expect(resealed.number).toMatch(/^sv1\.2\./);
    expect(resealed.fields).toMatch(/^sv1\.2\./);
    // The hash stays (the index key is not the data key).
    expect(resealed.hash).toBe(sealed.passport.hash);
    const afterRotation = await admin.get(`/api/entry-logs/${entry.json<{ id: string }>().id}`);
    expect(
      afterRotation
        .json<{ documents: { citedAs: string; fields: Record<string, unknown> }[] }>()
        .documents.find((document) => document.citedAs === 'passportRecord')?.fields,
    ).toEqual(passportFields);
  });

  it('lets the erase-only documents take their sealed form and nothing else (migration 0097)', async () => {
    const admin = await t.registerTenant();
    const [row] = await t.ownerQuery<{ id: string }>(
      `insert into passports (tenant_id, id, passport_number, fields)
       values ($1, gen_random_uuid(), 'D1234567', '{"passportNumber":"D1234567"}') returning id`,
      [admin.body.tenant.id],
    );
    const set = (assignment: string) =>
      t.ownerQuery(`update passports set ${assignment} where id = $1`, [row!.id]);
    const refused = /may only be erased/;
    await expect(set(`fields = '{"passportNumber":"X"}'`)).rejects.toThrow(refused);
    await expect(set(`passport_number = 'D7654321'`)).rejects.toThrow(refused);
    await set(`fields = 'sv1.1.aaaa.bbbb.cccc'`);
    await set(`passport_number = 'sv1.1.aaaa.bbbb.cccc', passport_number_hash = 'hash-1'`);
    await expect(set(`passport_number_hash = 'hash-2'`)).rejects.toThrow(refused);
    await expect(set(`fields = '{}'`)).rejects.toThrow(refused);
    await expect(set(`fields = 'sv1.1.dddd.eeee.ffff'`)).rejects.toThrow(refused);
    await set(`fields = 'sv1.2.dddd.eeee.ffff'`);
    await set(`fields = null, passport_number = null, passport_number_hash = null`);
  });
});
