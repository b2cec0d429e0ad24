import { randomBytes } from 'node:crypto';

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type TestApp, createTestApp } from '@/testing/test-app';

/**
 * The counter tables behind the dashboard, truck list and feed cards follow a TRUNCATE of the table
 * they count, also when whoever truncates is not a superuser: row-level security applies to them,
 * and a DELETE would have seen no tenant's rows.
 */
const COUNTED = {
  entry_logs: 'entry_log_daily_counts',
  truck_list_entries: 'truck_list_daily_counts',
  incoming_requests: 'incoming_request_daily_counts',
  approved_vehicles: 'approved_vehicle_expiry_counts',
} as const;

describe('counters after TRUNCATE', () => {
  let t: TestApp;
  const role = `truncator_${randomBytes(4).toString('hex')}`;
  beforeAll(async () => {
    t = await createTestApp();
    await t.ownerQuery(`create role ${role} nologin nosuperuser nobypassrls`);
    for (const [table, counters] of Object.entries(COUNTED)) {
      // DELETE too: the old clear function (DELETE under row-level security) then ran without a
      // permission error and silently left every tenant's counts, which is the bug this guards.
      await t.ownerQuery(`grant truncate on ${table}, ${counters} to ${role}`);
      await t.ownerQuery(`grant delete on ${counters} to ${role}`);
    }
    // What TRUNCATE … CASCADE also empties: the feed's callback outbox, an entry's supervisor
    // override (issue 21) and the visit it opened (issue 16); and the hourly report counts kept
    // beside entries and visits (issue 23), which their truncate triggers empty too.
    await t.ownerQuery(
      `grant truncate on webhook_deliveries, entry_overrides, visits, report_hourly_entries,
        report_hourly_refusals, report_hourly_visits, report_hourly_weighbridge to ${role}`,
    );
  });
  afterAll(async () => {
    await t.ownerQuery(`drop owned by ${role}`);
    await t.ownerQuery(`drop role ${role}`);
    await t.close();
  });

  it.each(Object.entries(COUNTED))(
    'TRUNCATE %s by a role under row-level security empties %s',
    async (table, counters) => {
      const admin = await t.registerTenant();
      const tenantId = admin.body.tenant.id;
      const inserts: Record<string, string> = {
        entry_logs: `insert into entry_logs (tenant_id, id, plate_number, vehicle_approved, face_verified, entry_granted) values ($1, gen_random_uuid(), 'CA1', true, false, true)`,
        truck_list_entries: `insert into truck_list_entries (tenant_id, id, plate_number, category) values ($1, gen_random_uuid(), 'CA1', 'other')`,
        incoming_requests: `insert into incoming_requests (tenant_id, id, webhook_id, received_at, "timestamp") values ($1, gen_random_uuid(), 'msg_1', now(), now())`,
        approved_vehicles: `insert into approved_vehicles (tenant_id, id, plate_number, driver_name) values ($1, gen_random_uuid(), 'CA1', 'Driver')`,
      };
      await t.ownerQuery(inserts[table] ?? '', [tenantId]);
      const countersOf = async () =>
        (await t.ownerQuery(`select * from ${counters} where tenant_id = $1`, [tenantId])).length;
      expect(await countersOf()).toBe(1);

      const client = new pg.Client({ connectionString: t.ownerUrl });
      await client.connect();
      try {
        await client.query('begin');
        await client.query(`set local role ${role}`);
        await client.query(`truncate ${table} cascade`);
        await client.query('commit');
      } finally {
        await client.end();
      }

      expect(await countersOf()).toBe(0);
    },
  );
});
