import { rm } from 'node:fs/promises';
import path from 'node:path';

import pg from 'pg';

import { decodeEncryptionKey } from '@/platform/crypto';
import { prepareDatabase } from '@/platform/database-bootstrap';
import { startEmbeddedPostgres } from '@/platform/embedded-postgres';
import { hashPassword } from '@/platform/passwords';
import { loadOrCreateSecrets } from '@/platform/secrets';
import {
  DEFAULT_SCALE_ENTRIES,
  SCALE_PASSWORD,
  type ScaleDifference,
  canTopUp,
  compareWithPlan,
  productionScalePlan,
  seedScaleData,
  topUpScaleData,
} from '@/testing/scale-data';
import {
  assertNothingToSeal,
  createScaleSealer,
  driverPoolSize,
  loadDriverPool,
  lookupsWithWork,
  sealFeedInPlace,
} from '@/testing/scale-sealing';

import { REPO_ROOT } from './server-process';

/**
 * The large tenant's entry logs (issue 27): `--entries N` on the command line or SCALE_ENTRIES,
 * else 1,000,000 (today's scale). Underscores and commas are allowed (`--entries 10_000_000`).
 */
export function scaleEntriesFrom(
  argv: readonly string[] = process.argv,
  env: NodeJS.ProcessEnv = process.env,
): number {
  const at = argv.indexOf('--entries');
  const given = at >= 0 ? argv[at + 1] : env.SCALE_ENTRIES;
  if (given === undefined || given === '') return DEFAULT_SCALE_ENTRIES;
  const entries = Number(given.replace(/[_,]/g, ''));
  if (!Number.isInteger(entries) || entries < 1000 || entries > 50_000_000)
    throw new Error(
      `--entries / SCALE_ENTRIES: a whole number from 1000 to 50000000, not ${given}`,
    );
  return entries;
}
export const SCALE_ENTRIES = scaleEntriesFrom();

/**
 * The scale data lives apart from the development ./data (BENCH_DATA_DIR), or in DATABASE_URL.
 * Another size than today's gets its own folder by default (./data-bench-10000000), so a 10M seed
 * never replaces the 1M one.
 */
export const SCALE_DATA_DIR = path.resolve(
  process.env.BENCH_DATA_DIR ??
    path.join(
      REPO_ROOT,
      SCALE_ENTRIES === DEFAULT_SCALE_ENTRIES ? 'data-bench' : `data-bench-${SCALE_ENTRIES}`,
    ),
);
const LARGE_TENANT = 'Scale Tenant 001 (large)';

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** The owner's connection: DATABASE_URL, or the embedded PostgreSQL in SCALE_DATA_DIR (migrated). */
async function openOwner(log: (message: string) => void) {
  const started = performance.now();
  let ownerUrl = process.env.DATABASE_URL;
  let stop = async () => undefined as void;
  const secrets = ownerUrl ? undefined : await loadOrCreateSecrets(SCALE_DATA_DIR);
  if (!ownerUrl && secrets) {
    const embedded = await startEmbeddedPostgres({
      dataDir: SCALE_DATA_DIR,
      password: secrets.databaseSuperuserPassword,
    });
    ownerUrl = embedded.ownerUrl;
    stop = () => embedded.stop();
  }
  if (!ownerUrl) throw new Error('no database');
  try {
    // The same bootstrap the server runs at start: roles, then every pending migration.
    await prepareDatabase({
      ownerUrl,
      appUrl: process.env.DATABASE_APP_URL,
      appPassword: (secrets ?? (await loadOrCreateSecrets(SCALE_DATA_DIR))).databaseAppPassword,
    });
  } catch (error) {
    await stop();
    throw error;
  }
  log(
    `database ready (${process.env.DATABASE_URL ? 'DATABASE_URL' : SCALE_DATA_DIR}, migrated): ${seconds(started)}`,
  );
  // The master key the bench server will run with (platform/infrastructure.ts picks it the same
  // way), so the tenants' keys the seed makes are the ones the server unwraps.
  const master = decodeEncryptionKey(
    process.env.ENCRYPTION_KEY ??
      (secrets ?? (await loadOrCreateSecrets(SCALE_DATA_DIR))).dataEncryptionKey,
  );
  return { ownerUrl, stop, master };
}

