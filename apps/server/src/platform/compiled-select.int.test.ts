import { randomUUID } from 'node:crypto';

import { and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import { boolean, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type TestApp, createTestApp } from '@/testing/test-app';

import { compileSelect } from './compiled-select';
import type { DbExecutor } from './db';

/** Two of the app's tables, declared here (platform code knows no module's tables). */
const sites = pgTable('sites', {
  tenantId: uuid().notNull(),
  id: uuid().notNull(),
  name: text().notNull(),
  overstayMinutes: integer().notNull(),
  isDefault: boolean().notNull(),
  createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
});
const userSites = pgTable('user_sites', {
  tenantId: uuid().notNull(),
  userId: uuid().notNull(),
  siteId: uuid().notNull(),
});

/**
 * Issue 27: a compiled select answers exactly what Drizzle answers for the same statement
 * (types, nulls, a left join's missing row, SQL expressions), with each call's own values.
 */
describe('compileSelect', () => {
  let t: TestApp;
  let acme: string;
  let globex: string;
  beforeAll(async () => {
    t = await createTestApp();
    const admin = await t.registerTenant();
    acme = admin.body.tenant.id;
    globex = (await t.registerTenant()).body.tenant.id;
    // A second site, and the admin assigned to the default one only: one joined row, one none.
    await t.ownerQuery(
      `insert into sites (tenant_id, id, name, overstay_minutes, created_at)
       values ($1, $2, 'North gate', 90, '2026-03-04T05:06:07.089Z')`,
      [acme, randomUUID()],
    );
    await t.ownerQuery(
      `insert into user_sites (tenant_id, user_id, site_id)
       select tenant_id, $2, id from sites where tenant_id = $1 and is_default`,
      [acme, admin.body.user.id],
    );
  });
  afterAll(() => t.close());

  type Values = { tenantId: string; minimumOverstay: number };
  const statement = (tx: DbExecutor, value: (name: keyof Values) => unknown) =>
    tx
      .select({
        ...getTableColumns(sites),
        shout: sql<string>`upper(${sites.name})`,
        doubled: sql<number>`${sites.overstayMinutes} * 2`.mapWith(Number),
        assigned: getTableColumns(userSites),
      })
      .from(sites)
      .leftJoin(
        userSites,
        and(eq(userSites.tenantId, sites.tenantId), eq(userSites.siteId, sites.id)),
      )
      .where(
        and(
          eq(sites.tenantId, value('tenantId') as string),
          sql`${sites.overstayMinutes} >= ${value('minimumOverstay')}`,
        ),
      )
      .orderBy(asc(sites.name));
  const compiled = compileSelect<Values, Awaited<ReturnType<typeof statement>>[number]>(
    (tx, placeholder) => statement(tx, placeholder),
  );
  const both = (values: Values) =>
    t.database.withTenant(values.tenantId, async (tx) => ({
      drizzle: await statement(tx, (name) => values[name]),
      compiled: await compiled.run(tx, values),
    }));

  it('answers as Drizzle does, a missing joined row as null', async () => {
    const { drizzle, compiled: rows } = await both({ tenantId: acme, minimumOverstay: 0 });
    expect(rows).toEqual(drizzle);
    expect(rows).toHaveLength(2);
    const north = rows.find((row) => row.name === 'North gate')!;
    expect(north).toMatchObject({ overstayMinutes: 90, doubled: 180, shout: 'NORTH GATE' });
    expect(north.createdAt).toEqual(new Date('2026-03-04T05:06:07.089Z'));
    expect(north.assigned).toBeNull();
    expect(rows.find((row) => row.isDefault)!.assigned).toMatchObject({ tenantId: acme });
  });

  it("uses each call's values with the statement built once", async () => {
    const fewer = await both({ tenantId: acme, minimumOverstay: 100 });
    expect(fewer.compiled).toEqual(fewer.drizzle);
    expect(fewer.compiled.map((row) => row.name)).not.toContain('North gate');
    const other = await both({ tenantId: globex, minimumOverstay: 0 });
    expect(other.compiled).toEqual(other.drizzle);
    expect(other.compiled).toHaveLength(1);
    expect(other.compiled[0]!.tenantId).toBe(globex);
  });

  it('refuses an executor it cannot send on rather than guessing', async () => {
    await expect(
      t.database.withoutTenant((tx) => compiled.run(tx, { tenantId: acme, minimumOverstay: 0 })),
    ).rejects.toThrow(/createDatabase executors/);
  });
});
