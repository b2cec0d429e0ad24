import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { hashPassword } from '@/platform/passwords';
import { type TestApp, createTestApp } from '@/testing/test-app';
import { SCALE_PASSWORD, type ScalePlan, scaleUsername, seedScaleData } from '@/testing/scale-data';

/**
 * Issue 9: the hot read routes use indexes. Seeds a planner-relevant volume (one tenant with
 * 30,000 entries among 30 smaller ones, ANALYZEd), calls each route through the app and EXPLAINs
 * every statement the app really sent (captured from Drizzle, with its parameters), under the API
 * role and the tenant's row-level security, exactly as the request ran it.
 */
type PlanNode = {
  'Node Type': string;
  'Parent Relationship'?: string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Recheck Cond'?: string;
  Filter?: string;
  'Join Filter'?: string;
  Output?: string[];
  Plans?: PlanNode[];
};

/** Tables that grow with traffic: a sequential scan on them is a bug on the hot path. */
const LARGE_TABLES = [
  'entry_logs',
  'visits',
  'entry_log_daily_counts',
  'approved_vehicles',
  'approved_vehicle_expiry_counts',
  'truck_list_daily_counts',
  'incoming_request_daily_counts',
  'truck_list_entries',
  'incoming_requests',
  'webhook_deliveries',
];

const flatten = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];

