import { type Column, type SQL, and, eq, param, sql } from 'drizzle-orm';

import { type BuiltSelect, type CompiledSelect, compileSelect } from './compiled-select';
import type { DbExecutor } from './db';
import type { PageCursor } from './page-cursor';

/**
 * A tenant's list, newest first, one keyset page at a time (issue 27): the hot lists' common
 * WHERE, and their statements compiled once per shape (platform/compiled-select.ts).
 */

/** Which statement a page needs: the caller's sites (every site, one, several), after a cursor or not. */
export type PageShape = { sites: 'every' | 'one' | 'several'; isAfter: boolean };

/** A page's values, by name (the statement's placeholders). */
export type PageValues = {
  tenantId: string;
  limit: number;
  siteId?: string;
  siteIds?: string[];
  afterTimestamp?: string;
  afterId?: string;
};

/** The value of a name: the value itself, or the placeholder a compiled statement fills. */
export type PageValue = (name: keyof PageValues) => unknown;

export function pageShape(after: PageCursor | undefined, siteIds: readonly string[] | null) {
  const sites = siteIds === null ? 'every' : siteIds.length === 1 ? 'one' : 'several';
  return { sites, isAfter: after !== undefined } as const satisfies PageShape;
}

export function pageValues(
  tenantId: string,
  limit: number,
  after: PageCursor | undefined,
  siteIds: readonly string[] | null,
): PageValues {
  return {
    tenantId,
    limit,
    ...(siteIds?.length === 1 ? { siteId: siteIds[0] } : siteIds ? { siteIds: [...siteIds] } : {}),
    ...(after ? { afterTimestamp: after.timestamp.toISOString(), afterId: after.id } : {}),
  };
}

/** The value a page's statement is built with when it is sent as built (explained, not compiled). */
export const valuesOf =
  (values: PageValues): PageValue =>
  (name) =>
    values[name];

/**
 * The page's conditions: the tenant, its sites (one, several by `= any`, or every site), and
 * rows older than the cursor by (`key`, id). `extra` are the list's own conditions.
 */
export function pageWhere(
  columns: { tenantId: Column; siteId: Column; key: Column; id: Column },
  shape: PageShape,
  value: PageValue,
  ...extra: (SQL | undefined)[]
) {
  // An array is one parameter (Drizzle would spread it into a row of parameters); a
  // placeholder already is one.
  const siteIds = value('siteIds');
  return and(
    eq(columns.tenantId, value('tenantId')),
    shape.sites === 'one' ? eq(columns.siteId, value('siteId')) : undefined,
    shape.sites === 'several'
      ? sql`${columns.siteId} = any(${Array.isArray(siteIds) ? param(siteIds) : siteIds}::uuid[])`
      : undefined,
    ...extra,
    shape.isAfter
      ? sql`(${columns.key}, ${columns.id}) < (${value('afterTimestamp')}::timestamptz, ${value('afterId')}::uuid)`
      : undefined,
  );
}

/**
 * A list's statement compiled once per shape. `statement` builds it for a shape from `value`
 * (placeholders here); `run` sends the page's values.
 */
export function compiledPages<Row, Built extends BuiltSelect<unknown> = BuiltSelect<unknown>>(
  statement: (tx: DbExecutor, shape: PageShape, value: PageValue) => Built,
) {
  const byShape = new Map<string, CompiledSelect<PageValues, Row>>();
  return {
    /** The page's statement with its values, as sent (`npm run bench:scale-plans` explains it). */
    built(
      tx: DbExecutor,
      tenantId: string,
      limit: number,
      after: PageCursor | undefined,
      siteIds: readonly string[] | null,
    ): Built {
      return statement(
        tx,
        pageShape(after, siteIds),
        valuesOf(pageValues(tenantId, limit, after, siteIds)),
      );
    },
    run(
      tx: DbExecutor,
      tenantId: string,
      limit: number,
      after: PageCursor | undefined,
      siteIds: readonly string[] | null,
    ): Promise<Row[]> {
      const shape = pageShape(after, siteIds);
      const key = `${shape.sites}:${shape.isAfter}`;
      let compiled = byShape.get(key);
      if (!compiled) {
        compiled = compileSelect<PageValues, Row>((builder, placeholder) =>
          statement(builder, shape, placeholder),
        );
        byShape.set(key, compiled);
      }
      return compiled.run(tx, pageValues(tenantId, limit, after, siteIds));
    },
  };
}
