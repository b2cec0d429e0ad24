import { INCOMING_ENTRY_LINK_WINDOW_MS } from '@boomgate/contracts/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type TestApp, createTestApp } from '@/testing/test-app';
import { aCompletion, aTenantWithSecret, sendEntry } from '@/testing/webhooks';

/** Issue 15: a processed incoming request links to the gate entry its vehicle led to. */
describe('GET /api/webhook/pending-requests: entryLogId (issue 15)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('links a processed request to its plate’s first entry at or after it arrived, within 24 hours', async () => {
    const tenant = await aTenantWithSecret(t);
    const office = await t.createSignedInUser(tenant.admin, 'back_office');
    const guard = await t.createSignedInUser(tenant.admin, 'security_guard');
    // An entry of the plate before the request arrived is another visit: never linked.
    const before = await guard.post('/api/auto-gate/grant-entry', { plateNumber: 'CA123456' });
    expect(before.statusCode).toBe(201);
    t.clock.advanceMs(60_000);
    const id = await sendEntry(t, tenant, { plateNumber: 'ND123456' });
    t.clock.advanceMs(60_000);
    const first = await guard.post('/api/auto-gate/grant-entry', { plateNumber: 'CA123456' });
    t.clock.advanceMs(60_000);
    await guard.post('/api/auto-gate/grant-entry', { plateNumber: 'CA123456' });
    await guard.post('/api/auto-gate/grant-entry', { plateNumber: 'ND999999' });

    const linkOf = async () => {
      const list = await office.get('/api/webhook/pending-requests');
      expect(list.statusCode).toBe(200);
      return list.json<{ id: string; entryLogId: string | null }[]>().find((r) => r.id === id)
        ?.entryLogId;
    };
    // Not processed yet: no entry of it (the pushed plate has none either).
    expect(await linkOf()).toBeNull();

    const processed = await office.post(
      `/api/webhook/process-request/${id}`,
      aCompletion({ plateNumber: 'CA123456' }),
    );
    expect(processed.statusCode).toBe(200);
    expect(await linkOf()).toBe(first.json().id);
  });

  it('links within the window and nothing past it', async () => {
    const tenant = await aTenantWithSecret(t);
    const office = await t.createSignedInUser(tenant.admin, 'back_office');
    const id = await sendEntry(t, tenant, { plateNumber: 'CA777777' });
    await office.post(
      `/api/webhook/process-request/${id}`,
      aCompletion({ plateNumber: 'CA777777' }),
    );
    const entry = await office.post('/api/auto-gate/grant-entry', { plateNumber: 'CA777777' });
    // The request arrived this long before the entry (sessions would not outlive the wait).
    const arrivedBefore = async (ms: number) => {
      await t.ownerQuery(
        `update incoming_requests set received_at = $2::timestamptz - $3::interval where id = $1`,
        [id, entry.json().timestamp, `${ms} milliseconds`],
      );
      const list = await office.get('/api/webhook/pending-requests');
      return list.json<{ id: string; entryLogId: string | null }[]>()[0];
    };

    expect(await arrivedBefore(INCOMING_ENTRY_LINK_WINDOW_MS - 1_000)).toMatchObject({
      id,
      entryLogId: entry.json().id,
    });
    expect(await arrivedBefore(INCOMING_ENTRY_LINK_WINDOW_MS + 1_000)).toMatchObject({
      id,
      entryLogId: null,
    });
  });
});
