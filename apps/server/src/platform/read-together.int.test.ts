import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type TestApp, createTestApp } from '@/testing/test-app';

import { type Tx, createDatabase } from './db';

/** Issue 23: a report's independent reads side by side, on one snapshot of one tenant. */
describe('readTogether', () => {
  let t: TestApp;
  let acme: string;
  let globex: string;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp();
    acme = (await t.registerTenant()).body.tenant.id;
    globex = (await t.registerTenant()).body.tenant.id;
    url = (t.database.pool as unknown as { options: { connectionString: string } }).options
      .connectionString;
  });
  afterAll(() => t.close());

  const where = async (tx: Tx) =>
    (
      await tx.execute<{ pid: number; snapshot: string; isolation: string; tenant: string }>(sql`
        select pg_backend_pid() as pid, pg_current_snapshot()::text as snapshot,
               current_setting('transaction_isolation') as isolation,
               current_setting('app.tenant_id') as tenant`)
    ).rows[0]!;
  const tenantsSeen = async (tx: Tx) =>
    (await tx.execute<{ tenant_id: string }>(sql`select distinct tenant_id from users`)).rows.map(
      (row) => row.tenant_id,
    );

  it('answers each read in order, on its own connection, all on one snapshot of the tenant', async () => {
    const [first, second, third, seen] = await t.database.readTogether(acme, [
      where,
      where,
      where,
      tenantsSeen,
    ]);

    expect(new Set([first.pid, second.pid, third.pid]).size).toBe(3);
    expect(second.snapshot).toBe(first.snapshot);
    expect(third.snapshot).toBe(first.snapshot);
    for (const read of [first, second, third]) {
      expect(read.isolation).toBe('repeatable read');
      expect(read.tenant).toBe(acme);
    }
    expect(seen).toEqual([acme]);
  });

  it('keeps tenants apart', async () => {
    const [acmeSeen] = await t.database.readTogether(acme, [tenantsSeen]);
    const [globexSeen, again] = await t.database.readTogether(globex, [tenantsSeen, tenantsSeen]);
    expect(acmeSeen).toEqual([acme]);
    expect(globexSeen).toEqual([globex]);
    expect(again).toEqual([globex]);
  });

  it('runs the reads in the first one’s transaction when the pool has no free connection', async () => {
    const single = createDatabase({ url, poolMax: 1 });
    try {
      const reads = await single.readTogether(acme, [where, where, tenantsSeen]);
      expect(reads[1].pid).toBe(reads[0].pid);
      expect(reads[2]).toEqual([acme]);
    } finally {
      await single.close();
    }
  });

  it('is read-only, and a failed read fails the whole and gives every connection back', async () => {
    const small = createDatabase({ url, poolMax: 3 });
    try {
      const writing = small.readTogether(acme, [
        where,
        (tx) => tx.execute(sql`update users set full_name = 'Changed' where tenant_id = ${acme}`),
      ]);
      await expect(writing).rejects.toThrow();
      await expect(
        small.readTogether(acme, [where, () => Promise.reject(new Error('no'))]),
      ).rejects.toThrow('no');
      // Every connection is back: three at once still work, and nothing was written.
      const reads = await small.readTogether(acme, [where, where, where]);
      expect(new Set(reads.map((read) => read.pid)).size).toBe(3);
      expect(small.pool.totalCount).toBe(small.pool.idleCount);
      const [names] = await small.readTogether(acme, [
        async (tx) =>
          (await tx.execute<{ full_name: string }>(sql`select full_name from users`)).rows,
      ]);
      expect(names.map((row) => row.full_name)).not.toContain('Changed');
    } finally {
      await small.close();
    }
  });

  it('refuses a tenant id that is not a UUID before taking a connection', async () => {
    await expect(t.database.readTogether("x'; drop table users; --", [where])).rejects.toThrow(
      'tenant id must be a UUID',
    );
  });
});
