import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ENTRY_EXPORT_COLUMNS, EXPORT_ROW_COUNT_HEADER } from '@boomgate/contracts/exports';

import { type TestApp, createTestApp } from '@/testing/test-app';

describe('entry export routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** An entry written straight into the table (as the owner) at an exact instant. */
  async function entryAt(
    tenantId: string,
    at: string,
    plateNumber: string,
    { granted = true, transport = 'Kumba Haulage', siteId = null as string | null } = {},
  ) {
    await t.ownerQuery(
      `insert into entry_logs (tenant_id, id, timestamp, category, plate_number, vehicle_approved,
         face_verified, entry_granted, refusal_reason, driver_name, driver_surname,
         driver_id_number, transport_name, site_id)
       values ($1, gen_random_uuid(), $2, 'visitor', $3, false, false, $4, $5, 'Sipho', 'Nkosi',
         '8001015009087', $6, $7)`,
      [tenantId, at, plateNumber, granted, granted ? null : 'guard_refused', transport, siteId],
    );
  }

  async function sheetRows(body: Buffer): Promise<unknown[][]> {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(body as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    workbook.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return rows;
  }

  it('exports the SAST days asked for as CSV and XLSX, with masked ID numbers', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    await entryAt(tenantId, '2026-03-09T21:59:59Z', 'CA100001'); // 23:59:59 SAST, 9 March
    await entryAt(tenantId, '2026-03-09T22:00:00Z', 'CA100002'); // 00:00 SAST, 10 March
    await entryAt(tenantId, '2026-03-10T21:30:00Z', 'CA100003', { granted: false }); // 23:30
    await entryAt(tenantId, '2026-03-10T22:30:00Z', 'CA100004'); // 00:30 SAST, 11 March
    const query = 'from=2026-03-10&to=2026-03-10';

    const csv = await admin.get(`/api/exports/entry-logs?format=csv&${query}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toContain('entries-2026-03-10-to-2026-03-10.csv');
    expect(csv.headers[EXPORT_ROW_COUNT_HEADER]).toBe('2');
    const rows: string[][] = parse(csv.body, { bom: true });
    expect(rows[0]).toEqual([...ENTRY_EXPORT_COLUMNS]);
    expect(rows.slice(1).map((row) => row[1])).toEqual(['CA100002', 'CA100003']);
    expect(rows[2]?.[0]).toBe('2026-03-10T23:30:00+02:00');
    const column = (name: (typeof ENTRY_EXPORT_COLUMNS)[number]) =>
      ENTRY_EXPORT_COLUMNS.indexOf(name);
    expect(rows[1]?.[column('Timestamp')]).toBe('2026-03-10T00:00:00+02:00');
    expect(rows[1]?.[column('ID Number (masked)')]).toBe('*********9087');
    expect(rows[1]?.[column('Granted')]).toBe('Yes');
    expect(rows[2]?.[column('Granted')]).toBe('No');
    expect(rows[2]?.[column('Refusal Reason')]).toBe('guard_refused');
    expect(csv.body).not.toContain('8001015009087');

    const xlsx = await admin.get(`/api/exports/entry-logs?format=xlsx&${query}`);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const sheet = await sheetRows(xlsx.rawPayload);
    expect(sheet[0]).toEqual([...ENTRY_EXPORT_COLUMNS]);
    expect(sheet.slice(1).map((row) => row[1])).toEqual(['CA100002', 'CA100003']);
    expect(sheet[2]?.[column('Timestamp')]).toBe('2026-03-10T23:30:00+02:00');

    const audited = await t.ownerQuery<{ details: Record<string, unknown> }>(
      "select details from audit_events where tenant_id = $1 and action = 'entry-logs.exported' order by occurred_at",
      [admin.body.tenant.id],
    );
    expect(audited.map((row) => row.details)).toEqual([
      { from: '2026-03-10', to: '2026-03-10', format: 'csv', rows: 2 },
      { from: '2026-03-10', to: '2026-03-10', format: 'xlsx', rows: 2 },
    ]);
  });

  it('streams every row of a range larger than one batch, in order', async () => {
    const admin = await t.registerTenant();
    const start = Date.parse('2026-05-01T08:00:00Z');
    // Straight into the table (as the owner): the batch size is 2,000 rows.
    await t.ownerQuery(
      `insert into entry_logs (tenant_id, id, timestamp, category, plate_number, vehicle_approved,
         face_verified, entry_granted, transport_name)
       select $1, gen_random_uuid(), $2::timestamptz + make_interval(secs => n), 'visitor',
         'BULK' || n, false, false, true, case when n = 1 then '=HYPERLINK("x")' end
       from generate_series(1, 4500) as n`,
      [admin.body.tenant.id, new Date(start).toISOString()],
    );
    const csv = await admin.get('/api/exports/entry-logs?from=2026-05-01&to=2026-05-01');
    const rows: string[][] = parse(csv.body, { bom: true });
    expect(csv.headers[EXPORT_ROW_COUNT_HEADER]).toBe('4500');
    expect(rows).toHaveLength(4501);
    expect(rows[1]?.[1]).toBe('BULK1');
    expect(rows[4500]?.[1]).toBe('BULK4500');
    expect(rows[1]?.[7]).toBe('\'=HYPERLINK("x")');

    const xlsx = await admin.get(
      '/api/exports/entry-logs?format=xlsx&from=2026-05-01&to=2026-05-01',
    );
    const sheet = await sheetRows(xlsx.rawPayload);
    expect(sheet).toHaveLength(4501);
    // A typed string, never a formula, in the workbook.
    expect(sheet[1]?.[7]).toBe('=HYPERLINK("x")');
  });

  it('exports one site when siteId is given', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const other = await admin.post('/api/sites', { name: 'North pit' });
    expect(other.statusCode, other.body).toBe(201);
    const otherSite = other.json<{ id: string }>().id;
    await entryAt(tenantId, '2026-07-01T08:00:00Z', 'MAIN1');
    await entryAt(tenantId, '2026-07-01T09:00:00Z', 'NORTH1', { siteId: otherSite });
    const csv = await admin.get(
      `/api/exports/entry-logs?from=2026-07-01&to=2026-07-01&siteId=${otherSite}`,
    );
    const rows: string[][] = parse(csv.body, { bom: true });
    expect(rows.slice(1).map((row) => row[1])).toEqual(['NORTH1']);
    expect(csv.headers[EXPORT_ROW_COUNT_HEADER]).toBe('1');
  });

  it("shows no other organization's entries and is not for guards", async () => {
    const mine = await t.registerTenant();
    const theirs = await t.registerTenant();
    await entryAt(theirs.body.tenant.id, '2026-06-01T08:00:00Z', 'THEIRS1');
    const csv = await mine.get('/api/exports/entry-logs?from=2026-06-01&to=2026-06-01');
    expect(csv.headers[EXPORT_ROW_COUNT_HEADER]).toBe('0');
    expect(csv.body).not.toContain('THEIRS1');

    const guard = await t.createSignedInUser(mine, 'security_guard');
    const refused = await guard.get('/api/exports/entry-logs?from=2026-06-01&to=2026-06-01');
    expect(refused.statusCode).toBe(403);
  });

  it('answers bad ranges 400 in the error format, and asks for the password after 15 minutes', async () => {
    const admin = await t.registerTenant();
    for (const query of [
      'from=2026-06-02&to=2026-06-01',
      'from=2026-02-30&to=2026-03-01',
      'from=2026-06-01',
      'from=2026-06-01&to=2026-06-01&format=pdf',
      'from=2026-06-01&to=2026-06-01&siteId=nope',
    ]) {
      const response = await admin.get(`/api/exports/entry-logs?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toMatchObject({ error: { code: expect.any(String) } });
    }
    t.clock.advanceMs(16 * 60_000);
    const stale = await admin.get('/api/exports/entry-logs?from=2026-06-01&to=2026-06-01');
    expect(stale.statusCode).toBe(401);
    expect(stale.json().error.code).toBe('REAUTH_REQUIRED');
  });
});
