import type pg from 'pg';

import { startOfSiteDay } from '@/platform/calendar';

import {
  type DriverPool,
  type ScaleSealer,
  assertNothingToSeal,
  createScaleSealer,
  driverPoolSize,
  insertSealedDeliveries,
  loadDriverPool,
} from './scale-sealing';

/**
 * Production-scale data generated inside PostgreSQL (generate_series + INSERT … SELECT), for
 * `npm run seed:scale` (issues 5 and 9) and the query-plan test. Runs as the schema owner, which
 * must bypass row-level security (the embedded superuser does). Plates follow South African
 * formats, times fall on SAST working hours, and recent weeks are denser than older ones.
 * Issue 26 (part f): ID and passport numbers are sealed with each tenant's keys, hashes beside
 * them, as production holds them (scale-sealing.ts), so nothing is left for the sealing job.
 */
export type ScaleTenantPlan = {
  /** 1-based; keeps every tenant's plates distinct. */
  number: number;
  name: string;
  entryLogs: number;
  approvedVehicles: number;
  users: number;
  truckListEntries: number;
  incomingRequests: number;
  /** Issue 16: vehicles on site now (open visits of the newest granted entries); none if absent. */
  openVisits?: number;
};

export type ScalePlan = {
  tenants: ScaleTenantPlan[];
  /** How far back entries go (days); the density rises linearly towards today. */
  days: number;
  /** One real argon2 hash shared by every generated user (hashing 500 would take minutes). */
  passwordHash: string;
};

export const SCALE_PASSWORD = 'scale-bench-pass-1';
export const SITE_TIME_ZONE = 'Africa/Johannesburg';

export const scaleUsername = (tenantNumber: number, user: number) =>
  `scale-t${String(tenantNumber).padStart(3, '0')}-u${String(user).padStart(3, '0')}`;

/** The large tenant's entry logs in the issue-9 plan (today's scale). */
export const DEFAULT_SCALE_ENTRIES = 1_000_000;

/**
 * Issue 9: 100 tenants, 1,000,000 entries in the largest, 50,000 approved vehicles, 500 users.
 * `entries` changes the large tenant's entry logs alone (issue 27: 10,000,000, ten times the
 * scale); everything else stays as planned, so the two data sets differ in the entry-log list only.
 */
export function productionScalePlan(
  passwordHash: string,
  { entries = DEFAULT_SCALE_ENTRIES }: { entries?: number } = {},
): ScalePlan {
  const tenants: ScaleTenantPlan[] = [
    {
      number: 1,
      name: 'Scale Tenant 001 (large)',
      entryLogs: entries,
      approvedVehicles: 20_000,
      users: 60,
      truckListEntries: 150_000,
      // About a third of a year's gate entries arrive as bookings from an external system (the
      // feed); 3 % of them never come (no-shows nobody closes) and the last hours' wait, so the
      // feed carries a pending backlog of several thousand, as a busy site's would.
      incomingRequests: 250_000,
      // Issue 16: the On Site list's first page with 100,000 open visits.
      openVisits: 100_000,
    },
  ];
  const others = 99;
  for (let i = 0; i < others; i++) {
    const number = i + 2;
    // A spread of small and middling sites: 0–3,000 entries, skewed towards small.
    const share = ((number * 37) % 100) / 100;
    tenants.push({
      number,
      name: `Scale Tenant ${String(number).padStart(3, '0')}`,
      entryLogs: Math.round(3000 * share * share),
      approvedVehicles: Math.floor(30_000 / others) + (i < 30_000 % others ? 1 : 0),
      users: Math.floor(440 / others) + (i < 440 % others ? 1 : 0),
      truckListEntries: 500,
      incomingRequests: 100,
    });
  }
  return { tenants, days: 730, passwordHash };
}