export type ScaleDataOutcome = 'seeded' | 'present' | 'topped up' | 're-seeded' | 'sealed';

/**
 * Above this many entries a seed takes hours: data seeded before part f (entries without ID
 * numbers) is kept as it is rather than seeded again, its feed and callbacks sealed in place.
 */
const RESEED_ENTRIES_AT_MOST = 2_000_000;

/**
 * Data seeded before issue 26 part f: entries carry no ID numbers (the seed wrote none) and the
 * feed and its callbacks hold plain values the sealing job would seal during the measurement.
 * Read cheaply: the large tenant's entries through the (tenant, hash) index, the rest through the
 * sealing job's own lookups.
 */
async function sealingGaps(client: pg.Client) {
  const numbered = await client.query(
    `select 1 from entry_logs e
     where e.tenant_id = (select id from tenants where name = $1)
       and (e.driver_id_number_hash is not null or e.driver_passport_number_hash is not null)
     limit 1`,
    [LARGE_TENANT],
  );
  return { entriesUnnumbered: numbered.rowCount === 0, lookups: await lookupsWithWork(client) };
}

/** Seals the plain feed numbers and callback bodies of an older seed in place, tenant by tenant. */
async function sealOlderSeedInPlace(
  client: pg.Client,
  plan: ReturnType<typeof productionScalePlan>,
  master: Buffer,
  log: (message: string) => void,
) {
  const started = performance.now();
  const tenants = await client.query<{ id: string; name: string }>('select id, name from tenants');
  const sealer = createScaleSealer(client, master);
  let changed = 0;
  await client.query('begin');
  try {
    await client.query("set local synchronous_commit = off; set local work_mem = '256MB'");
    for (const row of tenants.rows) {
      const tenant = plan.tenants.find((t) => t.name === row.name);
      if (!tenant) throw new Error(`no tenant ${row.name} in the plan`);
      const pool = await loadDriverPool(
        client,
        sealer,
        row.id,
        tenant.number,
        driverPoolSize(tenant.entryLogs, tenant.incomingRequests),
      );
      changed += await sealFeedInPlace(client, sealer, row.id, pool);
    }
    await assertNothingToSeal(client);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
  await client.query('vacuum (analyze) incoming_requests, webhook_deliveries');
  log(`sealed ${changed} feed rows and callback bodies in place: ${seconds(started)}`);
}

const describe = (d: ScaleDifference) =>
  d.kind === 'tenant'
    ? `${d.tenant}: ${d.planned ? 'missing' : 'not in the plan'}`
    : `${d.tenant}: ${d.present} ${d.kind}, planned ${d.planned}`;

/**
 * Seeds the issue-9 data set unless it is there already. The seed is one transaction, so it is all
 * there or not at all; what is there is compared with the plan, row counts per tenant and kind, so
 * a folder seeded by an older plan is noticed: rows the plan only appends (truck list, feed) are
 * topped up, anything else is seeded again from scratch (the embedded folder is deleted first;
 * against DATABASE_URL it refuses, since that database is not ours to drop). `reset` always
 * starts over.
 */
export async function ensureScaleData({
  reset = false,
  log = (message: string) => process.stdout.write(`${message}\n`),
}: { reset?: boolean; log?: (message: string) => void } = {}): Promise<ScaleDataOutcome> {
  const passwordHash = await hashPassword(SCALE_PASSWORD);
  const plan = productionScalePlan(passwordHash, { entries: SCALE_ENTRIES });
  let reseeding = false;
  if (reset) await removeDataFolder(log);
  for (;;) {
    const { ownerUrl, stop, master } = await openOwner(log);
    const client = new pg.Client({ connectionString: ownerUrl });
    await client.connect();
    try {
      const canBypass = await client.query<{ ok: boolean }>(
        'select rolsuper or rolbypassrls as ok from pg_roles where rolname = current_user',
      );
      if (!canBypass.rows[0]?.ok)
        throw new Error(
          'seeding needs an owner that bypasses row-level security (superuser or BYPASSRLS)',
        );
      const existing = await client.query('select 1 from tenants where name = $1', [LARGE_TENANT]);
      if (existing.rowCount) {
        const differences = await compareWithPlan(client, plan);
        const gaps = await sealingGaps(client);
        const olderSeed = gaps.entriesUnnumbered || gaps.lookups.length > 0;
        if (differences.length === 0 && !olderSeed) {
          log('scale data already present (run `npm run seed:scale -- --reset` to start over)');
          return 'present';
        }
        if (
          olderSeed &&
          SCALE_ENTRIES > RESEED_ENTRIES_AT_MOST &&
          (differences.length === 0 || canTopUp(differences))
        ) {
          // Issue 26f: a seed of this size takes hours; the entries stay without ID numbers (the
          // entry lists then open no sealed number: say so), the feed and callbacks are sealed.
          log(
            `the scale data was seeded before issue 26 part f` +
              `${gaps.entriesUnnumbered ? ': its entries carry no ID numbers, kept as they are (`npm run seed:scale -- --reset` seeds them, for hours)' : ''}`,
          );
          if (gaps.lookups.length > 0) await sealOlderSeedInPlace(client, plan, master, log);
          if (differences.length > 0) {
            await topUpScaleData(client, plan, differences, { master, log });
            if ((await compareWithPlan(client, plan)).length > 0)
              throw new Error('the top-up did not bring the data to the plan');
          }
          await assertNothingToSeal(client);
          return 'sealed';
        }
        if (olderSeed)
          log(
            `the scale data was seeded before issue 26 part f (numbers not sealed as production's` +
              `${gaps.lookups.length > 0 ? `; ${gaps.lookups.join(', ')} name work for the sealing job` : ''}): seeding again`,
          );
        else
          log(
            `the scale data differs from the plan (an older seed): ${differences.slice(0, 5).map(describe).join('; ')}` +
              `${differences.length > 5 ? `; and ${differences.length - 5} more` : ''}`,
          );
        if (!olderSeed && canTopUp(differences)) {
          const started = performance.now();
          log('topping up…');
          await topUpScaleData(client, plan, differences, { master, log });
          if ((await compareWithPlan(client, plan)).length > 0)
            throw new Error('the top-up did not bring the data to the plan');
          log(`topped up in ${seconds(started)}`);
          return 'topped up';
        }
        if (process.env.DATABASE_URL)
          throw new Error(
            'the scale data in DATABASE_URL was seeded by another plan: drop that database and seed again',
          );
        if (reseeding) throw new Error('a fresh seed still differs from the plan');
        reseeding = true;
      } else {
        const otherTenants = await client.query('select 1 from tenants limit 1');
        if (otherTenants.rowCount)
          throw new Error('the database holds other tenants: seed an empty database (or --reset)');
        const started = performance.now();
        log(
          `seeding ${plan.tenants.length} tenants, ` +
            `${plan.tenants.reduce((n, t) => n + t.entryLogs, 0)} entry logs, ` +
            `${plan.tenants.reduce((n, t) => n + t.approvedVehicles, 0)} approved vehicles, ` +
            `${plan.tenants.reduce((n, t) => n + t.users, 0)} users…`,
        );
        await seedScaleData(client, plan, { master, log });
        const sizes = await client.query<{ relname: string; rows: string; size: string }>(
          `select relname, n_live_tup::text as rows, pg_size_pretty(pg_total_relation_size(relid)) as size
           from pg_stat_user_tables
           where relname in ('entry_logs', 'approved_vehicles', 'users', 'truck_list_entries',
                             'incoming_requests', 'webhook_deliveries', 'entry_log_daily_counts')
           order by pg_total_relation_size(relid) desc`,
        );
        for (const row of sizes.rows) log(`  ${row.relname}: ${row.rows} rows, ${row.size}`);
        log(`seeded in ${seconds(started)}`);
        return reseeding ? 're-seeded' : 'seeded';
      }
    } finally {
      await client.end();
      await stop();
    }
    // Seeded by a plan a top-up cannot reach: start over on an empty folder.
    await removeDataFolder(log);
  }
}

async function removeDataFolder(log: (message: string) => void) {
  if (process.env.DATABASE_URL)
    throw new Error('--reset works on the embedded data folder only; drop the database yourself');
  await rm(SCALE_DATA_DIR, { recursive: true, force: true });
  log(`removed ${SCALE_DATA_DIR}`);
}
