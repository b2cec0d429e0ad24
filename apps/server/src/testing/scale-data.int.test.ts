import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  type ScalePlan,
  canTopUp,
  compareWithPlan,
  seedScaleData,
  topUpScaleData,
} from '@/testing/scale-data';
import { type TestApp, createTestApp } from '@/testing/test-app';

/**
 * `npm run seed:scale` on a folder seeded by an older plan (issue 9): the data is compared with
 * the plan by row counts; rows the plan only appends (truck list, feed) are topped up, with their
 * per-day counters and callback deliveries; anything else needs a fresh seed.
 */
const tenant = (number: number, incomingRequests: number, truckListEntries = 40) => ({
  number,
  name: `Top-up ${number}`,
  entryLogs: 200,
  approvedVehicles: 30,
  users: 3,
  truckListEntries,
  incomingRequests,
});
const planOf = (tenants: ScalePlan['tenants']): ScalePlan => ({
  days: 60,
  // Never used to sign in here.
  passwordHash: 'not-a-hash',
  tenants,
});

describe('scale data against its plan', () => {
  let t: TestApp;
  let owner: pg.Client;

  beforeAll(async () => {
    t = await createTestApp();
    owner = new pg.Client({ connectionString: t.ownerUrl });
    await owner.connect();
    await seedScaleData(owner, planOf([tenant(1, 50), tenant(2, 10)]));
  }, 60_000);

  afterAll(async () => {
    await owner?.end();
    await t?.close();
  });

  it('matches the plan it was seeded with', async () => {
    expect(await compareWithPlan(owner, planOf([tenant(1, 50), tenant(2, 10)]))).toEqual([]);
  });

  it('tops up the feed and truck list of a newer plan, counters and deliveries included', async () => {
    const newer = planOf([tenant(1, 400, 90), tenant(2, 10)]);
    const differences = await compareWithPlan(owner, newer);
    expect(differences).toEqual([
      { tenant: 'Top-up 1', kind: 'truckListEntries', planned: 90, present: 40 },
      { tenant: 'Top-up 1', kind: 'incomingRequests', planned: 400, present: 50 },
    ]);
    expect(canTopUp(differences)).toBe(true);

    await topUpScaleData(owner, newer, differences);

    expect(await compareWithPlan(owner, newer)).toEqual([]);
    const { rows } = await owner.query<Record<string, number>>(
      `select
         (select coalesce(sum(c.total), 0)::int from incoming_request_daily_counts c
            where c.tenant_id = t.id) as "feedCounted",
         (select coalesce(sum(c.total), 0)::int from truck_list_daily_counts c
            where c.tenant_id = t.id) as "trucksCounted",
         (select count(*)::int from incoming_requests r
            where r.tenant_id = t.id and r.completed_at is not null) as completed,
         (select count(*)::int from webhook_deliveries d where d.tenant_id = t.id) as deliveries,
         (select count(*)::int from (select incoming_request_id from webhook_deliveries d
            where d.tenant_id = t.id group by 1 having count(*) > 1) as twice) as "deliveredTwice"
       from tenants t where t.name = 'Top-up 1'`,
    );
    const counts = rows[0] ?? {};
    expect(counts).toMatchObject({ feedCounted: 400, trucksCounted: 90, deliveredTwice: 0 });
    expect(counts.completed).toBeGreaterThan(300);
    expect(counts.deliveries).toBe(counts.completed);
  });

  it('asks for a fresh seed when other rows, or tenants, differ', async () => {
    const moreEntries = planOf([{ ...tenant(1, 400, 90), entryLogs: 300 }, tenant(2, 10)]);
    const entries = await compareWithPlan(owner, moreEntries);
    expect(entries).toEqual([
      { tenant: 'Top-up 1', kind: 'entryLogs', planned: 300, present: 200 },
    ]);
    expect(canTopUp(entries)).toBe(false);

    const fewerFeed = await compareWithPlan(owner, planOf([tenant(1, 100, 90), tenant(2, 10)]));
    expect(canTopUp(fewerFeed)).toBe(false);

    const otherTenants = await compareWithPlan(owner, planOf([tenant(1, 400, 90), tenant(3, 10)]));
    expect(otherTenants).toEqual([
      { tenant: 'Top-up 3', kind: 'tenant', planned: 1, present: 0 },
      { tenant: 'Top-up 2', kind: 'tenant', planned: 0, present: 1 },
    ]);
    expect(canTopUp(otherTenants)).toBe(false);
  });
});
