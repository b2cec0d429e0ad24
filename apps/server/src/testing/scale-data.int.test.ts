import { checkSaIdNumber } from '@boomgate/contracts/sa-id-number';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DELIVERY_BODY } from '@/modules/webhooks/sealed-deliveries';
import { PASSPORT_NUMBER, SA_ID_NUMBER, isSealedValue } from '@/platform/sealing';
import { findPlaintextNumbers } from '@/security/plaintext-scan';

import {
  type ScalePlan,
  canTopUp,
  compareWithPlan,
  seedScaleData,
  topUpScaleData,
} from '@/testing/scale-data';
import {
  createScaleSealer,
  loadDriverPool,
  lookupsWithWork,
  sealFeedInPlace,
} from '@/testing/scale-sealing';
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
    await seedScaleData(owner, planOf([tenant(1, 50), tenant(2, 10)]), {
      master: t.secrets.encryptionKey,
    });
  }, 60_000);

  afterAll(async () => {
    await owner?.end();
    await t?.close();
  });

  it('matches the plan it was seeded with', async () => {
    expect(await compareWithPlan(owner, planOf([tenant(1, 50), tenant(2, 10)]))).toEqual([]);
  });

  /**
   * Issue 26 part f: numbers are sealed as production holds them, so the app opens them with the
   * tenant's keys (the server's own key ring, under the same master key) and the sealing job has
   * nothing to do: a bench never measures it by accident.
   */
  it('seals ID and passport numbers with each tenant’s keys, hashes beside them', async () => {
    const { keyring } = t.modules.keys;
    const [first] = await t.ownerQuery<{ id: string }>(
      "select id from tenants where name = 'Top-up 1'",
    );
    const tenantId = first!.id;
    const entries = await t.ownerQuery<{
      driver_id_number: string | null;
      driver_id_number_hash: string | null;
      driver_passport_number: string | null;
      driver_passport_number_hash: string | null;
    }>(
      `select driver_id_number, driver_id_number_hash, driver_passport_number,
         driver_passport_number_hash from entry_logs where tenant_id = $1`,
      [tenantId],
    );
    expect(entries).toHaveLength(200);
    const idNumbers = new Set<string>();
    let passports = 0;
    for (const entry of entries) {
      if (entry.driver_id_number) {
        expect(isSealedValue(entry.driver_id_number)).toBe(true);
        const plain = await keyring.open(
          tenantId,
          'entry_logs.driver_id_number',
          entry.driver_id_number,
        );
        expect(checkSaIdNumber(plain), plain).toBeNull();
        expect(entry.driver_id_number_hash).toBe(
          await keyring.index(tenantId, SA_ID_NUMBER, plain),
        );
        idNumbers.add(plain);
      }
      if (entry.driver_passport_number) {
        expect(isSealedValue(entry.driver_passport_number)).toBe(true);
        const plain = await keyring.open(
          tenantId,
          'entry_logs.driver_passport_number',
          entry.driver_passport_number,
        );
        expect(plain).toMatch(/^[A-Z]{2}\d{7}$/);
        expect(entry.driver_passport_number_hash).toBe(
          await keyring.index(tenantId, PASSPORT_NUMBER, plain),
        );
        passports++;
      }
    }
    // 95 % of drivers showed a document; drivers come back, so numbers repeat across entries.
    expect(entries.filter((e) => e.driver_id_number_hash).length + passports).toBeGreaterThan(160);
    expect(idNumbers.size).toBeGreaterThan(20);
    expect(idNumbers.size).toBeLessThan(entries.length);

    const feed = await t.ownerQuery<{
      id: string;
      driver_id_number: string | null;
      driver_id_number_hash: string | null;
      body: string | null;
    }>(
      `select r.id, r.driver_id_number, r.driver_id_number_hash, d.body
       from incoming_requests r left join webhook_deliveries d
         on d.tenant_id = r.tenant_id and d.incoming_request_id = r.id
       where r.tenant_id = $1`,
      [tenantId],
    );
    expect(feed.filter((r) => r.driver_id_number).length).toBeGreaterThan(30);
    expect(feed.filter((r) => r.body).length).toBeGreaterThan(20);
    for (const row of feed) {
      const plain = row.driver_id_number
        ? await keyring.open(tenantId, 'incoming_requests.driver_id_number', row.driver_id_number)
        : null;
      if (plain) {
        expect(isSealedValue(row.driver_id_number!)).toBe(true);
        expect(checkSaIdNumber(plain), plain).toBeNull();
        expect(row.driver_id_number_hash).toBe(await keyring.index(tenantId, SA_ID_NUMBER, plain));
      }
      if (row.body) {
        expect(isSealedValue(row.body)).toBe(true);
        const event = JSON.parse(await keyring.open(tenantId, DELIVERY_BODY, row.body)) as {
          type: string;
          data: { id: string; driverIdNumber: string | null };
        };
        expect(event.type).toBe('incoming-request.completed');
        expect(event.data).toMatchObject({ id: row.id, driverIdNumber: plain });
      }
    }

    // Nothing plain anywhere (the catalog test's walk), nothing for the sealing job. (Callback
    // message ids, `msg_` and 32 hex digits, once gave false hits: the scan skips hex tokens.)
    expect([...(await findPlaintextNumbers(t.ownerQuery))]).toEqual([]);
    expect(await lookupsWithWork(owner)).toEqual([]);
    expect(await t.modules.keys.service.sealStoredData()).toEqual({ resealed: 0, failed: 0 });
  });

  it('seals the feed and callbacks of an older seed in place (a 10M folder is not seeded again)', async () => {
    const [second] = await t.ownerQuery<{ id: string }>(
      "select id from tenants where name = 'Top-up 2'",
    );
    const tenantId = second!.id;
    // As the seed before part f wrote them: plain numbers without hashes, plain callback bodies.
    await owner.query(
      `update incoming_requests set driver_id_number = '8001015009087', driver_id_number_hash = null
       where tenant_id = $1`,
      [tenantId],
    );
    await owner.query(
      `update webhook_deliveries set body = json_build_object('data',
         json_build_object('id', incoming_request_id))::text where tenant_id = $1`,
      [tenantId],
    );
    expect(await lookupsWithWork(owner)).toEqual([
      'incoming_requests_unsealed_tenants',
      'webhook_deliveries_unsealed_tenants',
    ]);

    await owner.query('begin');
    const sealer = createScaleSealer(owner, t.secrets.encryptionKey);
    const pool = await loadDriverPool(owner, sealer, tenantId, 2, 50);
    const changed = await sealFeedInPlace(owner, sealer, tenantId, pool);
    await owner.query('commit');

    const [counts] = await t.ownerQuery<{ feed: number; deliveries: number }>(
      `select (select count(*)::int from incoming_requests where tenant_id = $1) as feed,
              (select count(*)::int from webhook_deliveries where tenant_id = $1) as deliveries`,
      [tenantId],
    );
    expect(changed).toBe(counts!.feed + counts!.deliveries);
    expect(await lookupsWithWork(owner)).toEqual([]);
    const [delivery] = await t.ownerQuery<{ body: string; incoming_request_id: string }>(
      'select body, incoming_request_id from webhook_deliveries where tenant_id = $1 limit 1',
      [tenantId],
    );
    expect(
      JSON.parse(await t.modules.keys.keyring.open(tenantId, DELIVERY_BODY, delivery!.body)),
    ).toEqual({ data: { id: delivery!.incoming_request_id } });
  });

  it('tops up the feed and truck list of a newer plan, counters and deliveries included', async () => {
    const newer = planOf([tenant(1, 400, 90), tenant(2, 10)]);
    const differences = await compareWithPlan(owner, newer);
    expect(differences).toEqual([
      { tenant: 'Top-up 1', kind: 'truckListEntries', planned: 90, present: 40 },
      { tenant: 'Top-up 1', kind: 'incomingRequests', planned: 400, present: 50 },
    ]);
    expect(canTopUp(differences)).toBe(true);

    await topUpScaleData(owner, newer, differences, { master: t.secrets.encryptionKey });
    // The appended feed entries and their callbacks are sealed as the seeded ones are.
    expect(await lookupsWithWork(owner)).toEqual([]);

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