const FIRST_NAMES = [
  'Sipho',
  'Thandi',
  'Johan',
  'Ayanda',
  'Lerato',
  'Pieter',
  'Nomsa',
  'Themba',
  'Zanele',
  'Bongani',
  'Karabo',
  'Mpho',
  'Lindiwe',
  'Thabo',
  'Annelie',
  'Sibusiso',
  'Palesa',
  'Riaan',
  'Nandi',
  'Kagiso',
];
const SURNAMES = [
  'Nkosi',
  'Mokoena',
  'van Wyk',
  'Zulu',
  'Dlamini',
  'Botha',
  'Khumalo',
  'Naidoo',
  'Mthembu',
  'Pretorius',
  'Ndlovu',
  'Sithole',
  'Molefe',
  'du Plessis',
  'Mahlangu',
  'Venter',
  'Maseko',
  'Pillay',
];
const COMPANIES = [
  'Kumba Haulage',
  'Highveld Transport',
  'Cape Bulk Logistics',
  'Bushveld Carriers',
  'Limpopo Freight',
  'Vaal Ore Movers',
  'Karoo Tippers',
  'Mpumalanga Coal Haul',
  'Zululand Logistics',
  'Rustenburg Bulk',
  'Waterberg Trucking',
  'Sishen Road Freight',
];

const sqlArray = (values: string[]) =>
  `array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')}]::text[]`;

/** Session-local helpers (pg_temp): SA plates from an integer, a SAST time, a days-back draw. */
const helpers = (midnight: string) => `
create or replace function pg_temp.bg_l(x bigint) returns text language sql immutable as $$
  select substr('BCDFGHJKLMNPRSTVWXYZ', (x % 20)::int + 1, 1)
$$;
-- Injective for n < 5,000,000: Gauteng (AB12CDGP, ABC123GP), Western Cape (CA123456),
-- KwaZulu-Natal (ND123456) and the provinces' ABC123MP/L/NW/FS/EC/NC.
create or replace function pg_temp.bg_plate(n bigint) returns text language sql immutable as $$
  select case n % 5
    when 0 then pg_temp.bg_l(n / 5 / 800000) || pg_temp.bg_l(n / 5 / 40000) || lpad((n / 5 % 100)::text, 2, '0')
      || pg_temp.bg_l(n / 5 / 2000) || pg_temp.bg_l(n / 5 / 100) || 'GP'
    when 1 then 'CA' || lpad((n / 5 % 1000000)::text, 6, '0')
    when 2 then 'ND' || lpad((n / 5 % 1000000)::text, 6, '0')
    when 3 then pg_temp.bg_l(n / 5 / 400000) || pg_temp.bg_l(n / 5 / 20000) || pg_temp.bg_l(n / 5 / 1000)
      || lpad((n / 5 % 1000)::text, 3, '0') || (array['MP', 'L', 'NW', 'FS', 'EC', 'NC'])[(n / 5 % 6)::int + 1]
    else pg_temp.bg_l(n / 5 / 400000) || pg_temp.bg_l(n / 5 / 20000) || pg_temp.bg_l(n / 5 / 1000)
      || lpad((n / 5 % 1000)::text, 3, '0') || 'GP'
  end
$$;
-- A SAST working-hours instant (05:00–20:00) 'back' days before today, never in the future. South Africa
-- has no daylight saving, so a site day is always 24 hours from the midnight computed once in TypeScript.
create or replace function pg_temp.bg_site_time(back int, fraction float8) returns timestamptz language sql volatile as $$
  select t - case when t > now() then interval '1 day' else interval '0' end
  from (select '${midnight}'::timestamptz - back * interval '1 day' + interval '5 hours'
               + fraction * interval '15 hours' as t) as s
$$;
-- Days back with a density that rises linearly towards today (recent weeks are the busiest).
create or replace function pg_temp.bg_days_back(days int) returns int language sql volatile as $$
  select floor(days * (1 - sqrt(random())))::int
$$;
`;

type Step = (label: string, work: () => Promise<unknown>) => Promise<void>;

