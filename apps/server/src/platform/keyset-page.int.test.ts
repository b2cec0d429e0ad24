import { randomUUID } from 'node:crypto';

import { desc } from 'drizzle-orm';
import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type TestApp, createTestApp } from '@/testing/test-app';

import type { DbExecutor } from './db';
import {
  type PageShape,
  type PageValue,
  compiledPages,
  pageShape,
  pageValues,
  pageWhere,
  valuesOf,
} from './keyset-page';

/** The app's sites table, declared here (platform code knows no module's tables). */
const sites = pgTable('sites', {
  tenantId: uuid().notNull(),
  id: uuid().notNull(),
  name: text().notNull(),
  createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
});

/**
 * Issue 27: a hot list's keyset page, compiled once per shape, answers every shape (every site,
 * one, several; first page or after a cursor) as the statement sent as built does.
 */
describe('compiledPages', () => {
  let t: TestApp;
  let tenantId: string;
  const ids: string[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    tenantId = (await t.registerTenant()).body.tenant.id;
    for (let i = 0; i < 5; i++) {
      const id = randomUUID();
      ids.push(id);
      await t.ownerQuery(
        `insert into sites (tenant_id, id, name, created_at) values ($1, $2, $3, $4)`,
        [tenantId, id, `Site ${i}`, new Date(Date.UTC(2026, 0, 1 + i)).toISOString()],
      );
    }
  });
  afterAll(() => t.close());

  const statement = (tx: DbExecutor, shape: PageShape, value: PageValue) =>
    tx
      .select({ id: sites.id, name: sites.name, timestamp: sites.createdAt })
      .from(sites)
      .where(
        pageWhere(
          { tenantId: sites.tenantId, siteId: sites.id, key: sites.createdAt, id: sites.id },
          shape,
          value,
        ),
      )
      .orderBy(desc(sites.createdAt), desc(sites.id))
      .limit(value('limit') as number);
  const pages = compiledPages<{ id: string; name: string; timestamp: Date }>(statement);

  const page = (siteIds: string[] | null, after?: { timestamp: Date; id: string }) =>
    t.database.withTenant(tenantId, async (tx) => ({
      built: await statement(
        tx,
        pageShape(after, siteIds),
        valuesOf(pageValues(tenantId, 2, after, siteIds)),
      ),
      compiled: await pages.run(tx, tenantId, 2, after, siteIds),
    }));

  it('answers each shape as the statement built with its values', async () => {
    const names = (rows: { name: string }[]) => rows.map((row) => row.name);
    // Five sites of ours plus the tenant's default one (created at registration, newest).
    const every = await page(null);
    expect(every.compiled).toEqual(every.built);
    expect(every.compiled).toHaveLength(2);

    const one = await page([ids[1]!]);
    expect(one.compiled).toEqual(one.built);
    expect(names(one.compiled)).toEqual(['Site 1']);

    const several = await page([ids[0]!, ids[2]!, ids[3]!]);
    expect(several.compiled).toEqual(several.built);
    expect(names(several.compiled)).toEqual(['Site 3', 'Site 2']);

    const last = several.compiled.at(-1)!;
    const next = await page([ids[0]!, ids[2]!, ids[3]!], {
      timestamp: last.timestamp,
      id: last.id,
    });
    expect(next.compiled).toEqual(next.built);
    expect(names(next.compiled)).toEqual(['Site 0']);
  });
});
