import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { IncomingRequestCompletedEventSchema } from '@boomgate/contracts/webhooks';

import { runDueJobsOnce } from '@/platform/jobs';
import { type TestApp, createTestApp } from '@/testing/test-app';
import {
  type Receiver,
  aCompletion,
  aTenantWithSecret,
  runJobs,
  sendEntry,
  setCallback,
  startReceiver,
} from '@/testing/webhooks';

type DeliveryRow = {
  id: string;
  webhook_id: string;
  status: string;
  attempts: number;
  next_attempt_at: Date;
  locked_until: Date | null;
  last_response_status: number | null;
  last_error: string | null;
};

/**
 * The callback outbox end to end: graphile-worker runs the jobs, a real HTTP receiver on
 * 127.0.0.1 answers from a script, and the app's fake clock decides when retries are due.
 */
describe('callback delivery', () => {
  let t: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await createTestApp({
      env: { WEBHOOKS_ALLOW_LOOPBACK_HTTP: 'true', WEBHOOK_TIMEOUT_MS: '2000' },
    });
    receiver = await startReceiver();
  });
  beforeEach(async () => {
    // The sweep works across tenants: earlier tests' pending retries must not leak into this one.
    await t.ownerQuery("update webhook_deliveries set status = 'failed' where status = 'pending'");
    receiver.received.length = 0;
    receiver.script([{ status: 200 }]);
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  async function aCompletedEntry() {
    const tenant = await aTenantWithSecret(t);
    await setCallback(tenant.admin, receiver.url);
    const id = await sendEntry(t, tenant, { plateNumber: 'ND123456', referenceNumber: 'REF-7' });
    const processed = await tenant.admin.post(`/api/webhook/process-request/${id}`, aCompletion());
    expect(processed.statusCode).toBe(200);
    return { ...tenant, entryId: id };
  }

  const deliveriesOf = (tenantId: string) =>
    t.ownerQuery<DeliveryRow>(
      'select * from webhook_deliveries where tenant_id = $1 order by created_at',
      [tenantId],
    );
  const onlyDelivery = async (tenantId: string) => {
    const rows = await deliveriesOf(tenantId);
    expect(rows).toHaveLength(1);
    return rows[0] as DeliveryRow;
  };
  /** Moves the fake clock to the delivery's next attempt, sweeps and runs the due jobs. */
  async function runNextAttempt(tenantId: string) {
    const row = await onlyDelivery(tenantId);
    t.clock.set(new Date(Math.max(row.next_attempt_at.getTime(), t.clock.now().getTime()) + 1));
    await t.modules.webhooks.service.sweep();
    await runJobs(t);
  }

  it('delivers a signed callback that the standardwebhooks library verifies', async () => {
    const tenant = await aCompletedEntry();
    // Issue 26: the outbox keeps the body sealed; the receiver gets it opened.
    const [stored] = await t.ownerQuery<{ body: string }>(
      'select body from webhook_deliveries where tenant_id = $1',
      [tenant.tenantId],
    );
    expect(stored?.body).toMatch(/^sv1\.\d+\./);
    expect(stored?.body).not.toContain('8001015009087');

    await runJobs(t);

    const [request] = receiver.received;
    const verified: unknown = new Webhook(tenant.secret).verify(
      request?.body ?? '',
      request?.headers as Record<string, string>,
    );
    expect(IncomingRequestCompletedEventSchema.parse(verified)).toMatchObject({
      type: 'incoming-request.completed',
      data: {
        id: tenant.entryId,
        referenceNumber: 'REF-7',
        plateNumber: 'CA123456',
        driverName: 'Sipho',
        driverIdNumber: '8001015009087',
      },
    });
    expect(await onlyDelivery(tenant.tenantId)).toMatchObject({
      status: 'delivered',
      attempts: 1,
      last_response_status: 200,
    });
  });

  it('seals a body stored before sealing (the migration job) and still sends it byte for byte', async () => {
    const tenant = await aTenantWithSecret(t);
    await setCallback(tenant.admin, receiver.url);
    const body = JSON.stringify({
      type: 'legacy.event',
      data: { driverIdNumber: '8001015009087' },
    });
    const [row] = await t.ownerQuery<{ id: string }>(
      `insert into webhook_deliveries (tenant_id, id, webhook_id, event_type, body, next_attempt_at, created_at)
       values ($1, gen_random_uuid(), 'msg_legacy', 'legacy.event', $2, $3, $3) returning id`,
      [tenant.tenantId, body, t.clock.now()],
    );
    await t.modules.keys.enqueueStartup();
    await runDueJobsOnce({ ownerUrl: t.ownerUrl, jobs: t.modules.keys.jobs });
    const [sealed] = await t.ownerQuery<{ body: string }>(
      'select body from webhook_deliveries where id = $1',
      [row?.id],
    );
    expect(sealed?.body).toMatch(/^sv1\./);

    await t.modules.webhooks.service.deliver(tenant.tenantId, row!.id);
    expect(receiver.received.map((r) => r.body)).toEqual([body]);
    const audited = await t.ownerQuery<{ details: { rows: Record<string, number> } }>(
      `select details from audit_events where tenant_id = $1 and action = 'storage.data_sealed'`,
      [tenant.tenantId],
    );
    expect(audited[0]?.details.rows).toEqual({ webhook_deliveries: 1 });
  });

  it('retries a 500 after about 5 s with the same webhook-id, then records the delivery', async () => {
    receiver.script([{ status: 500 }, { status: 200 }]);
    const tenant = await aCompletedEntry();
    const startedAt = t.clock.now().getTime();

    await runJobs(t);
    const afterFirst = await onlyDelivery(tenant.tenantId);
    await runNextAttempt(tenant.tenantId);

    const delayMs = afterFirst.next_attempt_at.getTime() - startedAt;
    expect(afterFirst).toMatchObject({ status: 'pending', attempts: 1, last_response_status: 500 });
    expect(delayMs).toBeGreaterThanOrEqual(4_500);
    expect(delayMs).toBeLessThanOrEqual(5_500);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([
      afterFirst.webhook_id,
      afterFirst.webhook_id,
    ]);
    expect(receiver.received[0]?.body).toBe(receiver.received[1]?.body);
    expect(await onlyDelivery(tenant.tenantId)).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('does not send before the next attempt is due', async () => {
    receiver.script([{ status: 500 }]);
    const tenant = await aCompletedEntry();
    await runJobs(t);

    const swept = await t.modules.webhooks.service.sweep();
    await runJobs(t);

    expect(swept).toBe(0);
    expect(receiver.received).toHaveLength(1);
    expect(await onlyDelivery(tenant.tenantId)).toMatchObject({ status: 'pending', attempts: 1 });
  });

  it('follows the schedule and dead-letters after the eighth attempt', async () => {
    receiver.script([{ status: 500 }]);
    const tenant = await aCompletedEntry();
    await runJobs(t);
    const gapsSeconds: number[] = [];

    for (let attempt = 2; attempt <= 8; attempt++) {
      const before = await onlyDelivery(tenant.tenantId);
      const previousAttemptAt = t.clock.now().getTime();
      gapsSeconds.push((before.next_attempt_at.getTime() - previousAttemptAt) / 1000);
      await runNextAttempt(tenant.tenantId);
    }

    const expected = [5, 300, 1800, 7200, 18000, 36000, 36000];
    gapsSeconds.forEach((gap, i) => {
      expect(gap).toBeGreaterThanOrEqual((expected[i] ?? 0) * 0.9 - 1);
      expect(gap).toBeLessThanOrEqual((expected[i] ?? 0) * 1.1 + 1);
    });
    expect(receiver.received).toHaveLength(8);
    expect(await onlyDelivery(tenant.tenantId)).toMatchObject({
      status: 'failed',
      attempts: 8,
      last_response_status: 500,
    });
  });

  it('disables the endpoint when the receiver answers 410 Gone', async () => {
    receiver.script([{ status: 410 }]);
    const tenant = await aCompletedEntry();

    await runJobs(t);
    const integration = await tenant.admin.get('/api/integrations');

    expect(await onlyDelivery(tenant.tenantId)).toMatchObject({
      status: 'failed',
      last_response_status: 410,
    });
    expect(integration.json()).toMatchObject({
      callbackDisabledAt: expect.any(String),
      callbackDisabledReason: '410 Gone',
    });
  });

  it('never follows a redirect and counts it as a failure', async () => {
    receiver.script([{ status: 302, headers: { location: '/hooks/elsewhere' } }]);
    const tenant = await aCompletedEntry();

    await runJobs(t);

    expect(receiver.received.map((r) => r.path)).toEqual(['/hooks/boomgate']);
    expect(await onlyDelivery(tenant.tenantId)).toMatchObject({
      status: 'pending',
      last_response_status: 302,
    });
  });

  it('waits as long as Retry-After asks when throttled (429)', async () => {
    receiver.script([{ status: 429, headers: { 'retry-after': '120' } }]);
    const tenant = await aCompletedEntry();
    const startedAt = t.clock.now().getTime();

    await runJobs(t);

    const row = await onlyDelivery(tenant.tenantId);
    expect(row.next_attempt_at.getTime() - startedAt).toBeGreaterThanOrEqual(120_000);
  });

  it('still delivers when a worker dies mid-attempt: the lease expires and the sweep sends it again', async () => {
    receiver.script(['hold', { status: 200 }]);
    const tenant = await aCompletedEntry();
    const row = await onlyDelivery(tenant.tenantId);

    // A worker takes the delivery and hangs inside the HTTP call (it will never record in time).
    const abandoned = t.modules.webhooks.service.deliver(tenant.tenantId, row.id);
    await expect.poll(() => receiver.received.length).toBe(1);
    const sweptWhileLeased = await t.modules.webhooks.service.sweep();
    t.clock.advanceMs(5 * 60_000); // past the lease (2 × timeout + 30 s)
    const sweptAfterLease = await t.modules.webhooks.service.sweep();
    await runJobs(t);
    const lateOutcome = await abandoned; // the hung attempt times out now; its stale result is dropped

    expect(sweptWhileLeased).toBe(0);
    expect(sweptAfterLease).toBe(1);
    expect(receiver.received).toHaveLength(2);
    expect(lateOutcome).toEqual({ kind: 'stale' });
    expect(await onlyDelivery(tenant.tenantId)).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it("cannot touch another tenant's delivery: a job runs inside the tenant named in its payload", async () => {
    const tenant = await aCompletedEntry();
    const other = await aTenantWithSecret(t);
    const row = await onlyDelivery(tenant.tenantId);

    const outcome = await t.modules.webhooks.service.deliver(other.tenantId, row.id);

    expect(outcome).toEqual({ kind: 'skipped' });
    expect(receiver.received).toHaveLength(0);
    expect(await onlyDelivery(tenant.tenantId)).toMatchObject({ status: 'pending', attempts: 0 });
  });

  it('sends one request when two workers try the same delivery at once', async () => {
    const tenant = await aCompletedEntry();
    const row = await onlyDelivery(tenant.tenantId);

    const outcomes = await Promise.all([
      t.modules.webhooks.service.deliver(tenant.tenantId, row.id),
      t.modules.webhooks.service.deliver(tenant.tenantId, row.id),
    ]);

    expect(outcomes.map((o) => o.kind).sort()).toEqual(['delivered', 'skipped']);
    expect(receiver.received).toHaveLength(1);
  });

  it('lets a tenant admin replay a dead letter with the same webhook-id, and audits it', async () => {
    receiver.script([{ status: 410 }, { status: 200 }]);
    const tenant = await aCompletedEntry();
    await runJobs(t);
    await setCallback(tenant.admin, receiver.url); // saving the URL re-enables the endpoint
    const failed = await onlyDelivery(tenant.tenantId);

    const replay = await tenant.admin.post(`/api/integrations/deliveries/${failed.id}/replay`);
    await runJobs(t);

    expect(replay.statusCode).toBe(202);
    expect(replay.json()).toMatchObject({
      id: failed.id,
      webhookId: failed.webhook_id,
      status: 'pending',
      attempts: 0,
    });
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([
      failed.webhook_id,
      failed.webhook_id,
    ]);
    expect(await onlyDelivery(tenant.tenantId)).toMatchObject({ status: 'delivered' });
    expect(
      await t.ownerQuery(
        "select actor_user_id from audit_events where tenant_id = $1 and action = 'webhook-delivery.replayed'",
        [tenant.tenantId],
      ),
    ).toEqual([{ actor_user_id: tenant.admin.body.user.id }]);
  });

  it('shows the delivery log to tenant admins only', async () => {
    receiver.script([{ status: 500 }]);
    const tenant = await aCompletedEntry();
    await runJobs(t);
    const backOffice = await t.createSignedInUser(tenant.admin, 'back_office');

    const log = await tenant.admin.get('/api/integrations/deliveries');
    const forbidden = await backOffice.get('/api/integrations/deliveries');

    expect(log.json()).toEqual([
      expect.objectContaining({
        status: 'pending',
        attempts: 1,
        maxAttempts: 8,
        lastResponseStatus: 500,
        nextAttemptAt: expect.any(String),
        incomingRequestId: tenant.entryId,
      }),
    ]);
    expect(forbidden.statusCode).toBe(403);
  });

  it('fails a delivery at once when no callback URL is configured', async () => {
    const tenant = await aTenantWithSecret(t);
    const id = await sendEntry(t, tenant, { plateNumber: 'ND123456' });
    await tenant.admin.post(`/api/webhook/process-request/${id}`, aCompletion());

    await runJobs(t);

    expect(await onlyDelivery(tenant.tenantId)).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_error: 'No callback URL is configured.',
    });
    expect(receiver.received).toHaveLength(0);
  });
});