const FIRST_NAMES_SQL = sqlArray(FIRST_NAMES);
const SURNAMES_SQL = sqlArray(SURNAMES);
const COMPANIES_SQL = sqlArray(COMPANIES);
const pick = (array: string, random: string) =>
  `(${array})[1 + floor(${random} * cardinality(${array}))::int]`;

/** `count` number-plate camera reads over the last year (at most), 80 % of registered vehicles. */
function insertTruckList(
  client: pg.ClientBase,
  tenantId: string,
  tenantNumber: number,
  count: number,
  plan: ScalePlan,
) {
  return client.query(
    `with pool as (
       select coalesce((select array_agg(plate_number) from approved_vehicles where tenant_id = $1),
                       array[]::text[]) as contracted_plates,
              (select array_agg(pg_temp.bg_plate(4000000 + $2::bigint * 3000 + v))
                 from generate_series(0, 2999) as v) as visitor_plates
     )
     insert into truck_list_entries (tenant_id, id, "timestamp", truck_number, plate_number,
       category, transport_name, source, site_id)
     select $1, gen_random_uuid(), ts, 'T' || lpad((floor(r2 * 9000) + 1000)::int::text, 4, '0'),
       plate, (case when contracted then 'contracted' else 'other' end)::truck_category,
       ${pick(COMPANIES_SQL, 'r3')}, 'anpr',
       -- The default site once per statement, so the insert trigger has nothing to look up.
       (select s.id from sites s where s.tenant_id = $1 and s.is_default)
     from (
       select pg_temp.bg_site_time(pg_temp.bg_days_back($3), random()) as ts,
              r1 < 0.8 and cardinality(pool.contracted_plates) > 0 as contracted,
              case when r1 < 0.8 and cardinality(pool.contracted_plates) > 0
                   then pool.contracted_plates[1 + floor(random() * cardinality(pool.contracted_plates))::int]
                   else pool.visitor_plates[1 + floor(random() * 3000)::int] end as plate,
              random() as r2, random() as r3
       from (select random() as r1 from generate_series(1, $4::int)) as g, pool
     ) as t
     order by ts`,
    [tenantId, tenantNumber, Math.min(plan.days, 365), count],
  );
}

/**
 * `count` entries of the incoming feed over the last year (at most): older ones were completed at
 * the office (and their callbacks delivered) except 3 % that never came; the last hours' are still
 * waiting. Drivers come from the tenant's pool (pg_temp.bg_drivers, loaded by the caller): the ID
 * number sealed with its hash, none for a foreign driver. Deliveries are written for completed
 * entries that have none yet, so a top-up adds only its own.
 */
async function insertIncomingRequests(
  client: pg.ClientBase,
  sealing: TenantSealing,
  tenantNumber: number,
  count: number,
  plan: ScalePlan,
) {
  const { tenantId, pool } = sealing;
  await client.query(
    `insert into incoming_requests (tenant_id, id, webhook_id, received_at, "timestamp",
       plate_number, driver_name, driver_surname, driver_id_number, driver_id_number_hash,
       driver_phone1, transport_name, reference_number, completed_at, completed_by, site_id)
     select $1, id, 'msg_' || replace(id::text, '-', ''), ts + interval '2 seconds', ts,
       pg_temp.bg_plate(4500000 + $2::bigint * 3000 + floor(r1 * 3000)::bigint),
       ${pick(FIRST_NAMES_SQL, 'r2')}, ${pick(SURNAMES_SQL, 'r3')},
       d.incoming_id, d.id_hash,
       '0' || (6 + floor(r6 * 3))::int || lpad(floor(r5 * 1e8)::bigint::text, 8, '0'),
       ${pick(COMPANIES_SQL, 'r7')}, 'REF-' || lpad(floor(r1 * 1e7)::bigint::text, 7, '0'),
       case when ts < now() - interval '3 hours' and r8 < 0.97 then ts + interval '20 minutes' end,
       case when ts < now() - interval '3 hours' and r8 < 0.97 then
         (select id from users where tenant_id = $1 and role <> 'security_guard' limit 1) end,
       (select d.id from sites d where d.tenant_id = $1 and d.is_default)
     from (select gen_random_uuid() as id, ts, random() as r1, random() as r2, random() as r3,
             floor(random() * $5::int)::int as driver, random() as r5, random() as r6,
             random() as r7, random() as r8
           from (select pg_temp.bg_site_time(pg_temp.bg_days_back($3), random()) as ts
                 from generate_series(1, $4::int)) as g) as s
     join pg_temp.bg_drivers d on d.n = s.driver
     order by ts`,
    [tenantId, tenantNumber, Math.min(plan.days, 365), count, pool.size],
  );
  await insertSealedDeliveries(client, sealing.sealer, tenantId, pool);
}

