import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ENTRY_EXPORT_COLUMNS } from '@boomgate/contracts/exports';
import type { ReportSummary } from '@boomgate/contracts/reports';

import { type TestApp, createTestApp } from '@/testing/test-app';

describe('reports summary', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  type EntrySpec = {
    at: string;
    plate: string;
    granted?: boolean;
    approved?: boolean;
    face?: boolean;
    reason?: string | null;
    extracted?: string | null;
    gate?: boolean;
  };

  /** The tenant's default site and gate. */
  async function placeOf(tenantId: string) {
    const [row] = await t.ownerQuery<{ site_id: string; gate_id: string }>(
      `select s.id as site_id, g.id as gate_id from sites s join gates g
         on g.tenant_id = s.tenant_id and g.site_id = s.id
       where s.tenant_id = $1 and s.is_default`,
      [tenantId],
    );
    return row!;
  }

  /** An entry written straight into the table (as the owner) at an exact instant. */
  async function entry(tenantId: string, spec: EntrySpec): Promise<string> {
    const place = await placeOf(tenantId);
    const [row] = await t.ownerQuery<{ id: string }>(
      `insert into entry_logs (tenant_id, id, timestamp, category, plate_number, extracted_plate,
         vehicle_approved, face_verified, entry_granted, refusal_reason, transport_name, site_id, gate_id)
       values ($1, gen_random_uuid(), $2, 'visitor', $3, $4, $5, $6, $7, $8, 'Kumba', $9, $10)
       returning id`,
      [
        tenantId,
        spec.at,
        spec.plate,
        spec.extracted ?? null,
        spec.approved ?? false,
        spec.face ?? false,
        spec.granted ?? true,
        spec.reason ?? null,
        place.site_id,
        spec.gate === false ? null : place.gate_id,
      ],
    );
    return row!.id;
  }

  async function visit(
    tenantId: string,
    v: { entryId?: string; company: string; enteredAt: string; exitedAt?: string },
  ) {
    const place = await placeOf(tenantId);
    await t.ownerQuery(
      `insert into visits (tenant_id, id, kind, site_id, gate_id, entry_log_id, company, entered_at, exited_at)
       values ($1, gen_random_uuid(), $2, $3, $4, $5, $6, $7, $8)`,
      [
        tenantId,
        v.entryId ? 'vehicle' : 'person',
        place.site_id,
        place.gate_id,
        v.entryId ?? null,
        v.company,
        v.enteredAt,
        v.exitedAt ?? null,
      ],
    );
  }

  /**
   * The hand-computed data set (SAST = UTC+2): 23:30 SAST on 9 March is 9 March; 00:10 SAST on
   * 10 March is 10 March; 00:00 SAST on 11 March is not.
   */
  async function seed(tenantId: string) {
    const e1 = await entry(tenantId, {
      at: '2026-03-09T21:30:00Z',
      plate: 'E1',
      approved: true,
      face: true,
    });
    await entry(tenantId, {
      at: '2026-03-09T22:10:00Z',
      plate: 'CA100002',
      extracted: 'CA1OOOO2',
      granted: false,
      reason: 'guard_refused',
    });
    const e3 = await entry(tenantId, {
      at: '2026-03-10T06:15:00Z',
      plate: 'E3',
      approved: true,
      gate: false,
    });
    const e4 = await entry(tenantId, {
      at: '2026-03-10T06:45:00Z',
      plate: 'E4',
      granted: false,
      reason: 'not_approved',
    });
    const e5 = await entry(tenantId, {
      at: '2026-03-10T21:30:00Z',
      plate: 'E5',
      approved: true,
      face: true,
    });
    await entry(tenantId, { at: '2026-03-10T22:00:00Z', plate: 'E6' });
    await visit(tenantId, {
      entryId: e1,
      company: 'Kumba',
      enteredAt: '2026-03-09T21:30:00Z',
      exitedAt: '2026-03-10T07:30:00Z',
    });
    await visit(tenantId, {
      entryId: e3,
      company: 'Kumba',
      enteredAt: '2026-03-10T06:15:00Z',
      exitedAt: '2026-03-10T07:45:00Z',
    });
    await visit(tenantId, { entryId: e5, company: 'Bakwena', enteredAt: '2026-03-10T21:30:00Z' });
    await visit(tenantId, {
      company: 'Acme',
      enteredAt: '2026-03-10T08:00:00Z',
      exitedAt: '2026-03-10T08:30:00Z',
    });
    return { e4 };
  }

  it('computes one SAST day from the hourly counts, matching the hand-computed figures', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    await seed(tenantId);
    // Another organization's entries at the same instants never count.
    const other = await t.registerTenant();
    await seed(other.body.tenant.id);

    const response = await admin.get('/api/reports/summary?from=2026-03-10&to=2026-03-10');
    expect(response.statusCode, response.body).toBe(200);
    const report = response.json<ReportSummary>();
    expect(report.timeZone).toBe('Africa/Johannesburg');
    expect(report.totals).toEqual({
      entries: 4,
      granted: 2,
      refused: 2,
      approved: 2,
      faceVerified: 1,
      corrected: 1,
      arrivals: 3,
      departures: 3,
    });
    expect(report.rates).toEqual({ approval: 0.5, faceVerification: 0.25, manualCorrection: 0.25 });
    expect(report.days).toEqual([
      { day: '2026-03-10', entries: 4, granted: 2, refused: 2, arrivals: 3, departures: 3 },
    ]);
    const hour = (h: number) => report.hours[h];
    expect(hour(0)).toMatchObject({ entries: 1, refused: 1 });
    expect(hour(8)).toMatchObject({ entries: 2, granted: 1, refused: 1, arrivals: 1 });
    expect(hour(9)).toMatchObject({ entries: 0, departures: 2 });
    expect(hour(10)).toMatchObject({ arrivals: 1, departures: 1 });
    expect(hour(23)).toMatchObject({ entries: 1, arrivals: 1 });
    expect(report.hours.reduce((sum, h) => sum + h.entries, 0)).toBe(4);
    // E1's visit (entered 23:30 on the 9th) is on site from midnight; E3's joins it at 08:15.
    expect(report.onSite.map((point) => point.count)).toEqual([
      1, 1, 1, 1, 1, 1, 1, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
    ]);
    expect(report.refusalReasons).toEqual([
      { reason: 'guard_refused', count: 1 },
      { reason: 'not_approved', count: 1 },
    ]);
    expect(report.busiestGates).toEqual([
      { gateId: expect.any(String), gateName: 'Main gate', entries: 3 },
      { gateId: null, gateName: null, entries: 1 },
    ]);
    // Closed visits begun on the 10th: 90 and 30 minutes (E1's began on the 9th).
    expect(report.turnaround).toEqual({
      visits: 2,
      medianMinutes: 60,
      p90Minutes: 84,
      // 30 minutes is in the 30–60 band (its lower edge), 90 in the 60–120 band.
      distribution: [
        { fromMinutes: 0, toMinutes: 30, visits: 0 },
        { fromMinutes: 30, toMinutes: 60, visits: 1 },
        { fromMinutes: 60, toMinutes: 120, visits: 1 },
        { fromMinutes: 120, toMinutes: 240, visits: 0 },
        { fromMinutes: 240, toMinutes: 480, visits: 0 },
        { fromMinutes: 480, toMinutes: null, visits: 0 },
      ],
      byTransporter: [
        { transporter: 'Acme', visits: 1, medianMinutes: 30, p90Minutes: 30 },
        { transporter: 'Kumba', visits: 1, medianMinutes: 90, p90Minutes: 90 },
      ],
    });

    const twoDays = (
      await admin.get('/api/reports/summary?from=2026-03-09&to=2026-03-10')
    ).json<ReportSummary>();
    expect(twoDays.days.map((day) => [day.day, day.entries, day.arrivals])).toEqual([
      ['2026-03-09', 1, 1],
      ['2026-03-10', 4, 3],
    ]);
    expect(twoDays.turnaround.visits).toBe(3);
    // E1's visit (23:30 on the 9th to 09:30 on the 10th, 600 minutes) is in the last band.
    expect(twoDays.turnaround.distribution.map((band) => band.visits)).toEqual([0, 1, 1, 0, 0, 1]);
  });

  it('keeps the counts when entries are deleted and visits close (the triggers)', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const { e4 } = await seed(tenantId);
    await t.ownerQuery('delete from entry_logs where tenant_id = $1 and id = $2', [tenantId, e4]);
    await t.ownerQuery(
      `update visits set exited_at = '2026-03-10T21:50:00Z' where tenant_id = $1 and exited_at is null`,
      [tenantId],
    );
    const report = (
      await admin.get('/api/reports/summary?from=2026-03-10&to=2026-03-10')
    ).json<ReportSummary>();
    expect(report.totals).toMatchObject({ entries: 3, refused: 1, departures: 4 });
    expect(report.refusalReasons).toEqual([{ reason: 'guard_refused', count: 1 }]);
    expect(report.onSite.at(-1)).toEqual({ hour: 23, count: 0 });
    expect(report.turnaround.byTransporter.map((row) => row.transporter)).toEqual([
      'Acme',
      'Bakwena',
      'Kumba',
    ]);
  });

  /** A granted (or refused) entry citing a weighbridge ticket and, optionally, a licence disc. */
  async function load(
    tenantId: string,
    spec: {
      at: string;
      transport: string | null;
      ticket: { net: number | null; gross: number | null; transporter?: string };
      gvm?: string;
      trailers?: string[];
      granted?: boolean;
    },
  ): Promise<string> {
    const place = await placeOf(tenantId);
    const [ticket] = await t.ownerQuery<{ id: string }>(
      `insert into weighbridge_tickets (tenant_id, id, fields, net_weight_kg, gross_weight_kg)
       values ($1, gen_random_uuid(), $2, $3, $4) returning id`,
      [
        tenantId,
        JSON.stringify(spec.ticket.transporter ? { transporter: spec.ticket.transporter } : {}),
        spec.ticket.net,
        spec.ticket.gross,
      ],
    );
    let discId: string | null = null;
    if (spec.gvm !== undefined) {
      const [disc] = await t.ownerQuery<{ id: string }>(
        `insert into licence_discs (tenant_id, id, fields) values ($1, gen_random_uuid(), $2) returning id`,
        [tenantId, JSON.stringify({ gvm: spec.gvm })],
      );
      discId = disc!.id;
    }
    const [row] = await t.ownerQuery<{ id: string }>(
      `insert into entry_logs (tenant_id, id, timestamp, plate_number, vehicle_approved, face_verified,
         entry_granted, transport_name, weighbridge_ticket_id, vehicle_licence_disc_id, trailer_plates,
         site_id, gate_id)
       values ($1, gen_random_uuid(), $2, 'W1', true, true, $3, $4, $5, $6, $7, $8, $9) returning id`,
      [
        tenantId,
        spec.at,
        spec.granted ?? true,
        spec.transport,
        ticket!.id,
        discId,
        spec.trailers ?? [],
        place.site_id,
        place.gate_id,
      ],
    );
    return row!.id;
  }

  it('sums net mass and the overload rate per transporter from the weighbridge counts', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    // 10 March SAST: Kumba carries 30 t over a 40 t GVM (overloaded), 20 t at exactly the GVM (not
    // overloaded) and an unweighed load; Bakwena's rig (named on its ticket) is weighed, not checked.
    const overloaded = await load(tenantId, {
      at: '2026-03-10T06:00:00Z',
      transport: 'Kumba',
      ticket: { net: 30_000, gross: 45_000 },
      gvm: '40 000',
    });
    await load(tenantId, {
      at: '2026-03-10T07:00:00Z',
      transport: 'Kumba',
      ticket: { net: 20_000, gross: 40_000 },
      gvm: '40000 kg',
    });
    await load(tenantId, {
      at: '2026-03-10T08:00:00Z',
      transport: 'Kumba',
      ticket: { net: null, gross: null },
    });
    await load(tenantId, {
      at: '2026-03-09T22:30:00Z',
      transport: null,
      ticket: { net: 25_000, gross: 56_000, transporter: 'Bakwena' },
      gvm: '25000',
      trailers: ['TR1GP'],
    });
    // Not loads of the 10th: a refusal, and 00:30 SAST on the 11th.
    await load(tenantId, {
      at: '2026-03-10T09:00:00Z',
      transport: 'Kumba',
      ticket: { net: 1_000, gross: 99_000 },
      gvm: '1000',
      granted: false,
    });
    await load(tenantId, {
      at: '2026-03-10T22:30:00Z',
      transport: 'Kumba',
      ticket: { net: 1_000, gross: 99_000 },
      gvm: '1000',
    });
    const other = await t.registerTenant();
    await load(other.body.tenant.id, {
      at: '2026-03-10T06:00:00Z',
      transport: 'Kumba',
      ticket: { net: 7, gross: 99_000 },
      gvm: '1000',
    });

    const summary = async () =>
      (await admin.get('/api/reports/summary?from=2026-03-10&to=2026-03-10')).json<ReportSummary>()
        .weighbridge;

    expect(await summary()).toEqual({
      loads: 4,
      weighed: 3,
      netMassKg: 75_000,
      overloadChecked: 2,
      overloaded: 1,
      overloadRate: 0.5,
      byTransporter: [
        {
          transporter: 'Kumba',
          loads: 3,
          weighed: 2,
          netMassKg: 50_000,
          overloadChecked: 2,
          overloaded: 1,
          overloadRate: 0.5,
        },
        {
          transporter: 'Bakwena',
          loads: 1,
          weighed: 1,
          netMassKg: 25_000,
          overloadChecked: 0,
          overloaded: 0,
          overloadRate: null,
        },
      ],
    });

    // Deleting a load takes it out of its transporter's counts.
    await t.ownerQuery('delete from entry_logs where tenant_id = $1 and id = $2', [
      tenantId,
      overloaded,
    ]);
    const after = await summary();
    expect(after).toMatchObject({ loads: 3, netMassKg: 45_000, overloadChecked: 1, overloaded: 0 });
    expect(after.byTransporter.map((row) => [row.transporter, row.loads, row.netMassKg])).toEqual([
      ['Kumba', 2, 20_000],
      ['Bakwena', 1, 25_000],
    ]);

    // Erasing the entries' personal data and images later (retention) never shifts them.
    await t.ownerQuery(
      `update entry_logs set plate_image_key = null, driver_name = null where tenant_id = $1`,
      [tenantId],
    );
    expect(await summary()).toEqual(after);
  });

  it('answers absurd ranges 400, guards 403 and another tenant’s site 404', async () => {
    const admin = await t.registerTenant();
    for (const query of [
      'from=2026-06-02&to=2026-06-01',
      'from=2026-02-30&to=2026-03-01',
      'from=1900-01-01&to=1900-01-02',
      'from=2026-01-01&to=9999-12-31',
      'from=2025-01-01&to=2026-01-02',
      'from=2026-06-01',
      'from=yesterday&to=today',
      'from=2026-06-01&to=2026-06-01&siteId=nope',
    ]) {
      const response = await admin.get(`/api/reports/summary?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toMatchObject({ error: { code: 'INVALID' } });
    }
    const other = await t.registerTenant();
    const theirSite = await placeOf(other.body.tenant.id);
    const hidden = await admin.get(
      `/api/reports/summary?from=2026-06-01&to=2026-06-01&siteId=${theirSite.site_id}`,
    );
    expect(hidden.statusCode).toBe(404);
    const guard = await t.createSignedInUser(admin, 'security_guard');
    expect((await guard.get('/api/reports/summary?from=2026-06-01&to=2026-06-01')).statusCode).toBe(
      403,
    );
    const office = await t.createSignedInUser(admin, 'back_office');
    expect(
      (await office.get('/api/reports/summary?from=2026-06-01&to=2026-06-01')).statusCode,
    ).toBe(200);
  });

  it('exports the gate, exit time and turnaround of each entry', async () => {
    const admin = await t.registerTenant();
    await seed(admin.body.tenant.id);
    const csv = await admin.get('/api/exports/entry-logs?from=2026-03-10&to=2026-03-10');
    const rows: string[][] = parse(csv.body, { bom: true });
    const column = (name: (typeof ENTRY_EXPORT_COLUMNS)[number]) =>
      ENTRY_EXPORT_COLUMNS.indexOf(name);
    const byPlate = new Map(rows.slice(1).map((row) => [row[column('Plate')], row]));
    expect(byPlate.get('E3')?.[column('Gate')]).toBe('');
    expect(byPlate.get('E3')?.[column('Exit Time')]).toBe('2026-03-10T09:45:00+02:00');
    expect(byPlate.get('E3')?.[column('Turnaround Minutes')]).toBe('90');
    expect(byPlate.get('E4')?.[column('Gate')]).toBe('Main gate');
    expect(byPlate.get('E4')?.[column('Exit Time')]).toBe('');
    expect(byPlate.get('E5')?.[column('Turnaround Minutes')]).toBe('');
  });
});
