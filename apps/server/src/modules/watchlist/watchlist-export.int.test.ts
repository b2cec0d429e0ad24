import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { EXPORT_ROW_COUNT_HEADER, WATCHLIST_HIT_EXPORT_COLUMNS } from '@boomgate/contracts/exports';

import { type TestApp, createTestApp } from '@/testing/test-app';

describe('GET /api/exports/watchlist-hits (issue 23)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const col = (name: (typeof WATCHLIST_HIT_EXPORT_COLUMNS)[number]) =>
    WATCHLIST_HIT_EXPORT_COLUMNS.indexOf(name);
  /** The test clock's day in SAST, as the export's range names it. */
  const today = () =>
    t.clock.now().toLocaleDateString('en-CA', { timeZone: 'Africa/Johannesburg' });

  it('exports the hits of the day, ID numbers masked, for the entry’s site, never another tenant’s', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    await admin.post('/api/watchlist', {
      kind: 'plate',
      value: 'HIT001GP',
      reason: '=Reported stolen',
      severity: 'block',
    });
    await admin.post('/api/watchlist', {
      kind: 'idNumber',
      value: '8001015009087',
      reason: 'Under investigation',
      severity: 'alert',
      covert: true,
    });
    const guard = await t.createSignedInUser(admin, 'security_guard');
    const gate = await guard.post('/api/auto-gate/grant-entry', {
      category: 'visitor',
      entryGranted: true,
      plateNumber: 'HIT001GP',
      driverIdNumber: '8001015009087',
    });
    expect(gate.statusCode, gate.body).toBe(201);
    const entryId = gate.json<{ id: string }>().id;
    // Another organization's hit on the same day never shows.
    const other = await t.registerTenant();
    await other.post('/api/watchlist', {
      kind: 'plate',
      value: 'HIT001GP',
      reason: 'Theirs',
      severity: 'block',
    });
    await other.post('/api/auto-gate/grant-entry', {
      category: 'visitor',
      entryGranted: true,
      plateNumber: 'HIT001GP',
    });

    const day = today();
    const csv = await admin.get(`/api/exports/watchlist-hits?format=csv&from=${day}&to=${day}`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers[EXPORT_ROW_COUNT_HEADER]).toBe('2');
    const rows: string[][] = parse(csv.body, { bom: true });
    expect(rows[0]).toEqual([...WATCHLIST_HIT_EXPORT_COLUMNS]);
    const byKind = new Map(rows.slice(1).map((row) => [row[col('Kind')], row]));
    const plate = byKind.get('Plate');
    expect(plate?.[col('Value')]).toBe('HIT001GP');
    expect(plate?.[col('Reason')]).toBe(`'=Reported stolen`);
    expect(plate?.[col('Severity')]).toBe('block');
    expect(plate?.[col('Decision')]).toBe('refused');
    expect(plate?.[col('Where')]).toBe('Gate');
    expect(plate?.[col('Entry ID')]).toBe(entryId);
    const id = byKind.get('Driver ID number');
    expect(id?.[col('Value')]).not.toContain('8001015009087');
    expect(id?.[col('Covert')]).toBe('Yes');

    // The hit carries the entry's site: that site's export has it, another site's does not.
    const [site] = await t.ownerQuery<{ id: string }>(
      'select id from sites where tenant_id = $1 and is_default',
      [tenantId],
    );
    const ofSite = await admin.get(
      `/api/exports/watchlist-hits?format=xlsx&from=${day}&to=${day}&siteId=${site!.id}`,
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(ofSite.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets[0]!.rowCount).toBe(3);
    const elsewhere = await admin.get(
      `/api/exports/watchlist-hits?from=${day}&to=${day}&siteId=00000000-0000-4000-8000-000000000001`,
    );
    expect(elsewhere.headers[EXPORT_ROW_COUNT_HEADER]).toBe('0');

    const audits = await t.ownerQuery<{ details: Record<string, unknown> }>(
      `select details from audit_events where tenant_id = $1 and action = 'watchlist-hits.exported'
       order by occurred_at`,
      [tenantId],
    );
    expect(audits.map((row) => row.details.rows)).toEqual([2, 2, 0]);
  });

  it('is for the readers of the watchlist, not the gate', async () => {
    const admin = await t.registerTenant();
    const guard = await t.createSignedInUser(admin, 'security_guard');
    const office = await t.createSignedInUser(admin, 'back_office');
    const url = '/api/exports/watchlist-hits?from=2026-03-01&to=2026-03-01';
    expect((await guard.get(url)).statusCode).toBe(403);
    expect((await office.get(url)).statusCode).toBe(200);
  });
});
