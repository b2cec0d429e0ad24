import { passesLuhn } from '@boomgate/contracts/sa-id-number';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runDueJobsOnce } from '@/platform/jobs';
import { type TestApp, createTestApp } from '@/testing/test-app';

/**
 * Issue 26's catalog-driven check: every text-like column of every table (the app's and the job
 * queue's) is searched for plaintext ID numbers (checksum-valid 13-digit runs) and MRZ-shaped
 * passport lines. Tables whose ID numbers are not sealed yet are named here, so the list can only
 * shrink: a new table or column holding a plain number fails the test.
 */
const NOT_YET_SEALED = new Set([
  'public.entry_logs.driver_id_number',
  // A watchlist hit's warning message quotes the number ("Driver ID number … is on the watchlist").
  'public.entry_logs.warnings',
  'public.identity_documents.identity_number',
  'public.identity_documents.fields',
  'public.drivers_licences.id_number',
  'public.drivers_licences.fields',
  'public.passports.passport_number',
  'public.passports.fields',
  'public.visits.person_id_number',
  'public.induction_assignments.driver_id_number',
  'public.incoming_requests.driver_id_number',
]);

const THIRTEEN_DIGITS = /(?<!\d)\d{13}(?!\d)/g;
/** Line 2 of a passport's MRZ: number, check digit, nationality, birth date, sex, expiry. */
const MRZ_LINE = /[A-Z0-9<]{9}\d[A-Z<]{3}\d{6}\d[MF<]\d{6}\d/;

let sequence = 100;
function saId(yymmdd = '850505'): string {
  const twelve = `${yymmdd}${String(sequence++).padStart(4, '0')}08`;
  const check = [...'0123456789'].find((digit) => passesLuhn(`${twelve}${digit}`)) ?? '0';
  return `${twelve}${check}`;
}

async function plaintextColumns(t: TestApp): Promise<Set<string>> {
  const columns = await t.ownerQuery<{ schema: string; table: string; column: string }>(`
    select c.table_schema as schema, c.table_name as table, c.column_name as column
    from information_schema.columns c
    join information_schema.tables tb
      on tb.table_schema = c.table_schema and tb.table_name = c.table_name
     and tb.table_type = 'BASE TABLE'
    where c.table_schema in ('public', 'graphile_worker', 'graphile_worker_private')
      and (c.data_type in ('text', 'character varying', 'json', 'jsonb', 'ARRAY'))`);
  const found = new Set<string>();
  for (const { schema, table, column } of columns) {
    const rows = await t.ownerQuery<{ value: string }>(
      `select "${column}"::text as value from "${schema}"."${table}"
        where "${column}"::text ~ '[0-9]{13}|[0-9]{6}[0-9][MF<][0-9]{6}'`,
    );
    for (const { value } of rows) {
      const ids = value.match(THIRTEEN_DIGITS) ?? [];
      if (ids.some((run) => passesLuhn(run)) || MRZ_LINE.test(value))
        found.add(`${schema}.${table}.${column}`);
    }
  }
  return found;
}

describe('personal data sealed at rest: the catalog (issue 26)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
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

    const found = await plaintextColumns(t);
    expect([...found].filter((column) => !NOT_YET_SEALED.has(column))).toEqual([]);
    // The search itself works: the entry still keeps its number in the clear (not sealed yet).
    expect(found.has('public.entry_logs.driver_id_number')).toBe(true);

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
    expect(audited).toEqual([
      { details: { objects: 0, rows: { drivers: 2, watchlist_entries: 1 } } },
    ]);
  });
});
