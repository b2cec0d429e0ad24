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
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
};

/** Tables that grow with traffic: a sequential scan on them is a bug on the hot path. */
const LARGE_TABLES = [
  'entry_logs',
  'entry_log_daily_counts',
  'approved_vehicles',
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
      tenantId = (await seedScaleData(owner, plan)).tenantIds[0] ?? '';
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
          `explain (format json) ${query}`,
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
  }

  it('dashboard: counts from the per-day counters, recent entries and vehicles by index', async () => {
    const [counts] = await plansOf('/api/dashboard', 'entry_log_daily_counts');
    expectIndexed(counts ?? [], 'entry_log_daily_counts_tenant_id_day_pk');
    const [recent] = await plansOf('/api/dashboard', 'entry_logs');
    expectIndexed(recent ?? [], 'entry_logs_tenant_timestamp_idx', { ordered: true });
    const [vehicles] = await plansOf('/api/dashboard', 'approved_vehicles');
    expectIndexed(vehicles ?? [], 'approved_vehicles_tenant_active_idx');
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

  it('truck list and incoming feed read the newest rows by index', async () => {
    for (const nodes of await plansOf('/api/truck-list', 'truck_list_entries'))
      expectIndexed(nodes, 'truck_list_entries_tenant_timestamp_idx', { ordered: true });
    for (const nodes of await plansOf('/api/webhook/pending-requests', 'incoming_requests'))
      expectIndexed(nodes, 'incoming_requests_tenant_timestamp_idx', { ordered: true });
  });

  it('plate lookup and verification use the unique plate index', async () => {
    for (const url of [`/api/approved-vehicles/plate/${plate}`, `/api/verify-vehicle/${plate}`])
      for (const nodes of await plansOf(url, 'approved_vehicles'))
        expectIndexed(nodes, 'approved_vehicles_one_per_plate');
  });
});
