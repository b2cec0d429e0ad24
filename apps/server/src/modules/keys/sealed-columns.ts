import { type SQL, sql } from 'drizzle-orm';

import type { Database, DbExecutor } from '@/platform/db';
import { type ColumnSealer, isSealedValue } from '@/platform/sealing';

/**
 * One sealed column of a table: its values are `sv1.…` sealed with the tenant's data key (the
 * associated data names `table.column`); `hash`, when given, is the column beside it holding the
 * keyed hash (blind index) of the plain value, under `domain` (`key` turns the plain value into
 * what is hashed, e.g. the watchlist's normalised match key; the value itself when absent).
 */
export type SealedColumn = {
  column: string;
  hash?: {
    column: string;
    /** The blind-index domain, or one chosen by the value (identityNumberDomain). */
    domain: string | ((plain: string) => string);
    key?: (plain: string) => string;
  };
};

/**
 * A table with sealed columns, as the keys module's jobs see it: keys.seal-stored-data seals the
 * rows stored before sealing (plain values, or a hash still missing), keys.reseal re-seals those
 * sealed with a data key other than the active one. Each module describes its table once; the
 * walk is the same for every table. Names are SQL identifiers written by the module (never input).
 */
export type SealedColumns = {
  table: string;
  /** Primary key column (uuid). */
  id: string;
  tenant: string;
  columns: readonly SealedColumn[];
  /** Which rows hold sealed values (e.g. `kind = 'idNumber'`); every row when absent. */
  scope?: SQL;
  /**
   * The SECURITY DEFINER lookup (boomgate_jobs) naming tenants that still have rows to seal:
   * `select tenant_id from <fn>(limit)`. The walk itself runs in each tenant's transaction.
   */
  unsealedTenants: string;
};

/**
 * The walk the keys service runs over a registered table, for one tenant, to the end: batches in
 * primary-key order (a keyset, so a million rows are read once, not rescanned per batch), each in
 * its own tenant transaction and written by one statement. Returns how many rows it changed.
 */
export type SealedTable = {
  name: string;
  unsealedTenants(limit: number): Promise<string[]>;
  sealStored(tenantId: string, batch: number): Promise<number>;
  resealOlder(tenantId: string, version: number, batch: number): Promise<number>;
  /**
   * How many of the tenant's rows a data key other than `version` sealed: GET /api/keys/status,
   * and the check before an old data key is erased (every table has one, so no row the re-seal
   * walk left behind is lost with its key). 0 for a table holding nothing under a data key.
   * Counted in `tx`, the tenant's transaction: the erasure counts in the transaction that holds
   * the tenant's data keys locked and erases the old one (keys.service `assertNoRowsLeft`).
   */
  countOlder(tx: DbExecutor, tenantId: string, version: number): Promise<number>;
};

const id = (name: string) => sql.identifier(name);
// A literal, not a parameter: the planner matches it against partial indexes' predicates.
const SEALED = sql.raw(`'sv1.%'`);

/**
 * Rows of `table` matching `condition`, counted in the tenant's transaction `tx` (row-level security
 * keeps the count to the tenant): keys.reseal's count of rows still under an old data key
 * (SealedTable.countOlder).
 */
export async function countTenantRows(tx: DbExecutor, table: SQL, condition: SQL): Promise<number> {
  const result = await tx.execute<{ n: number }>(
    sql`select count(*)::int as n from ${table} where ${condition}`,
  );
  return result.rows[0]?.n ?? 0;
}

/** The column's associated-data name (`table.column`), as repositories seal and open it. */
export const sealedColumnName = (spec: Pick<SealedColumns, 'table'>, column: string) =>
  `${spec.table}.${column}`;

/**
 * Rows still to seal, as SQL: a value still plain, or sealed without its hash beside it yet.
 * A table may index exactly this predicate (entry_logs_unsealed_idx).
 */
export const unsealedPredicate = (columns: readonly SealedColumn[]): SQL =>
  sql.join(
    columns.map((c) =>
      c.hash
        ? sql`(${id(c.column)} is not null and (${id(c.hash.column)} is null or ${id(c.column)} not like ${SEALED}))`
        : sql`(${id(c.column)} is not null and ${id(c.column)} not like ${SEALED})`,
    ),
    sql` or `,
  );

