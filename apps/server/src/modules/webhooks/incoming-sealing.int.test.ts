import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { KeyStatus } from '@boomgate/contracts/keys';
import { passesLuhn } from '@boomgate/contracts/sa-id-number';

import { runDueJobsOnce } from '@/platform/jobs';
import { type TestApp, createTestApp } from '@/testing/test-app';
import { aCompletion, aTenantWithSecret, sendEntry } from '@/testing/webhooks';

let sequence = 700;
function saId(yymmdd = '770707'): string {
  const twelve = `${yymmdd}${String(sequence++).padStart(4, '0')}08`;
  const check = [...'0123456789'].find((digit) => passesLuhn(`${twelve}${digit}`)) ?? '0';
  return `${twelve}${check}`;
}

type FeedEntry = { id: string; driverIdNumber: string | null; status: string };

/**
 * Issue 26: the incoming feed's driver ID number is sealed at rest with its keyed hash beside it;
 * the feed, its cards, a redelivery, the completion and the data-subject requests work as before.
 */
describe('incoming feed sealed at rest (issue 26)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // No key cache: the re-seal job can retire the old key as soon as it has run.
    t = await createTestApp({ env: { KEY_CACHE_SECONDS: '0' } });
  });
  afterAll(() => t.close());
  const jobs = () => runDueJobsOnce({ ownerUrl: t.ownerUrl, jobs: t.modules.keys.jobs });
  const stored = async (id: string) =>
    (
      await t.ownerQuery<{ number: string | null; hash: string | null }>(
        `select driver_id_number as number, driver_id_number_hash as hash
           from incoming_requests where id = $1`,
        [id],
      )
    )[0]!;

  it('stores the posted and the completed number sealed; lists, counts, completes, exports and erases as before', async () => {
    const tenant = await aTenantWithSecret(t);
    const posted = saId();
    const entry = { plateNumber: 'CA 7001', driverName: 'Sipho', driverIdNumber: posted };
    const id = await sendEntry(t, tenant, entry, { id: 'msg_sealed_1' });
    // A redelivery is stored once, as before.
    expect(await sendEntry(t, tenant, entry, { id: 'msg_sealed_1' })).toBe(id);

    const first = await stored(id);
    expect(first.number).toMatch(/^sv1\.1\./);
    expect(first.hash).toMatch(/^[\w-]{43}$/);
    const feed = await tenant.admin.get('/api/webhook/pending-requests');
    expect(feed.statusCode, feed.body).toBe(200);
    expect(feed.json<FeedEntry[]>()).toEqual([
      expect.objectContaining({ id, driverIdNumber: posted, status: 'Complete' }),
    ]);
    // "Processed" counts name and number present, sealed or not.
    expect(feed.headers['x-total-count']).toBe('1');

    const completed = saId();
    const done = await tenant.admin.post(
      `/api/webhook/process-request/${id}`,
      aCompletion({ driverIdNumber: completed }),
    );
    expect(done.statusCode, done.body).toBe(200);
    const after = await stored(id);
    expect(after.number).toMatch(/^sv1\.1\./);
    expect(after.hash).not.toBe(first.hash);
    const listed = (await tenant.admin.get('/api/webhook/pending-requests')).json<FeedEntry[]>();
    expect(listed[0]?.driverIdNumber).toBe(completed);

    // The data subject's feed entries are found by the keyed hash.
    const exported = await tenant.admin.post('/api/data-subjects/export', {
      idNumber: completed,
    });
    expect(exported.statusCode, exported.body).toBe(200);
    const records = exported.json<{
      records: { incomingRequests: ({ id: string } & Record<string, unknown>)[] };
    }>().records.incomingRequests;
    expect(records.map((record) => [record.id, record.driverIdNumber])).toEqual([[id, completed]]);
    expect(JSON.stringify(records)).not.toMatch(/sv1\.|driverIdNumberHash/);
    const nobody = await tenant.admin.post('/api/data-subjects/export', { idNumber: posted });
    expect(nobody.json().records.incomingRequests).toEqual([]);

    const erased = await tenant.admin.post('/api/data-subjects/erase', { idNumber: completed });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(await stored(id)).toEqual({ number: null, hash: null });
  });

  it('seals feed entries stored by the code before sealing, reads them back, and re-seals them on a rotation', async () => {
    const tenant = await aTenantWithSecret(t);
    const { tenantId } = tenant;
    const legacy = saId('640404');
    const [row] = await t.ownerQuery<{ id: string }>(
      `insert into incoming_requests (tenant_id, id, webhook_id, received_at, "timestamp",
         plate_number, driver_name, driver_id_number)
       values ($1, gen_random_uuid(), 'msg_legacy', now(), now(), 'CA6401', 'Thabo', $2)
       returning id`,
      [tenantId, legacy],
    );
    const id = row!.id;
    // Before the job: listed and found by the plain number.
    const before = (await tenant.admin.get('/api/webhook/pending-requests')).json<FeedEntry[]>();
    expect(before.map((entry) => entry.driverIdNumber)).toEqual([legacy]);
    const found = await tenant.admin.post('/api/data-subjects/export', { idNumber: legacy });
    expect(found.json().records.incomingRequests).toHaveLength(1);

    await t.modules.keys.enqueueStartup();
    await jobs();
    const sealed = await stored(id);
    expect(sealed.number).toMatch(/^sv1\.1\./);
    expect(sealed.hash).toMatch(/^[\w-]{43}$/);
    const [audited] = await t.ownerQuery<{ details: { rows: Record<string, number> } }>(
      `select details from audit_events where tenant_id = $1 and action = 'storage.data_sealed'`,
      [tenantId],
    );
    expect(audited?.details.rows).toMatchObject({ incoming_requests: 1 });
    const listed = (await tenant.admin.get('/api/webhook/pending-requests')).json<FeedEntry[]>();
    expect(listed.map((entry) => entry.driverIdNumber)).toEqual([legacy]);
    const exported = await tenant.admin.post('/api/data-subjects/export', { idNumber: legacy });
    expect(
      exported
        .json<{ records: { incomingRequests: { driverIdNumber: string }[] } }>()
        .records.incomingRequests.map((entry) => entry.driverIdNumber),
    ).toEqual([legacy]);

    const rotated = await tenant.admin.post('/api/keys/rotate', {});
    expect(rotated.statusCode, rotated.body).toBe(202);
    const running = (await tenant.admin.get('/api/keys/status')).json<KeyStatus>();
    expect(running.leftOnOldVersions.rows).toMatchObject({ incoming_requests: 1 });
    await jobs();
    const status = (await tenant.admin.get('/api/keys/status')).json<KeyStatus>();
    expect(status).toMatchObject({
      activeVersion: 2,
      rotationInProgress: false,
      leftOnOldVersions: { rows: {}, objects: 0 },
    });
    const resealed = await stored(id);
    expect(resealed.number).toMatch(/^sv1\.2\./);
    expect(resealed.hash).toBe(sealed.hash);
    const again = (await tenant.admin.get('/api/webhook/pending-requests')).json<FeedEntry[]>();
    expect(again.map((entry) => entry.driverIdNumber)).toEqual([legacy]);
  });
});
