import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runDueJobsOnce } from '@/platform/jobs';
import { type TestApp, createTestApp } from '@/testing/test-app';

/**
 * Issue 26g: the lookups keys.seal-stored-data asks at every worker start (`*_unsealed_tenants`,
 * `*_unmasked_*tenants`, found in the catalog so a lookup added later is held to the same rule)
 * are answered from partial indexes whose predicate is the lookup's condition, so they cost the
 * same on 10 million rows as on ten; and they still name the tenants with work, and none after.
 */
const ID = '8001015009087';

type PlanNode = {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
};
const flatten = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];

describe('sealing lookups at worker start (issue 26g)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  // A session of its own (the owner's), for settings that must hold across statements.
  const connect = async () => {
    const client = new pg.Client({ connectionString: t.ownerUrl });
    await client.connect();
    return client;
  };

  const lookups = async () =>
    (
      await t.ownerQuery<{ name: string; body: string }>(
        `select p.proname as name, p.prosrc as body
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
         where n.nspname = 'public'
           and (p.proname like '%\\_unsealed\\_tenants' or p.proname like '%\\_unmasked\\_%tenants')
         order by 1`,
      )
    ).map((row) => ({ ...row, body: row.body.replace(/\bp_limit\b/g, '100') }));

  /**
   * The lookup's answer with sequential scans ruled out: a lookup no partial index can answer
   * still answers (the planner falls back), but the plan test below would fail for it.
   */
  async function tenantsFrom(name: string): Promise<string[]> {
    const client = await connect();
    try {
      await client.query('begin');
      await client.query('set local enable_seqscan = off');
      const { rows } = await client.query<{ tenant_id: string }>(
        `select tenant_id from ${name}(1000)`,
      );
      await client.query('rollback');
      return rows.map((row) => row.tenant_id);
    } finally {
      await client.end();
    }
  }

  it('answers every lookup from a partial index whose predicate is its condition', async () => {
    const all = await lookups();
    expect(all.length).toBeGreaterThanOrEqual(15);
    const partial = new Set(
      (
        await t.ownerQuery<{ name: string }>(
          `select c.relname as name from pg_index i join pg_class c on c.oid = i.indexrelid
           where i.indpred is not null`,
        )
      ).map((row) => row.name),
    );
    const scans: Record<string, string[]> = {};
    for (const { name, body } of all) {
      const client = await connect();
      try {
        await client.query('begin');
        // As the function runs it (its owner, its search_path); no sequential scan if avoidable.
        await client.query('set local role boomgate_jobs');
        await client.query('set local search_path = public, pg_temp');
        await client.query('set local enable_seqscan = off');
        const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
          `explain (format json) ${body}`,
        );
        await client.query('rollback');
        scans[name] = flatten(rows[0]!['QUERY PLAN'][0].Plan)
          .filter((node) => node['Relation Name'] || node['Index Name'])
          .map((node) =>
            node['Index Name'] && partial.has(node['Index Name'])
              ? 'partial index'
              : `${node['Node Type']} ${node['Index Name'] ?? node['Relation Name']}`,
          )
          .filter((scan) => !scan.startsWith('Bitmap Heap Scan'));
      } finally {
        await client.end();
      }
    }
    expect(scans).toEqual(Object.fromEntries(all.map(({ name }) => [name, ['partial index']])));
  });

  it('finds a tenant with a row to seal or a warning to mask, and none once the job has run', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const hit = JSON.stringify([
      { code: 'watchlist_hit', message: `Driver ID number ${ID} is on the watchlist (block): X` },
    ]);
    // Rows as the code before sealing stored them, one in each table whose lookup 26g indexed.
    await t.ownerQuery(
      `insert into drivers (tenant_id, id, id_number, name, surname, source)
       values ($1, gen_random_uuid(), $2, 'Lerato', 'Dlamini', 'bulk')`,
      [tenantId, ID],
    );
    await t.ownerQuery(
      `insert into watchlist_entries (tenant_id, id, kind, value, match_key, reason, severity,
         created_at, updated_at)
       values ($1, gen_random_uuid(), 'idNumber', '8501015800088', '8501015800088', 'Banned',
         'block', now(), now())`,
      [tenantId],
    );
    await t.ownerQuery(
      `insert into visits (tenant_id, id, kind, site_id, person_name, person_id_number, entered_at)
       select $1, gen_random_uuid(), 'person', id, 'Thabo', $2, now() from sites
       where tenant_id = $1 and is_default`,
      [tenantId, ID],
    );
    await t.ownerQuery(
      `insert into entry_logs (tenant_id, id, plate_number, vehicle_approved, face_verified,
         entry_granted, warnings)
       values ($1, gen_random_uuid(), 'CA1', true, false, true, $2::jsonb)`,
      [tenantId, hit],
    );
    await t.ownerQuery(
      `insert into incoming_requests (tenant_id, id, webhook_id, received_at, "timestamp",
         plate_number, warnings)
       values ($1, gen_random_uuid(), 'msg_26g', now(), now(), 'CA2', $2::jsonb)`,
      [tenantId, hit],
    );
    await t.ownerQuery(
      `insert into webhook_deliveries (tenant_id, id, webhook_id, event_type, body,
         next_attempt_at, created_at)
       values ($1, gen_random_uuid(), 'msg_26g_out', 'legacy.event', $2, now(), now())`,
      [tenantId, JSON.stringify({ driverIdNumber: ID })],
    );
    await t.ownerQuery(
      `insert into captures (tenant_id, id, created_at, type, image_key, expires_at, reading)
       values ($1, gen_random_uuid(), now(), 'idDocument', 'captures/none.jpg',
         now() + interval '30 days', $2::jsonb)`,
      [
        tenantId,
        JSON.stringify({
          type: 'idDocument',
          fields: { identityNumber: { value: ID, confidence: 0.9 } },
        }),
      ],
    );
    await t.ownerQuery(
      `insert into reading_corrections (tenant_id, id, reading_type, field, kind, was_uncertain,
         typed_value, read_value, corrected_at)
       values ($1, gen_random_uuid(), 'idDocument', 'identityNumber', 'edited', false, $2,
         $3::jsonb, now())`,
      [tenantId, ID, JSON.stringify({ value: '8001015009088' })],
    );
    const [video] = await t.ownerQuery<{ id: string }>(
      `insert into safety_videos (tenant_id, id, title, source, duration_seconds, pass_score,
         questions)
       values ($1, gen_random_uuid(), 'Site rules', 'upload', 60, 80, '[]') returning id`,
      [tenantId],
    );
    await t.ownerQuery(
      `insert into induction_assignments (tenant_id, id, video_id, driver_name, driver_id_number)
       values ($1, gen_random_uuid(), $2, 'Lerato', $3)`,
      [tenantId, video!.id, ID],
    );
    const indexed = [
      'captures_unsealed_tenants',
      'drivers_unsealed_tenants',
      'entry_logs_unmasked_warning_tenants',
      'incoming_requests_unmasked_warning_tenants',
      'induction_assignments_unsealed_tenants',
      'reading_corrections_unsealed_tenants',
      'visits_unsealed_tenants',
      'watchlist_unsealed_tenants',
      'webhook_deliveries_unsealed_tenants',
    ];
    const names = (await lookups()).map((l) => l.name);
    expect(names).toEqual(expect.arrayContaining(indexed));

    const before: Record<string, boolean> = {};
    for (const name of indexed) before[name] = (await tenantsFrom(name)).includes(tenantId);
    expect(before).toEqual(Object.fromEntries(indexed.map((name) => [name, true])));

    await t.modules.keys.enqueueStartup();
    await runDueJobsOnce({ ownerUrl: t.ownerUrl, jobs: t.modules.keys.jobs });

    const after: Record<string, string[]> = {};
    for (const name of names) after[name] = await tenantsFrom(name);
    expect(after).toEqual(Object.fromEntries(names.map((name) => [name, []])));
    const [index] = await t.ownerQuery<{ n: number }>(
      `select count(*)::int as n from entry_logs where public.warnings_unmasked(warnings)`,
    );
    expect(index?.n).toBe(0);
  });

  // Never an error either: the functions are index predicates, so an error would refuse the insert.
  it('keeps the jsonb conditions exactly as the lookups wrote them before (0098, 0102, 0103)', async () => {
    const warnings = [
      null,
      '"text"',
      '{}',
      '[]',
      '[{"message": "Driver ID number 8001015009087 is on the watchlist (block): X"}]',
      '[{"message": "Driver ID number *********9087 is on the watchlist (block): X"}]',
      '[{"message": "Plate CA 1 is on the watchlist (block): X"}, {"message": "Driver ID number A1234 is on the watchlist (alert): Y"}]',
      '[{"message": 5}, "plain", null]',
      '[[1], {"message": null}, {"text": "Driver ID number 8001015009087 is on the watchlist ("}]',
    ];
    const compared = await t.ownerQuery<{ was: boolean; now: boolean }>(
      `select coalesce(jsonb_typeof(x) = 'array' and exists (
                select 1 from jsonb_array_elements(x) w
                where w ->> 'message' ~ '^Driver ID number ([^*].*?) is on the watchlist \\('),
              false) as was,
              coalesce(public.warnings_unmasked(x), false) as now
       from unnest($1::jsonb[]) x`,
      [warnings],
    );
    expect(compared.map((row) => row.now)).toEqual(compared.map((row) => row.was));
    expect(compared.map((row) => row.now)).toEqual([
      false,
      false,
      false,
      false,
      true,
      false,
      true,
      false,
      false,
    ]);

    const readings = [
      null,
      '{}',
      '{"fields": null}',
      '{"fields": "text"}',
      '{"fields": {"identityNumber": {"value": "8001015009087"}}}',
      '{"fields": {"identityNumber": {"value": "sv1.1.a.b.c"}}}',
      '{"fields": {"passportNumber": {"value": null}}}',
      '{"fields": {"passportNumber": {}}}',
      '{"fields": {"mrzLines": {"value": ["P<ZAF", "A1234"]}}}',
      '{"fields": {"plateNumber": {"value": "CA 1"}}}',
      '{"fields": {"idNumber": {"value": 8001015009087}}}',
      '"text"',
      '[{"fields": {"idNumber": {"value": "8001015009087"}}}]',
      '{"fields": {"idNumber": "8001015009087"}}',
    ];
    const capturesCompared = await t.ownerQuery<{ was: boolean; now: boolean }>(
      `select coalesce(c is not null and exists (
                select 1 from jsonb_each(case when jsonb_typeof(c -> 'fields') = 'object'
                                              then c -> 'fields' else '{}'::jsonb end) f
                where f.key in ('identityNumber', 'idNumber', 'driverIdNumber', 'passportNumber',
                                'driverPassportNumber', 'personalNumber', 'mrzLines')
                  and jsonb_typeof(f.value -> 'value') not in ('null')
                  and not (jsonb_typeof(f.value -> 'value') = 'string'
                           and f.value ->> 'value' like 'sv1.%')), false) as was,
              coalesce(public.capture_reading_unsealed(c), false) as now
       from unnest($1::jsonb[]) c`,
      [readings],
    );
    expect(capturesCompared.map((row) => row.now)).toEqual(capturesCompared.map((row) => row.was));
    expect(capturesCompared.filter((row) => row.now)).toHaveLength(3);
  });

  it('rebuilds the indexes under the search_path maintenance runs with (PostgreSQL 17+)', async () => {
    const client = await connect();
    try {
      await client.query('set search_path = pg_catalog, pg_temp');
      for (const index of [
        'entry_logs_unmasked_warnings_idx',
        'incoming_requests_unmasked_warnings_idx',
        'captures_unsealed_idx',
        'drivers_unsealed_idx',
        'watchlist_entries_unsealed_idx',
        'webhook_deliveries_unsealed_idx',
        'visits_unsealed_idx',
        'induction_assignments_unsealed_idx',
        'reading_corrections_unsealed_idx',
      ])
        await client.query(`reindex index public.${index}`);
      await client.query('analyze public.entry_logs, public.incoming_requests, public.captures');
    } finally {
      await client.end();
    }
  });
});