/** A tenant's keys and pooled drivers, as the inserts of its rows use them. */
type TenantSealing = { tenantId: string; sealer: ScaleSealer; pool: DriverPool };

const poolFor = (
  client: pg.ClientBase,
  sealer: ScaleSealer,
  tenantId: string,
  tenant: ScaleTenantPlan,
) =>
  loadDriverPool(
    client,
    sealer,
    tenantId,
    tenant.number,
    driverPoolSize(tenant.entryLogs, tenant.incomingRequests),
  );

/** Inserts one tenant's data. Statements are parameterised; arrays of names are literals. */
async function seedTenant(
  client: pg.ClientBase,
  tenant: ScaleTenantPlan,
  plan: ScalePlan,
  step: Step,
  sealer: ScaleSealer,
) {
  const { rows } = await client.query<{ id: string }>(
    "insert into tenants (id, name, created_at) values (gen_random_uuid(), $1, now() - $2 * interval '1 day') returning id",
    [tenant.name, plan.days],
  );
  const tenantId = rows[0]?.id;
  if (!tenantId) throw new Error('tenant insert returned nothing');
  const big = tenant.entryLogs >= 100_000;
  const run = big ? step : (_label: string, work: () => Promise<unknown>) => work();
  // A few thousand drivers' numbers sealed in Node (milliseconds), joined by the inserts below.
  const pool = await poolFor(client, sealer, tenantId, tenant);
  const sealing: TenantSealing = { tenantId, sealer, pool };

  await run(`users (${tenant.users})`, () =>
    client.query(
      `insert into users (tenant_id, id, username, full_name, role, password_hash, is_active,
         must_change_password, password_changed_at, created_at, updated_at)
       select $1, gen_random_uuid(),
         'scale-t' || lpad($2::text, 3, '0') || '-u' || lpad(g::text, 3, '0'),
         ${pick(FIRST_NAMES_SQL, 'random()')} || ' ' || ${pick(SURNAMES_SQL, 'random()')},
         (case when g = 1 then 'tenant_admin' when g % 7 = 0 then 'back_office' else 'security_guard' end)::user_role,
         $3, g % 25 <> 24, false, now(), now() - random() * interval '700 days', now()
       from generate_series(1, $4::int) as g`,
      [tenantId, tenant.number, plan.passwordHash, tenant.users],
    ),
  );

  await run(`approved vehicles (${tenant.approvedVehicles})`, () =>
    client.query(
      `insert into approved_vehicles (tenant_id, id, plate_number, driver_name, driver_license,
         company, approved_until, is_active, created_at)
       select $1, gen_random_uuid(), pg_temp.bg_plate($2::bigint * 40000 + g),
         ${pick(FIRST_NAMES_SQL, 'r1')} || ' ' || ${pick(SURNAMES_SQL, 'r2')},
         lpad((floor(r3 * 1e12))::bigint::text, 12, '0'),
         ${pick(COMPANIES_SQL, 'r4')},
         case when r5 < 0.1 then null
              when r5 < 0.2 then current_date - (1 + floor(r3 * 300))::int
              else current_date + (1 + floor(r3 * 365))::int end,
         r6 < 0.95, created
       from (select g, random() as r1, random() as r2, random() as r3, random() as r4,
               random() as r5, random() as r6, now() - random() * interval '700 days' as created
             from generate_series(0, $3::int - 1) as g) as s
       order by created`,
      [tenantId, tenant.number, tenant.approvedVehicles],
    ),
  );

  // 70 % of entries are contracted vehicles of the register (92 % of them approved at the time),
  // the rest visitors; faces are verified for most approved drivers. 95 % of drivers showed an ID
  // (or, one in thirty, a passport) from the tenant's pool, sealed, with its hash.
  await run(`entry logs (${tenant.entryLogs})`, () =>
    client.query(
      `with pool as (
         select coalesce((select array_agg(plate_number) from approved_vehicles where tenant_id = $1),
                         array[]::text[]) as contracted_plates,
                (select array_agg(pg_temp.bg_plate(4000000 + $2::bigint * 3000 + v))
                   from generate_series(0, 2999) as v) as visitor_plates,
                (select array_agg(id) from users where tenant_id = $1 and role = 'security_guard') as guards
       )
       insert into entry_logs (tenant_id, id, "timestamp", category, plate_number, extracted_plate,
         vehicle_approved, face_verified, entry_granted, match_score, driver_name, driver_surname,
         driver_id_number, driver_id_number_hash, driver_passport_number,
         driver_passport_number_hash, transport_name, recorded_by, recorded_by_name)
       select $1, gen_random_uuid(), ts,
         (case when contracted then 'contracted' else 'visitor' end)::entry_category,
         plate, plate, approved, face, approved or (not contracted and r4 < 0.95),
         case when face then round((70 + r5 * 29)::numeric, 1)::real end,
         ${pick(FIRST_NAMES_SQL, 'r6')}, ${pick(SURNAMES_SQL, 'r7')},
         d.entry_id, d.id_hash, d.entry_passport, d.passport_hash, ${pick(COMPANIES_SQL, 'r8')},
         guard, 'Guard ' || left(guard::text, 4)
       from (
         select ts, contracted, plate, contracted and r2 < 0.92 as approved,
                contracted and r2 < 0.92 and r3 < 0.8 as face, r4, r5, r6, r7, r8,
                pool.guards[1 + floor(r9 * cardinality(pool.guards))::int] as guard,
                case when r10 < 0.95 then floor(r10 / 0.95 * $5::int)::int end as driver
         from (
           select pg_temp.bg_site_time(pg_temp.bg_days_back($3), random()) as ts,
                  r1 < 0.7 and cardinality(pool.contracted_plates) > 0 as contracted,
                  case when r1 < 0.7 and cardinality(pool.contracted_plates) > 0
                       then pool.contracted_plates[1 + floor(random() * cardinality(pool.contracted_plates))::int]
                       else pool.visitor_plates[1 + floor(random() * 3000)::int] end as plate,
                  random() as r2, random() as r3, random() as r4, random() as r5, random() as r6,
                  random() as r7, random() as r8, random() as r9, random() as r10
           from (select random() as r1 from generate_series(1, $4::int)) as g, pool
         ) as e, pool
       ) as x
       left join pg_temp.bg_drivers d on d.n = x.driver
       order by ts`,
      [tenantId, tenant.number, plan.days, tenant.entryLogs, pool.size],
    ),
  );

  await run(`truck list (${tenant.truckListEntries})`, () =>
    insertTruckList(client, tenantId, tenant.number, tenant.truckListEntries, plan),
  );
  await run(`incoming requests (${tenant.incomingRequests})`, () =>
    insertIncomingRequests(client, sealing, tenant.number, tenant.incomingRequests, plan),
  );
  if (tenant.openVisits)
    await run(`open visits (${tenant.openVisits})`, () =>
      insertOpenVisits(client, tenantId, tenant.openVisits ?? 0),
    );
  return tenantId;
}

