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
  hash?: { column: string; domain: string; key?: (plain: string) => string };
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

/** The walk the keys service runs over a registered table, a batch per call (0: done). */
export type SealedTable = {
  name: string;
  unsealedTenants(limit: number): Promise<string[]>;
  sealStored(tenantId: string, limit: number): Promise<number>;
  resealOlder(tenantId: string, version: number, limit: number): Promise<number>;
};

const id = (name: string) => sql.identifier(name);
const SEALED = 'sv1.%';

/** The column's associated-data name (`table.column`), as repositories seal and open it. */
export const sealedColumnName = (spec: Pick<SealedColumns, 'table'>, column: string) =>
  `${spec.table}.${column}`;

export function createSealedTable(
  spec: SealedColumns,
  { database, sealer }: { database: Pick<Database, 'withTenant' | 'db'>; sealer: ColumnSealer },
): SealedTable {
  const selected = sql.join(
    [
      sql`${id(spec.id)}::text as "id"`,
      ...spec.columns.map((c) => sql`${id(c.column)} as ${id(c.column)}`),
      ...spec.columns.flatMap((c) =>
        c.hash ? [sql`${id(c.hash.column)} as ${id(c.hash.column)}`] : [],
      ),
    ],
    sql`, `,
  );
  const inScope = (tenantId: string, condition: SQL) =>
    sql`${id(spec.tenant)} = ${tenantId}::uuid and (${spec.scope ?? sql`true`}) and (${condition})`;
  const anyOf = (conditions: SQL[]) => sql.join(conditions, sql` or `);

  // A row to seal: a value still plain, or sealed without its hash beside it yet.
  const unsealed = anyOf(
    spec.columns.flatMap((c) => [
      sql`(${id(c.column)} is not null and ${id(c.column)} not like ${SEALED})`,
      ...(c.hash ? [sql`(${id(c.column)} is not null and ${id(c.hash.column)} is null)`] : []),
    ]),
  );
  const olderThan = (version: number) =>
    anyOf(
      spec.columns.map(
        (c) =>
          sql`(${id(c.column)} like ${SEALED} and ${id(c.column)} not like ${`sv1.${version}.%`})`,
      ),
    );

  type Row = Record<string, string | null> & { id: string };

  async function rows(tx: DbExecutor, tenantId: string, condition: SQL, limit: number) {
    return (
      await tx.execute<Row>(
        sql`select ${selected} from ${id(spec.table)} where ${inScope(tenantId, condition)} limit ${limit}::int`,
      )
    ).rows;
  }

  /** Writes only the columns that change (an erase-only trigger sees nothing else moving). */
  async function write(tx: DbExecutor, tenantId: string, row: Row, changes: Map<string, string>) {
    if (changes.size === 0) return;
    const set = sql.join(
      [...changes].map(([column, value]) => sql`${id(column)} = ${value}`),
      sql`, `,
    );
    await tx.execute(
      sql`update ${id(spec.table)} set ${set} where ${id(spec.tenant)} = ${tenantId}::uuid and ${id(spec.id)} = ${row.id}::uuid`,
    );
  }

  return {
    name: spec.table,

    unsealedTenants: async (limit) =>
      (
        await database.db.execute<{ tenant_id: string }>(
          sql`select tenant_id from ${id(spec.unsealedTenants)}(${limit}::int)`,
        )
      ).rows.map((row) => row.tenant_id),

    sealStored: (tenantId, limit) =>
      database.withTenant(tenantId, async (tx) => {
        const found = await rows(tx, tenantId, unsealed, limit);
        for (const row of found) {
          const changes = new Map<string, string>();
          for (const c of spec.columns) {
            const stored = row[c.column];
            if (stored === null || stored === undefined) continue;
            const name = sealedColumnName(spec, c.column);
            const plain = await sealer.open(tenantId, name, stored);
            if (!isSealedValue(stored))
              changes.set(c.column, await sealer.seal(tenantId, name, plain));
            if (c.hash) {
              const hash = await sealer.index(
                tenantId,
                c.hash.domain,
                c.hash.key?.(plain) ?? plain,
              );
              if (row[c.hash.column] !== hash) changes.set(c.hash.column, hash);
            }
          }
          await write(tx, tenantId, row, changes);
        }
        return found.length;
      }),

    resealOlder: (tenantId, version, limit) =>
      database.withTenant(tenantId, async (tx) => {
        const found = await rows(tx, tenantId, olderThan(version), limit);
        for (const row of found) {
          const changes = new Map<string, string>();
          for (const c of spec.columns) {
            const stored = row[c.column];
            if (!stored || !isSealedValue(stored) || stored.startsWith(`sv1.${version}.`)) continue;
            const name = sealedColumnName(spec, c.column);
            changes.set(
              c.column,
              await sealer.seal(tenantId, name, await sealer.open(tenantId, name, stored)),
            );
          }
          await write(tx, tenantId, row, changes);
        }
        return found.length;
      }),
  };
}
