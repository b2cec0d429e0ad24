import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  EXPORT_ROW_COUNT_HEADER,
  REFUSAL_EXPORT_COLUMNS,
  WEIGHBRIDGE_TICKET_EXPORT_COLUMNS,
} from '@boomgate/contracts/exports';

import { type TestApp, createTestApp } from '@/testing/test-app';

describe('refusal and weighbridge ticket exports (issue 23)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  type Spec = {
    at: string;
    plate: string;
    granted?: boolean;
    reason?: string;
    ticket?: { number: string; tare: number; gross: number; net: number };
    gvm?: string;
    trailers?: string[];
    transport?: string;
    siteId?: string | null;
  };

  async function entry(tenantId: string, spec: Spec) {
    let ticketId: string | null = null;
    if (spec.ticket) {
      const [row] = await t.ownerQuery<{ id: string }>(
        `insert into weighbridge_tickets (tenant_id, id, fields, ticket_number, vehicle_reg,
           tare_weight_kg, gross_weight_kg, net_weight_kg, weights_consistent)
         values ($1, gen_random_uuid(), '{"transporter":"From Ticket"}', $2, $3, $4, $5, $6, true)
         returning id`,
        [
          tenantId,
          spec.ticket.number,
          spec.plate,
          spec.ticket.tare,
          spec.ticket.gross,
          spec.ticket.net,
        ],
      );
      ticketId = row!.id;
    }
    let discId: string | null = null;
    if (spec.gvm) {
      const [row] = await t.ownerQuery<{ id: string }>(
        `insert into licence_discs (tenant_id, id, fields) values ($1, gen_random_uuid(), $2) returning id`,
        [tenantId, JSON.stringify({ gvm: spec.gvm })],
      );
      discId = row!.id;
    }
    await t.ownerQuery(
      `insert into entry_logs (tenant_id, id, timestamp, plate_number, vehicle_approved, face_verified,
         entry_granted, refusal_reason, driver_name, driver_id_number, transport_name,
         weighbridge_ticket_id, vehicle_licence_disc_id, trailer_plates, site_id)
       values ($1, gen_random_uuid(), $2, $3, false, false, $4, $5, '=HYPERLINK("x")',
         '8001015009087', $6, $7, $8, $9, $10)`,
      [
        tenantId,
        spec.at,
        spec.plate,
        spec.granted ?? true,
        spec.granted === false ? (spec.reason ?? 'guard_refused') : null,
        spec.transport ?? null,
        ticketId,
        discId,
        spec.trailers ?? [],
        spec.siteId ?? null,
      ],
    );
  }

  async function sheetRows(body: Buffer): Promise<unknown[][]> {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(body as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    workbook.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return rows;
  }

  const auditOf = (tenantId: string, action: string) =>
    t.ownerQuery<{ details: Record<string, unknown> }>(
      'select details from audit_events where tenant_id = $1 and action = $2',
      [tenantId, action],
    );

  it('exports the refusals of the SAST days asked for, reasons and masked IDs included', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    await entry(tenantId, { at: '2026-03-09T21:30:00Z', plate: 'R1', granted: false }); // 23:30 SAST on the 9th
    await entry(tenantId, {
      at: '2026-03-09T22:00:00Z',
      plate: 'R2',
      granted: false,
      reason: 'watchlist',
    });
    await entry(tenantId, { at: '2026-03-10T08:00:00Z', plate: 'G1' });
    await entry(tenantId, { at: '2026-03-10T22:00:00Z', plate: 'R3', granted: false }); // the 11th
    const other = await t.registerTenant();
    await entry(other.body.tenant.id, { at: '2026-03-10T08:00:00Z', plate: 'X1', granted: false });

    const csv = await admin.get('/api/exports/refusals?format=csv&from=2026-03-10&to=2026-03-10');
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-disposition']).toContain('refusals-2026-03-10-to-2026-03-10.csv');
    expect(csv.headers[EXPORT_ROW_COUNT_HEADER]).toBe('1');
    const rows: string[][] = parse(csv.body, { bom: true });
    const col = (name: (typeof REFUSAL_EXPORT_COLUMNS)[number]) =>
      REFUSAL_EXPORT_COLUMNS.indexOf(name);
    expect(rows[0]).toEqual([...REFUSAL_EXPORT_COLUMNS]);
    expect(rows.slice(1).map((row) => row[col('Plate')])).toEqual(['R2']);
    expect(rows[1]?.[col('Timestamp')]).toBe('2026-03-10T00:00:00+02:00');
    expect(rows[1]?.[col('Refusal Reason')]).toBe('watchlist');
    expect(rows[1]?.[col('ID Number (masked)')]).not.toContain('8001015009087');
    // Formula injection: the driver's "name" is text, not a formula.
    expect(rows[1]?.[col('Driver Name')]).toBe(`'=HYPERLINK("x")`);

    const twoDays = await admin.get(
      '/api/exports/refusals?format=xlsx&from=2026-03-09&to=2026-03-10',
    );
    expect(twoDays.headers['content-type']).toContain('spreadsheetml');
    const sheet = await sheetRows(twoDays.rawPayload);
    expect(sheet.slice(1).map((row) => row[col('Plate')])).toEqual(['R1', 'R2']);
    expect(await auditOf(tenantId, 'refusals.exported')).toEqual([
      { details: { from: '2026-03-10', to: '2026-03-10', format: 'csv', rows: 1 } },
      { details: { from: '2026-03-09', to: '2026-03-10', format: 'xlsx', rows: 2 } },
    ]);
  });

  it('exports the entries with a weighbridge ticket, their weights and the overload check', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    await entry(tenantId, {
      at: '2026-03-10T06:00:00Z',
      plate: 'W1',
      transport: 'Kumba',
      ticket: { number: 'T-1', tare: 15_000, gross: 45_000, net: 30_000 },
      gvm: '40 000',
    });
    await entry(tenantId, {
      at: '2026-03-10T07:00:00Z',
      plate: 'W2',
      ticket: { number: 'T-2', tare: 20_000, gross: 40_000, net: 20_000 },
      gvm: '40000',
    });
    await entry(tenantId, {
      at: '2026-03-10T08:00:00Z',
      plate: 'W3',
      transport: 'Bakwena',
      ticket: { number: 'T-3', tare: 16_000, gross: 56_000, net: 40_000 },
      gvm: '25000',
      trailers: ['TR1GP'],
      granted: false,
    });
    await entry(tenantId, { at: '2026-03-10T09:00:00Z', plate: 'NOTICKET' });

    const xlsx = await admin.get(
      '/api/exports/weighbridge-tickets?format=xlsx&from=2026-03-10&to=2026-03-10',
    );
    expect(xlsx.statusCode, xlsx.body).toBe(200);
    expect(xlsx.headers[EXPORT_ROW_COUNT_HEADER]).toBe('3');
    const sheet = await sheetRows(xlsx.rawPayload);
    expect(sheet[0]).toEqual([...WEIGHBRIDGE_TICKET_EXPORT_COLUMNS]);
    const col = (name: (typeof WEIGHBRIDGE_TICKET_EXPORT_COLUMNS)[number]) =>
      WEIGHBRIDGE_TICKET_EXPORT_COLUMNS.indexOf(name);
    const pick = (
      row: unknown[] | undefined,
      names: (typeof WEIGHBRIDGE_TICKET_EXPORT_COLUMNS)[number][],
    ) => names.map((name) => row?.[col(name)] ?? null);
    const names = [
      'Plate',
      'Transport',
      'Ticket Number',
      'Net Weight (kg)',
      'GVM (kg)',
      'Overloaded',
      'Granted',
    ] as const;
    expect(pick(sheet[1], [...names])).toEqual([
      'W1',
      'Kumba',
      'T-1',
      30_000,
      40_000,
      'Yes',
      'Yes',
    ]);
    // Exactly at the GVM is not over it; the transporter comes from the ticket when the entry has none.
    expect(pick(sheet[2], [...names])).toEqual([
      'W2',
      'From Ticket',
      'T-2',
      20_000,
      40_000,
      'No',
      'Yes',
    ]);
    // A rig is not checked against the truck-tractor's GVM.
    expect(pick(sheet[3], [...names])).toEqual([
      'W3',
      'Bakwena',
      'T-3',
      40_000,
      25_000,
      null,
      'No',
    ]);

    const csv = await admin.get(
      '/api/exports/weighbridge-tickets?format=csv&from=2026-03-10&to=2026-03-10',
    );
    const rows: string[][] = parse(csv.body, { bom: true });
    expect(rows.slice(1).map((row) => row[col('Weights Consistent')])).toEqual([
      'Yes',
      'Yes',
      'Yes',
    ]);
    expect(await auditOf(tenantId, 'weighbridge-tickets.exported')).toHaveLength(2);
  });

  it('answers bad ranges 400 and guards 403', async () => {
    const admin = await t.registerTenant();
    for (const url of [
      '/api/exports/refusals?from=2026-03-02&to=2026-03-01',
      '/api/exports/weighbridge-tickets?from=2026-02-30&to=2026-03-01',
      '/api/exports/refusals?from=2026-03-01&to=2026-03-01&format=pdf',
    ]) {
      const response = await admin.get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toMatchObject({ error: { code: 'INVALID' } });
    }
    const guard = await t.createSignedInUser(admin, 'security_guard');
    for (const path of ['refusals', 'weighbridge-tickets'])
      expect(
        (await guard.get(`/api/exports/${path}?from=2026-03-01&to=2026-03-01`)).statusCode,
      ).toBe(403);
  });
});