/**
 * Issue 16: `count` vehicles on site, the newest granted entries without a visit, at the tenant's
 * default site (which the tenants trigger made) and placed there with their entries.
 */
async function insertOpenVisits(client: pg.ClientBase, tenantId: string, count: number) {
  await client.query(
    `insert into visits (tenant_id, id, kind, site_id, gate_id, entry_log_id, plate_number,
       person_name, company, entered_at, entered_by, entered_by_name)
     select e.tenant_id, gen_random_uuid(), 'vehicle', s.id, g.id, e.id, e.plate_number,
       nullif(concat_ws(' ', e.driver_name, e.driver_surname), ''), e.transport_name, e."timestamp",
       e.recorded_by, e.recorded_by_name
     from entry_logs e
     join sites s on s.tenant_id = e.tenant_id and s.is_default
     join lateral (select id from gates where tenant_id = s.tenant_id and site_id = s.id
                   order by created_at limit 1) g on true
     where e.tenant_id = $1 and e.entry_granted
       and not exists (select 1 from visits v where v.tenant_id = e.tenant_id and v.entry_log_id = e.id)
     order by e."timestamp" desc
     limit $2`,
    [tenantId, count],
  );
}

/** How the seed seals: the master key the server will run with (ENCRYPTION_KEY). */
export type SeedOptions = { master: Buffer; log?: (message: string) => void };

