import pg from 'pg';

import { startEmbeddedPostgres } from '@/platform/embedded-postgres';
import { loadOrCreateSecrets } from '@/platform/secrets';

import { SCALE_DATA_DIR } from '../lib/scale-database';

/**
 * `npm run bench:sealing-lookups [-- --entries N] [-- --plans]` (issue 26g): what the worker's
 * start costs the database, lookup by lookup. At every worker start keys.seal-stored-data asks each
 * `*_unsealed_tenants` / `*_unmasked_*tenants` function (SECURITY DEFINER, boomgate_jobs) for the
 * tenants with rows still to seal or mask; on sealed data every answer is empty, and it must stay
 * cheap however large the tables grow. For each lookup in the catalog (so a lookup added later is
 * covered without being named here) it prints the function's body planned and run as the function
 * runs it (role boomgate_jobs, search_path public, pg_temp, the limit the job passes: 100),
 * EXPLAIN (ANALYZE, BUFFERS): the scan it uses, rows read, buffers, and the call's own time (median
 * of 5 calls after a warm-up). `--plans` prints each text plan as well. Read-only; works on the scale data
 * (`npm run seed:scale`, BENCH_DATA_DIR) or DATABASE_URL.
 */
const LIMIT = 100;
const CALLS = 5;
const showPlans = process.argv.includes('--plans');

type PlanNode = {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Rows Removed by Filter'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
};
const flatten = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];

const secrets = process.env.DATABASE_URL ? undefined : await loadOrCreateSecrets(SCALE_DATA_DIR);
const database = secrets
  ? await startEmbeddedPostgres({
      dataDir: SCALE_DATA_DIR,
      password: secrets.databaseSuperuserPassword,
    })
  : undefined;
const client = new pg.Client({ connectionString: process.env.DATABASE_URL ?? database?.ownerUrl });
await client.connect();
try {
  const { rows: lookups } = await client.query<{ name: string; body: string }>(
    `select p.proname as name, p.prosrc as body
     from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname = 'public'
       and (p.proname like '%\\_unsealed\\_tenants' or p.proname like '%\\_unmasked\\_%tenants')
     order by 1`,
  );
  const { rows: sizes } = await client.query<{ relname: string; n: string }>(
    `select c.relname, greatest(c.reltuples, 0)::bigint::text as n from pg_class c
     join pg_namespace s on s.oid = c.relnamespace and s.nspname = 'public' where c.relkind = 'r'`,
  );
  const rowsOf = new Map(sizes.map((s) => [s.relname, Number(s.n)]));
  process.stdout.write(
    `${process.env.DATABASE_URL ? 'DATABASE_URL' : SCALE_DATA_DIR}: ${lookups.length} lookups, limit ${LIMIT}\n` +
      '| lookup | table rows (estimate) | tenants found | plan (scan) | rows read | buffers hit / read | call ms (median of 5) |\n' +
      '|---|---|---|---|---|---|---|\n',
  );
  for (const { name, body } of lookups) {
    const text = body.replace(/\bp_limit\b/g, `${LIMIT}`);
    await client.query('begin');
    try {
      await client.query('set local role boomgate_jobs');
      await client.query('set local search_path = public, pg_temp');
      const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `explain (analyze, buffers, format json) ${text}`,
      );
      const plan = rows[0]!['QUERY PLAN'][0].Plan;
      const nodes = flatten(plan);
      const scans = nodes.filter((n) => n['Relation Name']);
      const read = scans.reduce(
        (n, s) => n + (s['Actual Rows'] ?? 0) + (s['Rows Removed by Filter'] ?? 0),
        0,
      );
      const scanNames = [
        ...new Set(
          scans.map((s) =>
            s['Index Name']
              ? `${s['Node Type']} ${s['Index Name']}`
              : `${s['Node Type']} ${s['Relation Name']}`,
          ),
        ),
      ];
      const table = scans[0]?.['Relation Name'] ?? '';
      if (showPlans) {
        const { rows: textPlan } = await client.query<{ 'QUERY PLAN': string }>(
          `explain (analyze, buffers) ${text}`,
        );
        process.stdout.write(`\n${name}:\n${textPlan.map((r) => r['QUERY PLAN']).join('\n')}\n\n`);
      }
      await client.query('rollback');
      // The call itself, as the job makes it (after one warm-up call).
      await client.query(`select tenant_id from ${name}($1)`, [LIMIT]);
      const times: number[] = [];
      let found = 0;
      for (let i = 0; i < CALLS; i++) {
        const started = performance.now();
        found = (await client.query(`select tenant_id from ${name}($1)`, [LIMIT])).rowCount ?? 0;
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      process.stdout.write(
        `| ${name} | ${(rowsOf.get(table) ?? 0).toLocaleString('en-US')} | ${found} | ${scanNames.join('; ')} | ${read.toLocaleString('en-US')} | ${plan['Shared Hit Blocks'] ?? 0} / ${plan['Shared Read Blocks'] ?? 0} | ${times[Math.floor(CALLS / 2)]!.toFixed(2)} |\n`,
      );
    } catch (error) {
      await client.query('rollback');
      throw error;
    }
  }
} finally {
  await client.end();
  await database?.stop();
}
