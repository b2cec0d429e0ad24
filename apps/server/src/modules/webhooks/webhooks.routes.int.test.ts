import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type TestApp, createTestApp } from '@/testing/test-app';
import {
  aCompletion,
  aTenantWithSecret,
  openedCallbacks,
  sendEntry,
  setCallback,
} from '@/testing/webhooks';

describe('incoming feed and integrations routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOKS_ALLOW_LOOPBACK_HTTP: 'true' } });
  });
  afterAll(() => t.close());

  const deliveriesOf = (tenantId: string) =>
    t.ownerQuery<{ id: string; status: string; incoming_request_id: string }>(
      'select id, status, incoming_request_id from webhook_deliveries where tenant_id = $1',
      [tenantId],
    );
  const queuedJobs = (deliveryId: string) =>
    t.ownerQuery('select id from graphile_worker.jobs where key = $1', [
      `webhooks.deliver:${deliveryId}`,
    ]);

  describe('GET /api/webhook/pending-requests', () => {
    it('lists entries newest first with their status and every field of the spec', async () => {
      const tenant = await aTenantWithSecret(t);
      await sendEntry(t, tenant, { plateNumber: 'CA1', timestamp: '2026-01-01T06:00:00Z' });
      await sendEntry(t, tenant, {
        plateNumber: 'CA2',
        timestamp: '2026-01-01T07:00:00Z',
        driverName: 'Sipho',
        driverSurname: 'Dlamini',
        driverIdNumber: '8001015009087',
        driverPhone1: '0821234567',
        transportName: 'Haul Co',
        referenceNumber: 'REF-2',
        weighbridgeTicketId: 'WB-9',
        extractedDiskData: { transporterName: 'Haul Co', visitId: 'V-1' },
      });

      const response = await tenant.admin.get('/api/webhook/pending-requests');

      expect(response.json()).toEqual([
        {
          id: expect.any(String),
          timestamp: '2026-01-01T07:00:00.000Z',
          plateNumber: 'CA2',
          driverName: 'Sipho',
          driverSurname: 'Dlamini',
          driverIdNumber: '8001015009087',
          driverPhone1: '0821234567',
          transportName: 'Haul Co',
          referenceNumber: 'REF-2',
          weighbridgeTicketId: 'WB-9',
          extractedDiskData: '{"transporterName":"Haul Co","visitId":"V-1"}',
          status: 'Complete',
          completedAt: null,
          entryLogId: null,
          trailerPlates: [],
          trailerLicenceDiscIds: [],
          trailers: [],
          warnings: [],
          ruleEvidence: [],
        },
        expect.objectContaining({ plateNumber: 'CA1', status: 'Incomplete', driverName: null }),
      ]);
    });

    it('pages with X-Next-Cursor and counts every entry in the card headers, processing included', async () => {
      const tenant = await aTenantWithSecret(t);
      const complete = { driverName: 'Sipho', driverIdNumber: '8001015009087' };
      await sendEntry(t, tenant, { plateNumber: 'CA1', timestamp: '2026-01-01T06:00:00Z' });
      await sendEntry(t, tenant, { plateNumber: 'CA2', timestamp: '2026-01-01T07:00:00Z' });
      await sendEntry(t, tenant, {
        plateNumber: 'CA3',
        timestamp: '2026-01-01T08:00:00Z',
        ...complete,
      });

      const first = await tenant.admin.get('/api/webhook/pending-requests?limit=2');
      const cursor = String(first.headers['x-next-cursor']);
      const second = await tenant.admin.get(
        `/api/webhook/pending-requests?limit=2&cursor=${cursor}`,
      );

      expect(first.json<{ plateNumber: string }[]>().map((e) => e.plateNumber)).toEqual([
        'CA3',
        'CA2',
      ]);
      expect(second.json<{ plateNumber: string }[]>().map((e) => e.plateNumber)).toEqual(['CA1']);
      expect(second.headers['x-next-cursor']).toBeUndefined();
      expect(first.headers).toMatchObject({
        'x-total-count': '3',
        'x-processed-count': '1',
        'x-pending-count': '2',
      });

      const pending = second.json<{ id: string }[]>()[0]?.id ?? '';
      const processed = await tenant.admin.post(
        `/api/webhook/process-request/${pending}`,
        aCompletion({ plateNumber: 'CA1' }),
      );
      expect(processed.statusCode).toBe(200);
      expect((await tenant.admin.get('/api/webhook/pending-requests')).headers).toMatchObject({
        'x-total-count': '3',
        'x-processed-count': '2',
        'x-pending-count': '1',
      });
    });

    it('refuses a page cursor it did not hand out', async () => {
      const tenant = await aTenantWithSecret(t);

      const response = await tenant.admin.get(
        '/api/webhook/pending-requests?cursor=bm90LWEtY3Vyc29y',
      );

      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: { code: 'INVALID', message: 'The page cursor is not valid.' },
      });
    });

    it.each(['security_guard', 'back_office'])('is open to %s', async (role) => {
      const tenant = await aTenantWithSecret(t);
      const user = await t.createSignedInUser(tenant.admin, role);

      const response = await user.get('/api/webhook/pending-requests');

      expect(response.statusCode).toBe(200);
    });

    it('needs a session', async () => {
      const response = await t.inject({ method: 'GET', url: '/api/webhook/pending-requests' });

      expect(response.statusCode).toBe(401);
    });
  });

  describe('POST /api/webhook/process-request/:id', () => {
    it('completes the entry and writes one outbox row with a queued job in the same transaction', async () => {
      const tenant = await aTenantWithSecret(t);
      const id = await sendEntry(t, tenant, { plateNumber: 'ND123456', referenceNumber: 'REF-1' });
      const guard = await t.createSignedInUser(tenant.admin, 'security_guard');

      const response = await guard.post(
        `/api/webhook/process-request/${id}`,
        aCompletion({ driverLicenseNumber: '0123456789AB', driverSex: 'M' }),
      );

      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        id,
        plateNumber: 'CA123456',
        driverName: 'Sipho',
        driverIdNumber: '8001015009087',
        driverPhone1: '0821234567',
        referenceNumber: 'REF-1',
        status: 'Complete',
        completedAt: expect.any(String),
      });
      const deliveries = await deliveriesOf(tenant.tenantId);
      expect(deliveries).toEqual([
        { id: expect.any(String), status: 'pending', incoming_request_id: id },
      ]);
      expect(await queuedJobs(deliveries[0]?.id ?? '')).toHaveLength(1);
      expect(
        await t.ownerQuery(
          "select actor_user_id from audit_events where tenant_id = $1 and action = 'incoming-request.completed'",
          [tenant.tenantId],
        ),
      ).toEqual([{ actor_user_id: guard.body.user.id }]);
    });

    it('says whether the callback was queued: only with a callback URL set, enabled and signable', async () => {
      const tenant = await aTenantWithSecret(t);
      const guard = await t.createSignedInUser(tenant.admin, 'security_guard');
      const processed = async () => {
        const id = await sendEntry(t, tenant, { plateNumber: 'ND123456' });
        const response = await guard.post(`/api/webhook/process-request/${id}`, aCompletion());
        expect(response.statusCode).toBe(200);
        return response.json<{ id: string; callbackQueued: boolean }>();
      };

      const withoutUrl = await processed();
      await setCallback(tenant.admin, 'http://127.0.0.1:9/hooks');
      const withUrl = await processed();
      await t.ownerQuery(
        'update webhook_integrations set callback_disabled_at = now() where tenant_id = $1',
        [tenant.tenantId],
      );
      const disabled = await processed();

      expect([withoutUrl, withUrl, disabled].map((entry) => entry.callbackQueued)).toEqual([
        false,
        true,
        false,
      ]);
      expect(withoutUrl).toMatchObject({ status: 'Complete', completedAt: expect.any(String) });
      // The completion and its outbox row are kept either way.
      expect(
        (await deliveriesOf(tenant.tenantId)).map((d) => d.incoming_request_id).sort(),
      ).toEqual([withoutUrl.id, withUrl.id, disabled.id].sort());
    });

    it('writes neither the completion nor the outbox row when the transaction fails', async () => {
      const tenant = await aTenantWithSecret(t);
      const id = await sendEntry(t, tenant, { plateNumber: 'ND123456' });
      // Make the last write of the transaction (the job) fail: the earlier writes must roll back.
      await t.ownerQuery('revoke insert on graphile_worker._private_jobs from boomgate_app');

      try {
        const response = await tenant.admin.post(
          `/api/webhook/process-request/${id}`,
          aCompletion(),
        );

        expect(response.statusCode).toBe(500);
      } finally {
        await t.ownerQuery('grant insert on graphile_worker._private_jobs to boomgate_app');
      }
      expect(await deliveriesOf(tenant.tenantId)).toEqual([]);
      expect(
        await t.ownerQuery(
          'select completed_at, driver_name from incoming_requests where id = $1',
          [id],
        ),
      ).toEqual([{ completed_at: null, driver_name: null }]);
    });

    it("answers another tenant's entry exactly like a missing one", async () => {
      const tenant = await aTenantWithSecret(t);
      const other = await t.registerTenant();
      const id = await sendEntry(t, tenant, { plateNumber: 'ND123456' });

      const foreign = await other.post(`/api/webhook/process-request/${id}`, aCompletion());
      const missing = await other.post(
        `/api/webhook/process-request/${crypto.randomUUID()}`,
        aCompletion(),
      );

      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual(missing.json());
      expect(await deliveriesOf(tenant.tenantId)).toEqual([]);
    });

    describe('exactly one callback per completion (REL-04)', () => {
      const CONFLICT = {
        error: {
          code: 'CONFLICT',
          message:
            'This entry was processed by someone else in the meantime. Reload the feed and edit it again if needed.',
        },
      };
      const callbacksOf = async (tenantId: string, entryId: string) => {
        const rows = await openedCallbacks<{ id: string; body: string }>(
          t,
          'select tenant_id, id, body from webhook_deliveries where tenant_id = $1 and incoming_request_id = $2 order by created_at',
          [tenantId, entryId],
        );
        const jobs = await t.ownerQuery('select id from graphile_worker.jobs where key = any($1)', [
          rows.map((row) => `webhooks.deliver:${row.id}`),
        ]);
        return {
          deliveries: rows.length,
          jobs: jobs.length,
          driverNames: rows.map(
            (row) => (JSON.parse(row.body) as { data: { driverName: string } }).data.driverName,
          ),
        };
      };
      const completions = (tenantId: string) =>
        t.ownerQuery(
          "select id from audit_events where tenant_id = $1 and action = 'incoming-request.completed'",
          [tenantId],
        );

      it('completes an entry once when ten users process it at the same time with expectedCompletedAt null: one 200, nine 409', async () => {
        const tenant = await aTenantWithSecret(t);
        const id = await sendEntry(t, tenant, { plateNumber: 'ND123456' });
        const users = await Promise.all(
          Array.from({ length: 10 }, () => t.createSignedInUser(tenant.admin, 'security_guard')),
        );

        const responses = await Promise.all(
          users.map((user, index) =>
            user.post(
              `/api/webhook/process-request/${id}`,
              aCompletion({ driverName: `Driver ${index}`, expectedCompletedAt: null }),
            ),
          ),
        );

        const statuses = responses.map((response) => response.statusCode).sort();
        expect(statuses).toEqual([200, ...Array<number>(9).fill(409)]);
        for (const refused of responses.filter((response) => response.statusCode === 409)) {
          expect(refused.json()).toEqual(CONFLICT);
        }
        const winner = responses.find((response) => response.statusCode === 200);
        const winnerName = winner?.json<{ driverName: string }>().driverName;
        expect(await callbacksOf(tenant.tenantId, id)).toEqual({
          deliveries: 1,
          jobs: 1,
          driverNames: [winnerName],
        });
        expect(await completions(tenant.tenantId)).toHaveLength(1);
        expect(
          await t.ownerQuery('select driver_name from incoming_requests where id = $1', [id]),
        ).toEqual([{ driver_name: winnerName }]);
      });

      it('edits a processed entry from the completion it names, and refuses a stale one or an explicit null', async () => {
        const tenant = await aTenantWithSecret(t);
        const id = await sendEntry(t, tenant, { plateNumber: 'ND123456' });
        const first = await tenant.admin.post(`/api/webhook/process-request/${id}`, aCompletion());
        const firstCompletedAt = first.json<{ completedAt: string }>().completedAt;

        const edit = await tenant.admin.post(
          `/api/webhook/process-request/${id}`,
          aCompletion({ driverName: 'Thabo', expectedCompletedAt: firstCompletedAt }),
        );
        const stale = await tenant.admin.post(
          `/api/webhook/process-request/${id}`,
          aCompletion({ driverName: 'Stale', expectedCompletedAt: firstCompletedAt }),
        );
        const asIfNew = await tenant.admin.post(
          `/api/webhook/process-request/${id}`,
          aCompletion({ driverName: 'Double submit', expectedCompletedAt: null }),
        );

        expect([first.statusCode, edit.statusCode, stale.statusCode, asIfNew.statusCode]).toEqual([
          200, 200, 409, 409,
        ]);
        // The clock of the test stands still; the edit still moves completedAt forward.
        expect(edit.json<{ completedAt: string }>().completedAt > firstCompletedAt).toBe(true);
        expect(stale.json()).toEqual(CONFLICT);
        expect(asIfNew.json()).toEqual(CONFLICT);
        expect(await callbacksOf(tenant.tenantId, id)).toEqual({
          deliveries: 2,
          jobs: 2,
          driverNames: ['Sipho', 'Thabo'],
        });
      });

      it('edits a processed entry for a caller that omits expectedCompletedAt (the payload before REL-04)', async () => {
        const tenant = await aTenantWithSecret(t);
        const id = await sendEntry(t, tenant, { plateNumber: 'ND123456' });
        const first = await tenant.admin.post(`/api/webhook/process-request/${id}`, aCompletion());
        const firstCompletedAt = first.json<{ completedAt: string }>().completedAt;

        const asIfNew = await tenant.admin.post(
          `/api/webhook/process-request/${id}`,
          aCompletion({ driverName: 'Old client' }),
        );

        expect([first.statusCode, asIfNew.statusCode]).toEqual([200, 200]);
        expect(asIfNew.json()).toMatchObject({ driverName: 'Old client', status: 'Complete' });
        expect(asIfNew.json<{ completedAt: string }>().completedAt > firstCompletedAt).toBe(true);
        expect(await callbacksOf(tenant.tenantId, id)).toEqual({
          deliveries: 2,
          jobs: 2,
          driverNames: ['Sipho', 'Old client'],
        });
      });

      it('applies concurrent calls without expectedCompletedAt one after another, one callback each', async () => {
        const tenant = await aTenantWithSecret(t);
        const id = await sendEntry(t, tenant, { plateNumber: 'ND123456' });
        const users = await Promise.all(
          Array.from({ length: 5 }, () => t.createSignedInUser(tenant.admin, 'security_guard')),
        );

        const responses = await Promise.all(
          users.map((user, index) =>
            user.post(
              `/api/webhook/process-request/${id}`,
              aCompletion({ driverName: `Driver ${index}` }),
            ),
          ),
        );

        expect(responses.map((response) => response.statusCode)).toEqual(
          Array<number>(5).fill(200),
        );
        // Each call has its own completion (distinct completedAt, the clock standing still) and
        // its own callback carrying what that call sent.
        const completedAts = responses.map(
          (response) => response.json<{ completedAt: string }>().completedAt,
        );
        expect(new Set(completedAts).size).toBe(5);
        const callbacks = await callbacksOf(tenant.tenantId, id);
        expect(callbacks.deliveries).toBe(5);
        expect(callbacks.jobs).toBe(5);
        expect([...callbacks.driverNames].sort()).toEqual(
          users.map((_, index) => `Driver ${index}`),
        );
        const bodies = await openedCallbacks<{ body: string }>(
          t,
          'select tenant_id, body from webhook_deliveries where tenant_id = $1 and incoming_request_id = $2',
          [tenant.tenantId, id],
        );
        expect(
          bodies
            .map(
              (row) => (JSON.parse(row.body) as { data: { completedAt: string } }).data.completedAt,
            )
            .sort(),
        ).toEqual([...completedAts].sort());
        // The row holds the last completion applied.
        const [latest] = [...completedAts].sort().reverse();
        const [row] = await t.ownerQuery<{ completed_at: Date }>(
          'select completed_at from incoming_requests where id = $1',
          [id],
        );
        expect(row?.completed_at.toISOString()).toBe(latest);
      });

      it('lets one of two concurrent edits of the same completion through', async () => {
        const tenant = await aTenantWithSecret(t);
        const id = await sendEntry(t, tenant, { plateNumber: 'ND123456' });
        const first = await tenant.admin.post(`/api/webhook/process-request/${id}`, aCompletion());
        const expectedCompletedAt = first.json<{ completedAt: string }>().completedAt;
        const other = await t.createSignedInUser(tenant.admin, 'back_office');

        const responses = await Promise.all(
          [tenant.admin, other, tenant.admin, other].map((user, index) =>
            user.post(
              `/api/webhook/process-request/${id}`,
              aCompletion({ driverName: `Edit ${index}`, expectedCompletedAt }),
            ),
          ),
        );

        expect(responses.map((response) => response.statusCode).sort()).toEqual([
          200, 409, 409, 409,
        ]);
        expect((await callbacksOf(tenant.tenantId, id)).deliveries).toBe(2);
        expect(await completions(tenant.tenantId)).toHaveLength(2);
      });
    });

    it('requires plate, driver name and ID number, and refuses unknown fields', async () => {
      const tenant = await aTenantWithSecret(t);
      const id = await sendEntry(t, tenant, { plateNumber: 'ND123456' });

      const noName = await tenant.admin.post(
        `/api/webhook/process-request/${id}`,
        aCompletion({ driverName: '' }),
      );
      const noId = await tenant.admin.post(
        `/api/webhook/process-request/${id}`,
        aCompletion({ driverIdNumber: undefined }),
      );
      const extra = await tenant.admin.post(
        `/api/webhook/process-request/${id}`,
        aCompletion({ tenantId: crypto.randomUUID() }),
      );

      expect([noName.statusCode, noId.statusCode, extra.statusCode]).toEqual([400, 400, 400]);
    });
  });

  describe('integrations API', () => {
    it('shows the secret once and keeps only its ciphertext', async () => {
      const tenant = await aTenantWithSecret(t);

      const integration = await tenant.admin.get('/api/integrations');
      const [row] = await t.ownerQuery<{ secret_ciphertext: string }>(
        'select secret_ciphertext from webhook_integrations where tenant_id = $1',
        [tenant.tenantId],
      );

      expect(integration.json()).toEqual({
        incomingUrl: `/api/webhook/incoming/${tenant.tenantId}`,
        hasSecret: true,
        secretCreatedAt: expect.any(String),
        previousSecretExpiresAt: null,
        callbackUrl: null,
        callbackDisabledAt: null,
        callbackDisabledReason: null,
      });
      expect(integration.body).not.toContain(tenant.secret);
      expect(row?.secret_ciphertext).toMatch(/^v1\./);
      expect(row?.secret_ciphertext).not.toContain(tenant.secret.slice(6));
    });

    it('keeps the previous secret for 24 hours after a rotation, and audits both', async () => {
      const tenant = await aTenantWithSecret(t);

      const rotated = await tenant.admin.post('/api/integrations/secret');

      const expiresAt = new Date(rotated.json().previousSecretExpiresAt).getTime();
      expect(expiresAt - t.clock.now().getTime()).toBe(24 * 3_600_000);
      expect(
        (
          await t.ownerQuery<{ action: string }>(
            "select action from audit_events where tenant_id = $1 and action like 'integration.secret%' order by occurred_at",
            [tenant.tenantId],
          )
        ).map((r) => r.action),
      ).toEqual(['integration.secret-created', 'integration.secret-rotated']);
    });

    it('saves a loopback callback URL only because the development flag is on', async () => {
      const tenant = await aTenantWithSecret(t);

      const response = await setCallback(tenant.admin, 'http://127.0.0.1:9/hooks');

      expect(response.json()).toMatchObject({ callbackUrl: 'http://127.0.0.1:9/hooks' });
    });

    it.each([
      'http://10.0.0.5/hooks',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:192.168.0.1]/',
      'http://0xa9.0xfe.0xa9.0xfe/',
      'http://user:secret@127.0.0.1:9/',
      'ftp://127.0.0.1/',
    ])('refuses the callback URL %s', async (callbackUrl) => {
      const tenant = await aTenantWithSecret(t);

      const response = await tenant.admin.patch('/api/integrations', { callbackUrl });

      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('INVALID');
    });

    it('refuses http and any port but 443 whatever NODE_ENV says (SEC-63; this app runs as test)', async () => {
      const tenant = await aTenantWithSecret(t);

      const responses = await Promise.all(
        ['http://8.8.8.8/hook', 'http://8.8.8.8:8080/hook', 'https://8.8.8.8:8443/hook'].map(
          (callbackUrl) => tenant.admin.patch('/api/integrations', { callbackUrl }),
        ),
      );

      expect(responses.map((response) => response.json().error?.message)).toEqual([
        'The callback URL must use https.',
        'The callback URL must use https.',
        'The callback URL must use port 443.',
      ]);
      expect(responses.map((response) => response.statusCode)).toEqual([400, 400, 400]);
    });

    it.each(['back_office', 'security_guard'])('is closed to %s', async (role) => {
      const tenant = await aTenantWithSecret(t);
      const user = await t.createSignedInUser(tenant.admin, role);

      const responses = [
        await user.get('/api/integrations'),
        await user.post('/api/integrations/secret'),
        await user.patch('/api/integrations', { callbackUrl: null }),
      ];

      expect(responses.map((r) => r.statusCode)).toEqual([403, 403, 403]);
    });

    it("answers a replay of another tenant's delivery like a missing one", async () => {
      const tenant = await aTenantWithSecret(t);
      const other = await t.registerTenant();
      const id = await sendEntry(t, tenant, { plateNumber: 'ND123456' });
      await tenant.admin.post(`/api/webhook/process-request/${id}`, aCompletion());
      const [delivery] = await deliveriesOf(tenant.tenantId);

      const foreign = await other.post(`/api/integrations/deliveries/${delivery?.id}/replay`);
      const missing = await other.post(
        `/api/integrations/deliveries/${crypto.randomUUID()}/replay`,
      );

      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual(missing.json());
    });
  });

  describe('GET /api/docs/json', () => {
    it('documents the inbound payload, the signature scheme and the callback payload', async () => {
      const response = await t.inject({ method: 'GET', url: '/api/docs/json' });
      const doc = response.json();

      const incoming = doc.paths['/api/webhook/incoming/{tenantId}'].post;
      expect(incoming.description).toContain('webhook-signature');
      expect(
        Object.keys(incoming.requestBody.content['application/json'].schema.properties),
      ).toEqual(
        expect.arrayContaining([
          'plateNumber',
          'driverName',
          'driverIdNumber',
          'referenceNumber',
          'extractedDiskData',
        ]),
      );
      expect(
        doc.components.schemas.IncomingRequestCompletedEvent.properties.data.properties,
      ).toHaveProperty('driverIdNumber');
      expect(
        doc.tags.find((tag: { name: string }) => tag.name === 'integrations').description,
      ).toContain('Retry-After');
    });
  });
});

describe('callback URL rules outside production (SEC-63)', () => {
  it('refuses an http callback URL with NODE_ENV=development', async () => {
    const t = await createTestApp({ env: { NODE_ENV: 'development' } });
    try {
      const tenant = await aTenantWithSecret(t);

      const response = await tenant.admin.patch('/api/integrations', {
        callbackUrl: 'http://8.8.8.8/hook',
      });

      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatchObject({
        code: 'INVALID',
        message: 'The callback URL must use https.',
      });
    } finally {
      await t.close();
    }
  });
});