/**
 * Seeds the whole plan in one transaction (all or nothing), each tenant's keys made and its
 * numbers sealed under `master` in that transaction, then checks that the sealing job has nothing
 * to do and runs VACUUM ANALYZE so the planner has statistics and index-only scans see an
 * up-to-date visibility map, as in production.
 */
export async function seedScaleData(
  client: pg.ClientBase,
  plan: ScalePlan,
  { master, log = () => undefined }: SeedOptions,
): Promise<{ tenantIds: string[] }> {
  const sealer = createScaleSealer(client, master);
  const step: Step = async (label, work) => {
    const started = performance.now();
    await work();
    log(`  ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  };
  const tenantIds: string[] = [];
  await client.query('begin');
  try {
    await client.query("set local synchronous_commit = off; set local work_mem = '256MB'");
    await client.query(helpers(startOfSiteDay(new Date()).toISOString()));
    for (const tenant of plan.tenants) {
      const started = performance.now();
      tenantIds.push(await seedTenant(client, tenant, plan, step, sealer));
      if (tenant.entryLogs >= 100_000)
        log(`${tenant.name}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    await assertNothingToSeal(client);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
  await step('vacuum analyze', () => vacuumAnalyze(client));
  return { tenantIds };
}

const vacuumAnalyze = (client: pg.ClientBase) =>
  client.query(
    'vacuum (analyze) tenants, users, approved_vehicles, entry_logs, truck_list_entries, incoming_requests, webhook_deliveries, entry_log_daily_counts, truck_list_daily_counts, incoming_request_daily_counts, approved_vehicle_expiry_counts, visits, visit_open_counts',
  );

/** The kinds of rows a plan counts per tenant. */
export type ScaleRowKind =
  | 'users'
  | 'approvedVehicles'
  | 'entryLogs'
  | 'truckListEntries'
  | 'incomingRequests'
  | 'openVisits';
const TABLE_OF: Record<ScaleRowKind, string> = {
  users: 'users',
  approvedVehicles: 'approved_vehicles',
  entryLogs: 'entry_logs',
  truckListEntries: 'truck_list_entries',
  incomingRequests: 'incoming_requests',
  openVisits: 'visits',
};
/** Rows a newer plan can append to data seeded by an older one (same distributions, nothing refers to them). */
export const APPENDABLE: readonly ScaleRowKind[] = [
  'truckListEntries',
  'incomingRequests',
  'openVisits',
];

export type ScaleDifference = {
  tenant: string;
  kind: ScaleRowKind | 'tenant';
  planned: number;
  present: number;
};

/**
 * How the data in the database differs from `plan`, tenant by tenant (by name) and kind by kind:
 * empty when it is exactly the plan. Counted as the owner (row-level security bypassed).
 */
export async function compareWithPlan(
  client: pg.ClientBase,
  plan: ScalePlan,
): Promise<ScaleDifference[]> {
  const tenants = await client.query<{ id: string; name: string }>('select id, name from tenants');
  const counts = new Map<string, Partial<Record<ScaleRowKind, number>>>();
  for (const [kind, table] of Object.entries(TABLE_OF) as [ScaleRowKind, string][]) {
    const { rows } = await client.query<{ tenant_id: string; n: number }>(
      `select tenant_id, count(*)::int as n from ${table} group by tenant_id`,
    );
    for (const row of rows) {
      const entry = counts.get(row.tenant_id) ?? {};
      entry[kind] = row.n;
      counts.set(row.tenant_id, entry);
    }
  }
  const byName = new Map(tenants.rows.map((t) => [t.name, t.id]));
  const differences: ScaleDifference[] = [];
  for (const tenant of plan.tenants) {
    const id = byName.get(tenant.name);
    if (!id) {
      differences.push({ tenant: tenant.name, kind: 'tenant', planned: 1, present: 0 });
      continue;
    }
    for (const kind of Object.keys(TABLE_OF) as ScaleRowKind[]) {
      const present = counts.get(id)?.[kind] ?? 0;
      const planned = tenant[kind] ?? 0;
      if (present !== planned) differences.push({ tenant: tenant.name, kind, planned, present });
    }
  }
  const planned = new Set(plan.tenants.map((t) => t.name));
  for (const name of byName.keys())
    if (!planned.has(name))
      differences.push({ tenant: name, kind: 'tenant', planned: 0, present: 1 });
  return differences;
}

/** Differences a top-up can close: rows missing of a kind that can be appended to. */
export const canTopUp = (differences: ScaleDifference[]) =>
  differences.every(
    (d) => d.kind !== 'tenant' && APPENDABLE.includes(d.kind) && d.present < d.planned,
  );

/**
 * Appends the missing truck-list reads and feed entries (`canTopUp` must hold) in one
 * transaction, then VACUUM ANALYZE. The per-day counters follow through their triggers.
 */
export async function topUpScaleData(
  client: pg.ClientBase,
  plan: ScalePlan,
  differences: ScaleDifference[],
  { master, log = () => undefined }: SeedOptions,
) {
  if (!canTopUp(differences)) throw new Error('these differences need a fresh seed');
  const sealer = createScaleSealer(client, master);
  const tenants = await client.query<{ id: string; name: string }>('select id, name from tenants');
  const idOf = new Map(tenants.rows.map((t) => [t.name, t.id]));
  await client.query('begin');
  try {
    await client.query("set local synchronous_commit = off; set local work_mem = '256MB'");
    await client.query(helpers(startOfSiteDay(new Date()).toISOString()));
    for (const d of differences) {
      const tenant = plan.tenants.find((t) => t.name === d.tenant);
      const tenantId = idOf.get(d.tenant);
      if (!tenant || !tenantId) throw new Error(`no tenant ${d.tenant}`);
      const started = performance.now();
      const missing = d.planned - d.present;
      if (d.kind === 'truckListEntries')
        await insertTruckList(client, tenantId, tenant.number, missing, plan);
      else if (d.kind === 'openVisits') await insertOpenVisits(client, tenantId, missing);
      else {
        const pool = await poolFor(client, sealer, tenantId, tenant);
        await insertIncomingRequests(
          client,
          { tenantId, sealer, pool },
          tenant.number,
          missing,
          plan,
        );
      }
      log(
        `  ${d.tenant}: ${missing} more ${d.kind} (${d.present} → ${d.planned}): ` +
          `${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }
    await assertNothingToSeal(client);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
  await vacuumAnalyze(client);
}
