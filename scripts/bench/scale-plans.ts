import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';

import { entryListQuery } from '@/modules/entry-logs/entry-logs.repository';
import { truckListQuery } from '@/modules/truck-list/truck-list.repository';
import { openVisitsQuery } from '@/modules/visits/visits.repository';
import { incomingRequestListQuery } from '@/modules/webhooks/webhooks.repository';
import { startEmbeddedPostgres } from '@/platform/embedded-postgres';
import type { PageCursor } from '@/platform/page-cursor';
import { loadOrCreateSecrets } from '@/platform/secrets';

import { SCALE_DATA_DIR } from '../lib/scale-database';

/**
 * `npm run bench:scale-plans [-- --entries N]` (issue 27): the plans of the hot lists' pages on the
 * scale data (`npm run seed:scale` first), first page and pages at growing depths of the large
 * tenant's lists, each EXPLAIN (ANALYZE, BUFFERS) of the SQL the repositories build (Drizzle's own
 * text and parameters), run as the API role under the tenant's row-level security, as a request
 * runs it. Prints one line per page: the index, rows read, buffers touched, execution time. Plan
 * shape and buffers do not depend on how busy the machine is, which timings do: this is the
 * evidence that a page's cost does not grow with its depth or the table's size. Read-only (every
 * EXPLAIN runs in a transaction that is rolled back); 100 rows a page, as the app asks.
 */
const PAGE = 100;
/** Depths as fractions of the list: the newest page, then ever older ones down to the last. */
const DEPTHS = [0, 0.01, 0.1, 0.5, 0.9, 0.999];

type PlanNode = {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  'Heap Fetches'?: number;
  Plans?: PlanNode[];
};
const flatten = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];

const secrets = await loadOrCreateSecrets(SCALE_DATA_DIR);
const database = process.env.DATABASE_URL
  ? undefined
  : await startEmbeddedPostgres({
      dataDir: SCALE_DATA_DIR,
      password: secrets.databaseSuperuserPassword,
    });
const client = new pg.Client({ connectionString: process.env.DATABASE_URL ?? database?.ownerUrl });
await client.connect();
// Builds SQL only: no query goes through this instance.
const builder = drizzle({ client: new pg.Pool(), casing: 'snake_case' });
try {
  const { rows: tenants } = await client.query<{ id: string }>(
    "select id from tenants where name like '%(large)'",
  );
  const tenantId = tenants[0]?.id;
  if (!tenantId) throw new Error(`no scale data in ${SCALE_DATA_DIR}: npm run seed:scale first`);
  type Query = { toSQL(): { sql: string; params: unknown[] } };
  const lists: {
    name: string;
    table: string;
    key: string;
    where?: string;
    query: (after?: PageCursor) => Query;
  }[] = [
    {
      name: 'entry logs',
      table: 'entry_logs',
      key: '"timestamp"',
      query: (after) => entryListQuery(builder, tenantId, PAGE + 1, after, null),
    },
    {
      name: 'truck list',
      table: 'truck_list_entries',
      key: '"timestamp"',
      query: (after) => truckListQuery(builder, tenantId, null, PAGE + 1, after),
    },
    {
      name: 'incoming feed',
      table: 'incoming_requests',
      key: '"timestamp"',
      query: (after) => incomingRequestListQuery(builder, tenantId, null, PAGE + 1, after),
    },
    {
      name: 'on site',
      table: 'visits',
      key: 'entered_at',
      where: 'and exited_at is null',
      query: (after) => openVisitsQuery(builder, tenantId, null, PAGE + 1, after),
    },
  ];
  const { rows: sizes } = await client.query<{ n: string }>(
    'select count(*) as n from entry_logs where tenant_id = $1',
    [tenantId],
  );
  process.stdout.write(
    `${SCALE_DATA_DIR}: the large tenant has ${Number(sizes[0]?.n).toLocaleString('en-US')} entry logs\n` +
      '| list | page at depth (rows newer) | plan (index) | rows read | buffers hit / read | heap fetches | planning ms | execution ms |\n' +
      '|---|---|---|---|---|---|---|---|\n',
  );
  for (const list of lists) {
    const { rows: counted } = await client.query<{ n: number }>(
      `select count(*)::int as n from ${list.table} where tenant_id = $1 ${list.where ?? ''}`,
      [tenantId],
    );
    const total = counted[0]?.n ?? 0;
    for (const depth of DEPTHS) {
      const offset = Math.min(Math.floor(total * depth), Math.max(total - 1, 0));
      let after: PageCursor | undefined;
      if (depth > 0) {
        // The cursor the previous page would hand out: the row just newer than the page.
        const { rows } = await client.query<{ timestamp: Date; id: string }>(
          `select ${list.key} as timestamp, id from ${list.table} where tenant_id = $1 ${list.where ?? ''}
           order by ${list.key} desc, id desc offset $2 limit 1`,
          [tenantId, offset],
        );
        if (!rows[0]) continue;
        after = rows[0];
      }
      const { sql, params } = list.query(after).toSQL();
      await client.query('begin');
      try {
        await client.query('set local role boomgate_app');
        await client.query("select set_config('app.tenant_id', $1, true)", [tenantId]);
        const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode } & object] }>(
          `explain (analyze, buffers, format json) ${sql}`,
          params,
        );
        const result = rows[0]!['QUERY PLAN'][0] as {
          Plan: PlanNode;
          'Planning Time': number;
          'Execution Time': number;
        };
        const nodes = flatten(result.Plan);
        const scans = nodes.filter((n) => n['Relation Name']);
        const indexes = [
          ...new Set(
            scans.map((n) =>
              n['Index Name']
                ? `${n['Node Type'].replace(' Scan', '')} ${n['Index Name']}`
                : `${n['Node Type']} ${n['Relation Name']}`,
            ),
          ),
        ];
        const top = result.Plan;
        const heapFetches = scans.reduce((n, s) => n + (s['Heap Fetches'] ?? 0), 0);
        process.stdout.write(
          `| ${list.name} | ${depth === 0 ? 'first page' : `${offset.toLocaleString('en-US')} (${(depth * 100).toFixed(1)} %)`} | ${indexes.join('; ')} | ${top['Actual Rows']} | ${top['Shared Hit Blocks'] ?? 0} / ${top['Shared Read Blocks'] ?? 0} | ${heapFetches} | ${result['Planning Time'].toFixed(2)} | ${result['Execution Time'].toFixed(2)} |\n`,
        );
      } finally {
        await client.query('rollback');
      }
    }
  }
} finally {
  await client.end();
  await database?.stop();
}