describe('hot queries at scale', () => {
  let t: TestApp;
  let session: Awaited<ReturnType<TestApp['login']>>;
  let tenantId: string;
  let deepCursor: string;
  let plate: string;
  const statements: { query: string; params: unknown[] }[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      queryLogger: { logQuery: (query, params) => statements.push({ query, params }) },
    });
    const plan: ScalePlan = {
      days: 730,
      passwordHash: await hashPassword(SCALE_PASSWORD),
      tenants: [
        {
          number: 1,
          name: 'Plan Large',
          entryLogs: 30_000,
          approvedVehicles: 3_000,
          users: 8,
          truckListEntries: 6_000,
          incomingRequests: 4_000,
          openVisits: 3_000,
        },
        ...Array.from({ length: 30 }, (_, i) => ({
          number: i + 2,
          name: `Plan Small ${i + 2}`,
          entryLogs: 800,
          approvedVehicles: 150,
          users: 2,
          truckListEntries: 200,
          incomingRequests: 60,
        })),
      ],
    };
    const owner = new pg.Client({ connectionString: t.ownerUrl });
    await owner.connect();
    try {
      tenantId =
        (await seedScaleData(owner, plan, { master: t.secrets.encryptionKey })).tenantIds[0] ?? '';
      const [row] = (
        await owner.query<{ timestamp: Date; id: string; plate: string }>(
          `select e."timestamp", e.id, (select plate_number from approved_vehicles
             where tenant_id = $1 order by plate_number offset 1000 limit 1) as plate
           from entry_logs e where e.tenant_id = $1
           order by e."timestamp" desc, e.id desc offset 20000 limit 1`,
          [tenantId],
        )
      ).rows;
      if (!row) throw new Error('no seeded entries');
      deepCursor = Buffer.from(`${row.timestamp.toISOString()}|${row.id}`).toString('base64url');
      plate = row.plate;
    } finally {
      await owner.end();
    }
    session = await t.login(scaleUsername(1, 2), SCALE_PASSWORD);
  }, 90_000);

  afterAll(async () => {
    await t?.close();
  });

  /** Calls the route, then EXPLAINs each statement it sent that touches `table`. */
  async function plansOf(url: string, table: string): Promise<PlanNode[][]> {
    statements.length = 0;
    const response = await session.get(url);
    expect([200, 404]).toContain(response.statusCode);
    const sent = statements.filter((s) => s.query.includes(`"${table}"`));
    expect(sent.length, `${url} sent no statement on ${table}`).toBeGreaterThan(0);
    const client = await t.database.pool.connect();
    try {
      const plans: PlanNode[][] = [];
      for (const { query, params } of sent) {
        await client.query('begin');
        await client.query("select set_config('app.tenant_id', $1, true)", [tenantId]);
        const result = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
          `explain (format json, verbose) ${query}`,
          params,
        );
        await client.query('rollback');
        const root = result.rows[0]?.['QUERY PLAN'][0].Plan;
        if (!root) throw new Error(`no plan for ${query}`);
        plans.push(flatten(root));
      }
      return plans;
    } finally {
      client.release();
    }
  }

  /** `ordered`: the index also yields the order, so no Sort node reads the whole tenant first. */
  function expectIndexed(nodes: PlanNode[], index: string, { ordered = false } = {}) {
    const onLarge = nodes.filter((n) => LARGE_TABLES.includes(n['Relation Name'] ?? ''));
    expect(
      onLarge.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name']),
    ).toEqual([]);
    // A bitmap scan names its index on the child node, so look at every node.
    expect(nodes.map((n) => n['Index Name'])).toContain(index);
    if (ordered) expect(nodes.map((n) => n['Node Type'])).not.toContain('Sort');
    expectTenantReadOnce(nodes);
  }

  /**
   * SEC-09: the row-level security policies compare tenant_id with
   * `(select nullif(current_setting('app.tenant_id', true), '')::uuid)`, which PostgreSQL
   * evaluates once per statement as an InitPlan. Without the `select`, current_setting would be
   * called for every row, and would show up in a scan's filter or index condition.
   */
  function expectTenantReadOnce(nodes: PlanNode[]) {
    const readsTenant = (text: string | undefined) =>
      text?.includes("current_setting('app.tenant_id'") ?? false;
    const perRow = nodes.filter((n) =>
      [n.Filter, n['Index Cond'], n['Recheck Cond'], n['Join Filter']].some(readsTenant),
    );
    expect(perRow.map((n) => `${n['Node Type']} on ${n['Relation Name'] ?? '?'}`)).toEqual([]);
    const initPlans = nodes.filter(
      (n) =>
        n['Parent Relationship'] === 'InitPlan' &&
        flatten(n).some((child) => (child.Output ?? []).some(readsTenant)),
    );
    expect(initPlans.length).toBeGreaterThan(0);
  }

  it('on-site (issue 16): the first page walks the partial index of open visits', async () => {
    const [visits] = await plansOf('/api/on-site', 'visits');
    expectIndexed(visits ?? [], 'visits_open_idx', { ordered: true });
  });

  it('dashboard: counts from the per-day counters, recent entries and vehicles by index', async () => {
    const [counts] = await plansOf('/api/dashboard', 'entry_log_daily_counts');
    expectIndexed(counts ?? [], 'entry_log_daily_counts_tenant_id_day_pk');
    const [recent] = await plansOf('/api/dashboard', 'entry_logs');
    expectIndexed(recent ?? [], 'entry_logs_tenant_timestamp_idx', { ordered: true });
    const [vehicles] = await plansOf('/api/dashboard', 'approved_vehicle_expiry_counts');
    expectIndexed(vehicles ?? [], 'approved_vehicle_expiry_counts_tenant_id_approved_until_pk');
  });

  it("dashboard's registered vehicles equal a direct count, as approvals are added, moved and ended", async () => {
    const expectSameAsDirectCount = async () => {
      const body = (await session.get('/api/dashboard')).json<{ registeredVehicles: number }>();
      const [direct] = await t.ownerQuery<{ n: number }>(
        `select count(*)::int as n from approved_vehicles where tenant_id = $1 and is_active
           and (approved_until is null
                or approved_until >= (now() at time zone 'Africa/Johannesburg')::date)`,
        [tenantId],
      );
      expect(direct?.n).toBeGreaterThan(0);
      expect(body.registeredVehicles).toBe(direct?.n);
    };
    await expectSameAsDirectCount();
    const some = `(select tenant_id, id from approved_vehicles where tenant_id = $1 order by id limit 40)`;
    await t.ownerQuery(
      `update approved_vehicles set approved_until = current_date - 3 where (tenant_id, id) in ${some}`,
      [tenantId],
    );
    await expectSameAsDirectCount();
    await t.ownerQuery(
      `update approved_vehicles set approved_until = null where (tenant_id, id) in ${some}`,
      [tenantId],
    );
    await expectSameAsDirectCount();
    await t.ownerQuery(
      `update approved_vehicles set is_active = false where (tenant_id, id) in
         (select tenant_id, id from approved_vehicles where tenant_id = $1 order by id desc limit 25)`,
      [tenantId],
    );
    await expectSameAsDirectCount();
    await t.ownerQuery(`delete from approved_vehicles where (tenant_id, id) in ${some}`, [
      tenantId,
    ]);
    await expectSameAsDirectCount();
  });

  it('dashboard numbers equal a direct count of the entries, also after deletes', async () => {
    const expectSameAsDirectCount = async () => {
      const body = (await session.get('/api/dashboard')).json<Record<string, number>>();
      const [direct] = await t.ownerQuery<Record<string, number>>(
        `select count(*)::int as "totalEntries",
                count(*) filter (where vehicle_approved)::int as "approvedEntries",
                count(*) filter (where face_verified)::int as "faceVerifiedEntries",
                count(*) filter (where "timestamp" >= date_trunc('day', now() at time zone 'Africa/Johannesburg')
                  at time zone 'Africa/Johannesburg')::int as "todayEntries"
         from entry_logs where tenant_id = $1`,
        [tenantId],
      );
      expect(direct?.totalEntries).toBeGreaterThan(0);
      expect(body).toMatchObject(direct ?? {});
    };
    await expectSameAsDirectCount();
    // The counters follow deletes too (a retention purge, a data-subject erasure of whole entries).
    await t.ownerQuery(
      `delete from entry_logs where (tenant_id, id) in
         (select tenant_id, id from entry_logs where tenant_id = $1 order by "timestamp" limit 150)`,
      [tenantId],
    );
    await expectSameAsDirectCount();
  });

  it('entry-log list: first page and a deep keyset page walk the timestamp index', async () => {
    for (const url of ['/api/entry-logs', `/api/entry-logs?cursor=${deepCursor}`]) {
      const plans = await plansOf(url, 'entry_logs');
      for (const nodes of plans) {
        expectIndexed(nodes, 'entry_logs_tenant_timestamp_idx', { ordered: true });
        // The cursor is part of the index condition, not a filter applied after reading 20,000 rows.
        if (url.includes('cursor')) {
          const scan = nodes.find((n) => n['Index Name'] === 'entry_logs_tenant_timestamp_idx');
          expect(scan?.['Index Cond']).toMatch(/timestamp/);
        }
      }
    }
  });

  it('truck list and incoming feed read a page of the newest rows by index, also deep pages', async () => {
    for (const [url, table, index] of [
      ['/api/truck-list', 'truck_list_entries', 'truck_list_entries_tenant_timestamp_idx'],
      [
        '/api/webhook/pending-requests',
        'incoming_requests',
        'incoming_requests_tenant_timestamp_idx',
      ],
    ] as const) {
      const first = await session.get(url);
      expect(first.json<unknown[]>()).toHaveLength(100);
      const cursor = String(first.headers['x-next-cursor']);
      for (const nodes of await plansOf(url, table)) expectIndexed(nodes, index, { ordered: true });
      for (const nodes of await plansOf(`${url}?cursor=${cursor}`, table)) {
        expectIndexed(nodes, index, { ordered: true });
        expect(nodes.find((n) => n['Index Name'] === index)?.['Index Cond']).toMatch(/timestamp/);
      }
    }
    const [trucks] = await plansOf('/api/truck-list', 'truck_list_daily_counts');
    expectIndexed(trucks ?? [], 'truck_list_daily_counts_tenant_id_day_pk');
    const [feed] = await plansOf('/api/webhook/pending-requests', 'incoming_request_daily_counts');
    expectIndexed(feed ?? [], 'incoming_request_daily_counts_tenant_id_day_pk');
  });

  it("truck list cards equal a direct count of the tenant's reads, after writes of every kind", async () => {
    const expectSameAsDirectCount = async () => {
      const response = await session.get('/api/truck-list');
      const [direct] = await t.ownerQuery<Record<string, number>>(
        `select count(*)::int as total,
                count(*) filter (where btrim(coalesce(truck_number, '')) <> '')::int as orders,
                count(*) filter (where "timestamp" >= date_trunc('day', now() at time zone 'Africa/Johannesburg')
                  at time zone 'Africa/Johannesburg')::int as today
         from truck_list_entries where tenant_id = $1`,
        [tenantId],
      );
      expect(direct?.total).toBeGreaterThan(100);
      expect(response.headers['x-total-count']).toBe(String(direct?.total));
      expect(response.headers['x-with-order-number-count']).toBe(String(direct?.orders));
      expect(response.headers['x-today-count']).toBe(String(direct?.today));
    };
    await expectSameAsDirectCount();
    await t.ownerQuery(
      `insert into truck_list_entries (tenant_id, id, "timestamp", truck_number, plate_number, category)
       select $1, gen_random_uuid(), now() - n * interval '1 minute',
              case n % 3 when 0 then 'TN-' || n when 1 then '   ' end, 'ND' || n || 'GP', 'other'
       from generate_series(1, 30) as n`,
      [tenantId],
    );
    await expectSameAsDirectCount();
    await t.ownerQuery(
      `update truck_list_entries set truck_number = null, "timestamp" = "timestamp" - interval '2 days'
       where (tenant_id, id) in (select tenant_id, id from truck_list_entries
         where tenant_id = $1 order by "timestamp" desc limit 20)`,
      [tenantId],
    );
    await expectSameAsDirectCount();
    await t.ownerQuery(
      `delete from truck_list_entries where (tenant_id, id) in (select tenant_id, id
         from truck_list_entries where tenant_id = $1 order by "timestamp" desc limit 15)`,
      [tenantId],
    );
    await expectSameAsDirectCount();
  });

  it("incoming feed cards equal the rows' own Complete status, whitespace as JavaScript's trim sees it", async () => {
    // Whitespace-only names under String.prototype.trim (tab, no-break space, ideographic space,
    // BOM), and a zero-width space, which trim keeps: that name counts as present.
    const names = ['\t', '\u00a0', '\u3000 ', '\ufeff', '\u200b', 'Thabo'];
    await t.ownerQuery(
      `insert into incoming_requests (tenant_id, id, webhook_id, received_at, "timestamp",
         driver_name, driver_id_number)
       select $1, gen_random_uuid(), 'msg_edge_' || n, now(), now() - n * interval '1 second',
              ($2::text[])[n], '8001015009087'
       from generate_series(1, array_length($2::text[], 1)) as n`,
      [tenantId, names],
    );
    const rows: { status: string }[] = [];
    let cursor: string | undefined;
    let headers: Record<string, unknown> = {};
    do {
      const response = await session.get(
        `/api/webhook/pending-requests?limit=500${cursor ? `&cursor=${cursor}` : ''}`,
      );
      if (!cursor) headers = response.headers;
      rows.push(...response.json<{ status: string }[]>());
      cursor = response.headers['x-next-cursor'] as string | undefined;
    } while (cursor);
    const complete = rows.filter((row) => row.status === 'Complete').length;
    expect(rows.length).toBeGreaterThan(4000);
    expect(rows.length - complete).toBeGreaterThanOrEqual(4);
    expect(headers['x-total-count']).toBe(String(rows.length));
    expect(headers['x-processed-count']).toBe(String(complete));
    expect(headers['x-pending-count']).toBe(String(rows.length - complete));
  });

  it('plate lookup and verification use the unique plate index', async () => {
    for (const url of [`/api/approved-vehicles/plate/${plate}`, `/api/verify-vehicle/${plate}`])
      for (const nodes of await plansOf(url, 'approved_vehicles'))
        expectIndexed(nodes, 'approved_vehicles_one_per_plate');
  });
});
