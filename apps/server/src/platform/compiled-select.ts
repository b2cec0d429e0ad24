import { Column, type Logger, type Placeholder, SQL, fillPlaceholders, is, sql } from 'drizzle-orm';
import pg from 'pg';

import type { DbExecutor } from './db';

/**
 * Hot lists' SELECTs, built by Drizzle once and sent as text after that (issue 27).
 *
 * Drizzle builds a query's SQL anew on every call (its `sql` tree walked, each column's casing
 * and typing looked up) and maps each row through `mapResultRow`, which checks every column's
 * class per row: a third of a 100-row entry page's Node time in the profile of issue 27
 * (docs/benchmarks.md). A compiled select keeps Drizzle as the one place the statement is
 * written (same builder, same columns, same types), but only the first call builds it, with
 * `sql.placeholder()` for every value; later calls send the same text with the values on the
 * transaction's own connection, and rows are mapped by decoders looked up once.
 *
 * Results are Drizzle's: the same type parsers (timestamps and dates left as text for the
 * column to decode), the same `mapFromDriverValue` per column, null kept as null. A nested
 * selection (`{ override: { reason: … } }`, from a left join) becomes null when every value in
 * it is null (Drizzle looks at the group's first column of a left-joined table): the same
 * answer whenever the group holds a NOT NULL column, which a nested selection must. Only
 * executors createDatabase hands out (the pool, withTenant, readTogether) can run one; others
 * (withoutTenant, a nested savepoint) throw rather than run outside the request's transaction.
 */

/** A select builder as Drizzle returns it, before it runs. */
export type BuiltSelect<Row> = PromiseLike<Row[]> & {
  toSQL(): { sql: string; params: unknown[] };
  _: { selectedFields: Record<string, unknown> };
};

export type CompiledSelect<Values extends Record<string, unknown>, Row> = {
  /** The rows, as the builder would have returned them for these values. */
  run(tx: DbExecutor, values: Values): Promise<Row[]>;
};

type Placeholders<Values> = <Name extends keyof Values & string>(
  name: Name,
) => Placeholder<Name, Values[Name]>;

/** The connection (and the statement logger) of each executor `createDatabase` hands out. */
type Connection = { client: pg.ClientBase | pg.Pool; logger: Logger | undefined };
const connections = new WeakMap<object, Connection>();

/** Called by createDatabase for the pool's Drizzle and each transaction it opens. */
export function registerConnection(executor: DbExecutor, connection: Connection): void {
  connections.set(executor, connection);
}

/**
 * Drizzle's own type parsers for node-postgres (drizzle-orm/node-postgres/session.js): date,
 * time and interval types arrive as text and the column decodes them.
 */
const AS_TEXT = new Set([
  pg.types.builtins.TIMESTAMPTZ,
  pg.types.builtins.TIMESTAMP,
  pg.types.builtins.DATE,
  pg.types.builtins.INTERVAL,
  1231, // numeric[]
  1115, // timestamp[]
  1185, // timestamptz[]
  1187, // interval[]
  1182, // date[]
]);
const asText = (value: string) => value;
const TYPES = {
  getTypeParser: (typeId: number, format?: 'text' | 'binary') =>
    AS_TEXT.has(typeId)
      ? asText
      : (pg.types.getTypeParser(typeId, format) as (value: string) => unknown),
};

type Decoder = { mapFromDriverValue(value: unknown): unknown };

type Plan = {
  text: string;
  params: unknown[];
  /** Per selected value in order: its key, and the nested key it belongs to (if any). */
  keys: string[];
  groups: (string | undefined)[];
  decoders: Decoder[];
};

/** A selected value's decoder (an SQL expression's is internal to Drizzle, hence the casts). */
function decoderOf(field: unknown): Decoder | undefined {
  if (is(field, Column)) return field;
  if (is(field, SQL)) return (field as unknown as { decoder: Decoder }).decoder;
  if (is(field, SQL.Aliased)) return (field.sql as unknown as { decoder: Decoder }).decoder;
  return undefined;
}

/**
 * The selected values in the order Drizzle writes them into the statement (its
 * `orderSelectedFields`, not exported: object order, a nested object's values in place).
 */
function orderedFields(fields: Record<string, unknown>, group?: string) {
  const ordered: { key: string; group: string | undefined; decoder: Decoder }[] = [];
  for (const [key, field] of Object.entries(fields)) {
    const decoder = decoderOf(field);
    if (decoder) ordered.push({ key, group, decoder });
    else if (group === undefined && typeof field === 'object' && field !== null)
      ordered.push(...orderedFields(field as Record<string, unknown>, key));
    else throw new TypeError('compiled selects take columns and sql, nested one level at most');
  }
  return ordered;
}

function planOf(query: BuiltSelect<unknown>): Plan {
  const { sql: text, params } = query.toSQL();
  const plan: Plan = { text, params, keys: [], groups: [], decoders: [] };
  for (const { key, group, decoder } of orderedFields(query._.selectedFields)) {
    plan.keys.push(key);
    plan.groups.push(group);
    plan.decoders.push(decoder);
  }
  return plan;
}

function mapRow(plan: Plan, row: unknown[]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  const { keys, groups, decoders } = plan;
  let group: Record<string, unknown> | undefined;
  let groupHasValue = false;
  for (let i = 0; i < keys.length; i++) {
    const raw = row[i];
    const value = raw === null ? null : decoders[i]!.mapFromDriverValue(raw);
    const groupKey = groups[i];
    if (groupKey === undefined) {
      result[keys[i]!] = value;
      continue;
    }
    if (result[groupKey] === undefined) {
      group = {};
      groupHasValue = false;
      result[groupKey] = group;
    }
    group![keys[i]!] = value;
    if (value !== null) groupHasValue = true;
    if (groups[i + 1] !== groupKey && !groupHasValue) result[groupKey] = null;
  }
  return result;
}

/**
 * `build` receives the executor the first call runs on and a placeholder maker; it must return
 * the same statement whatever the values (one compiled select per shape: a first page and a
 * page after a cursor are two).
 */
export function compileSelect<Values extends Record<string, unknown>, Row>(
  build: (tx: DbExecutor, value: Placeholders<Values>) => BuiltSelect<unknown>,
): CompiledSelect<Values, Row> {
  let plan: Plan | undefined;
  const value: Placeholders<Values> = <Name extends keyof Values & string>(name: Name) =>
    sql.placeholder(name) as Placeholder<Name, Values[Name]>;
  return {
    async run(tx, values) {
      plan ??= planOf(build(tx, value));
      const connection = connections.get(tx);
      if (!connection) throw new TypeError('compiled selects run on createDatabase executors');
      const params = fillPlaceholders(plan.params, values);
      connection.logger?.logQuery(plan.text, params);
      const result = await connection.client.query<unknown[]>({
        text: plan.text,
        values: params,
        rowMode: 'array',
        types: TYPES,
      });
      const rows = result.rows;
      const mapped = new Array<Row>(rows.length);
      for (let i = 0; i < rows.length; i++) mapped[i] = mapRow(plan, rows[i]!) as Row;
      return mapped;
    },
  };
}