export function createSealedTable(
  spec: SealedColumns,
  { database, sealer }: { database: Pick<Database, 'withTenant' | 'db'>; sealer: ColumnSealer },
): SealedTable {
  const written = spec.columns.flatMap((c) => [c.column, ...(c.hash ? [c.hash.column] : [])]);
  const selected = sql.join(
    [sql`${id(spec.id)}::text as "id"`, ...written.map((column) => sql`${id(column)}`)],
    sql`, `,
  );
  const unsealed = unsealedPredicate(spec.columns);
  const olderThan = (version: number) =>
    sql.join(
      spec.columns.map(
        (c) =>
          sql`(${id(c.column)} like ${SEALED} and ${id(c.column)} not like ${`sv1.${version}.%`})`,
      ),
      sql` or `,
    );

  type Row = Record<string, string | null> & { id: string };
  type Changes = Map<string, string>;

  async function batchAfter(
    tx: DbExecutor,
    tenantId: string,
    condition: SQL,
    after: string | null,
    limit: number,
  ) {
    return (
      await tx.execute<Row>(
        sql`select ${selected} from ${id(spec.table)}
            where ${id(spec.tenant)} = ${tenantId}::uuid and (${spec.scope ?? sql`true`})
              and (${condition}) ${after === null ? sql`` : sql`and ${id(spec.id)} > ${after}::uuid`}
            order by ${id(spec.id)} limit ${limit}::int`,
      )
    ).rows;
  }

  /**
   * One statement for the batch; a column a row does not change keeps its value (coalesce), so an
   * erase-only trigger sees only the changes sealing makes.
   */
  async function write(tx: DbExecutor, tenantId: string, changed: [string, Changes][]) {
    if (changed.length === 0) return;
    const values = sql.join(
      changed.map(
        ([rowId, changes]) =>
          sql`(${rowId}::uuid, ${sql.join(
            written.map((column) => sql`${changes.get(column) ?? null}::text`),
            sql`, `,
          )})`,
      ),
      sql`, `,
    );
    const set = sql.join(
      written.map((column) => sql`${id(column)} = coalesce(v.${id(column)}, t.${id(column)})`),
      sql`, `,
    );
    await tx.execute(
      sql`update ${id(spec.table)} t set ${set}
          from (values ${values}) as v(${sql.join([id('id'), ...written.map(id)], sql`, `)})
          where t.${id(spec.tenant)} = ${tenantId}::uuid and t.${id(spec.id)} = v.id`,
    );
  }

  /** Walks the tenant's rows matching `condition` to the end, `change` deciding each row's writes. */
  async function walk(
    tenantId: string,
    condition: SQL,
    batch: number,
    change: (row: Row) => Promise<Changes>,
  ): Promise<number> {
    let after: string | null = null;
    let total = 0;
    for (;;) {
      const found = await database.withTenant(tenantId, async (tx) => {
        const rows = await batchAfter(tx, tenantId, condition, after, batch);
        const changed: [string, Changes][] = [];
        for (const row of rows) {
          const changes = await change(row);
          if (changes.size > 0) changed.push([row.id, changes]);
        }
        await write(tx, tenantId, changed);
        total += changed.length;
        return rows;
      });
      if (found.length < batch) return total;
      after = found[found.length - 1]!.id;
    }
  }

  return {
    name: spec.table,

    // Run in the tenant's transaction, so row-level security keeps the count to the tenant.
    countOlder: (tx, tenantId, version) =>
      countTenantRows(
        tx,
        sql`${id(spec.table)}`,
        sql`${id(spec.tenant)} = ${tenantId}::uuid and (${spec.scope ?? sql`true`})
            and (${olderThan(version)})`,
      ),

    unsealedTenants: async (limit) =>
      (
        await database.db.execute<{ tenant_id: string }>(
          sql`select tenant_id from ${id(spec.unsealedTenants)}(${limit}::int)`,
        )
      ).rows.map((row) => row.tenant_id),

    sealStored: (tenantId, batch) =>
      walk(tenantId, unsealed, batch, async (row) => {
        const changes: Changes = new Map();
        for (const c of spec.columns) {
          const stored = row[c.column];
          if (stored === null || stored === undefined) continue;
          const name = sealedColumnName(spec, c.column);
          const plain = await sealer.open(tenantId, name, stored);
          if (!isSealedValue(stored))
            changes.set(c.column, await sealer.seal(tenantId, name, plain));
          if (c.hash) {
            const { domain } = c.hash;
            const hash = await sealer.index(
              tenantId,
              typeof domain === 'string' ? domain : domain(plain),
              c.hash.key?.(plain) ?? plain,
            );
            if (row[c.hash.column] !== hash) changes.set(c.hash.column, hash);
          }
        }
        return changes;
      }),

    resealOlder: (tenantId, version, batch) =>
      walk(tenantId, olderThan(version), batch, async (row) => {
        const changes: Changes = new Map();
        for (const c of spec.columns) {
          const stored = row[c.column];
          if (!stored || !isSealedValue(stored) || stored.startsWith(`sv1.${version}.`)) continue;
          const name = sealedColumnName(spec, c.column);
          const plain = await sealer.open(tenantId, name, stored);
          changes.set(c.column, await sealer.seal(tenantId, name, plain));
        }
        return changes;
      }),
  };
}
