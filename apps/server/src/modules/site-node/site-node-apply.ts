import { sql } from 'drizzle-orm';

import {
  SITE_SYNC_TABLES,
  type SiteSyncChange,
  type SiteSyncChangesPage,
  type SiteSyncTable,
} from '@boomgate/contracts/site-sync';

import type { Tx } from '@/platform/db';

type TableShape = { columns: ReadonlySet<string>; key: readonly string[] };

/** Reads a synced table's writable columns and primary key from the catalogue (once per table). */
export function createTableShapes() {
  const shapes = new Map<SiteSyncTable, TableShape>();
  return async function shapeOf(tx: Tx, table: SiteSyncTable): Promise<TableShape> {
    const known = shapes.get(table);
    if (known) return known;
    const columns = await tx.execute<{ name: string }>(sql`
      select column_name as name from information_schema.columns
      where table_schema = 'public' and table_name = ${table} and is_generated = 'NEVER'`);
    const key = await tx.execute<{ name: string }>(sql`
      select a.attname as name
      from pg_index i
      join lateral unnest(i.indkey) with ordinality as k(attnum, position) on true
      join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
      where i.indrelid = ${`public.${table}`}::regclass and i.indisprimary
      order by k.position`);
    if (columns.rows.length === 0 || key.rows.length === 0)
      throw new Error(`site sync: table ${table} is missing or has no primary key on this node`);
    const shape = {
      columns: new Set(columns.rows.map((row) => row.name)),
      key: key.rows.map((row) => row.name),
    };
    shapes.set(table, shape);
    return shape;
  };
}

export type TableShapes = ReturnType<typeof createTableShapes>;

const ident = (name: string) => sql.raw(`"${name.replaceAll('"', '""')}"`);

/**
 * The columns a tombstone's `id` names: the primary key without `tenant_id` (every synced table's
 * key leads with it), e.g. `id`; a key of several columns is `a:b` in key order (user_sites:
 * `<user_id>:<site_id>`); a table keyed by the tenant alone (its settings) deletes the tenant's row.
 */
function tombstoneKey(shape: TableShape, change: SiteSyncChange, tenantId: string) {
  const scope = shape.key.includes('tenant_id') ? [['tenant_id', tenantId] as const] : [];
  const columns = shape.key.filter((column) => column !== 'tenant_id');
  if (columns.length === 0) return scope;
  const values = columns.length === 1 ? [change.id] : change.id.split(':');
  if (values.length !== columns.length)
    throw new Error(`site sync: tombstone id ${change.id} does not name ${columns.join(', ')}`);
  return [...scope, ...columns.map((column, i) => [column, values[i] ?? ''] as const)];
}

/**
 * Applies one verified page in the caller's transaction (with the page's tenant set): the latest
 * change per row only, tombstones first (children before parents), then upserts in the order of
 * SITE_SYNC_TABLES (parents before children). A row is converted by PostgreSQL itself
 * (`jsonb_populate_record` against the table's own row type), so every column type arrives as
 * central stored it; columns this node does not have (central upgraded first) are left out.
 */
export async function applyChangesPage(
  tx: Tx,
  page: SiteSyncChangesPage,
  shapeOf: TableShapes,
): Promise<{ upserted: number; deleted: number }> {
  const latest = new Map<string, SiteSyncChange>();
  for (const change of page.changes) {
    const key = `${change.table}\u0000${change.id}`;
    const seen = latest.get(key);
    if (!seen || seen.version < change.version) latest.set(key, change);
  }
  const order = (change: SiteSyncChange) => SITE_SYNC_TABLES.indexOf(change.table);
  const changes = [...latest.values()];
  const tombstones = changes.filter((change) => change.deleted).sort((a, b) => order(b) - order(a));
  const upserts = changes.filter((change) => !change.deleted).sort((a, b) => order(a) - order(b));

  for (const change of tombstones) {
    const shape = await shapeOf(tx, change.table);
    const where = sql.join(
      tombstoneKey(shape, change, page.tenantId).map(
        ([column, value]) => sql`${ident(column)}::text = ${value}`,
      ),
      sql` and `,
    );
    await tx.execute(sql`delete from ${ident(change.table)} where ${where}`);
  }
  for (const change of upserts) {
    const shape = await shapeOf(tx, change.table);
    // Central's change stamps (`sync_version`, `sync_changed_at`, set by its triggers) are not in
    // the row it sends; where this node's table has them, they record the version applied. (The
    // triggers that would set them are off while a page applies; see relaxReferences.)
    const row: Record<string, unknown> = { ...change.row };
    if (shape.columns.has('sync_version') && row.sync_version === undefined)
      row.sync_version = change.version;
    if (shape.columns.has('sync_changed_at') && row.sync_changed_at === undefined)
      row.sync_changed_at = page.generatedAt;
    const owner = change.table === 'tenants' ? row.id : row.tenant_id;
    if (owner !== page.tenantId)
      throw new Error(`site sync: a ${change.table} row of another tenant`);
    const columns = Object.keys(row).filter((column) => shape.columns.has(column));
    for (const column of shape.key)
      if (!columns.includes(column))
        throw new Error(`site sync: a ${change.table} row without its key column ${column}`);
    const list = sql.join(columns.map(ident), sql`, `);
    const others = columns.filter((column) => !shape.key.includes(column));
    const update =
      others.length === 0
        ? sql`do nothing`
        : sql`do update set ${sql.join(
            others.map((column) => sql`${ident(column)} = excluded.${ident(column)}`),
            sql`, `,
          )}`;
    await tx.execute(sql`
      insert into ${ident(change.table)} (${list})
      select ${list} from jsonb_populate_record(null::${ident(change.table)}, ${JSON.stringify(row)}::jsonb)
      on conflict (${sql.join(shape.key.map(ident), sql`, `)}) ${update}`);
  }
  return { upserted: upserts.length, deleted: tombstones.length };
}
