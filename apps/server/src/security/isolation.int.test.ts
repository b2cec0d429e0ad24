import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { findPgError } from '@/platform/errors';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';
import { aTenantWithSecret, sendEntry } from '@/testing/webhooks';

type Tenant = { id: string; admin: Session; marker: string };

/** Rows of every kind the API can make, each carrying the tenant's marker where text allows. */
async function seed(t: TestApp, tenant: Tenant, secret: string) {
  const { admin, marker } = tenant;
  const plate = `${marker.slice(-3)}${Math.floor(Math.random() * 9000 + 1000)}`;
  const calls = [
    admin.post('/api/approved-vehicles', { plateNumber: plate, driverName: marker }),
    admin.post('/api/users', {
      username: t.unique('iso'),
      password: 'iso-pass-1',
      fullName: marker,
    }),
    admin.post('/api/identity-document', { surname: marker }),
    admin.post('/api/licence-disc', { make: marker }),
    admin.post('/api/drivers-licence', { nameOnCard: marker }),
    admin.post('/api/passport', { surname: marker }),
    admin.post('/api/weighbridge-ticket', { customer: marker }),
    admin.post('/api/auto-gate/grant-entry', { plateNumber: plate, driverName: marker }),
    admin.post('/api/anpr/cameras', { name: marker }),
  ];
  for (const response of await Promise.all(calls)) {
    if (response.statusCode >= 300)
      throw new Error(`seed: ${response.statusCode} ${response.body}`);
  }
  const entryId = await sendEntry(
    t,
    { tenantId: tenant.id, secret },
    {
      plateNumber: plate,
      driverName: marker,
    },
  );
  await admin.post(`/api/webhook/process-request/${entryId}`, {
    plateNumber: plate,
    driverName: marker,
    driverIdNumber: '8001015009087',
  });
}

describe('tenant isolation under load and per table (SEC-05, SEC-06)', () => {
  let t: TestApp;
  let a: Tenant;
  let b: Tenant;

  beforeAll(async () => {
    t = await createTestApp();
    const first = await aTenantWithSecret(t);
    const second = await aTenantWithSecret(t);
    a = { id: first.tenantId, admin: first.admin, marker: 'MARKER-ALPHA' };
    b = { id: second.tenantId, admin: second.admin, marker: 'MARKER-BRAVO' };
    await seed(t, a, first.secret);
    await seed(t, b, second.secret);
  });
  afterAll(() => t.close());

  it("cannot see, change, delete or add another tenant's rows in any table with tenant_id", async () => {
    const tables = (
      await t.ownerQuery<{ table: string; rows: string }>(
        `select c.relname as table from pg_class c
         join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
         join pg_attribute att on att.attrelid = c.oid and att.attname = 'tenant_id'
         where c.relkind = 'r' order by 1`,
      )
    ).map((row) => row.table);
    const results: Record<string, string> = {};
    const withRows: string[] = [];

    for (const table of tables) {
      const [{ n } = { n: '0' }] = await t.ownerQuery<{ n: string }>(
        `select count(*)::text as n from "${table}" where tenant_id = $1`,
        [b.id],
      );
      if (Number(n) > 0) withRows.push(table);
      const outcome = await t.database.withTenant(a.id, async (tx) => {
        const attempt = async (statement: ReturnType<typeof sql>) => {
          try {
            const result = await tx.transaction((savepoint) => savepoint.execute(statement));
            return String(result.rowCount ?? result.rows.length);
          } catch (error) {
            return findPgError(error)?.code ?? 'error';
          }
        };
        const name = sql.identifier(table);
        return [
          await attempt(sql`select 1 from ${name} where tenant_id = ${b.id}`),
          await attempt(sql`update ${name} set tenant_id = tenant_id where tenant_id = ${b.id}`),
          await attempt(sql`delete from ${name} where tenant_id = ${b.id}`),
          await attempt(sql`insert into ${name} (tenant_id) values (${b.id})`),
        ].join(' ');
      });
      results[table] = outcome;
    }

    // select 0 rows; update/delete 0 rows (or refused outright); insert refused by the policy.
    for (const [table, outcome] of Object.entries(results)) {
      expect({ table, outcome }).toEqual({
        table,
        outcome: expect.stringMatching(/^0 (0|42501) (0|42501) 42501$/),
      });
    }
    expect(withRows.length).toBeGreaterThanOrEqual(10);
  });

  it('never leaks a row across tenants when requests of both interleave on a shared pool', async () => {
    const routes = [
      '/api/users',
      '/api/approved-vehicles',
      '/api/entry-logs',
      '/api/dashboard',
      '/api/weighbridge-tickets',
      '/api/webhook/pending-requests',
      '/api/anpr/cameras',
    ];
    const call = fc.record({ tenant: fc.constantFrom('a', 'b'), url: fc.constantFrom(...routes) });

    await fc.assert(
      fc.asyncProperty(fc.array(call, { minLength: 6, maxLength: 24 }), async (calls) => {
        const responses = await Promise.all(
          calls.map(async ({ tenant, url }) => {
            const self = tenant === 'a' ? a : b;
            const response = await self.admin.get(url);
            return { self, other: tenant === 'a' ? b : a, url, response };
          }),
        );
        for (const { self, other, url, response } of responses) {
          expect(response.statusCode).toBe(200);
          expect(response.body).not.toContain(other.marker);
          expect(response.body).not.toContain(other.id);
          if (url !== '/api/dashboard') expect(response.body).toContain(self.marker);
        }
      }),
      { seed: 6, numRuns: 15 },
    );
  }, 120_000);
});
