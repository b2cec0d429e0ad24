import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type TestApp, createTestApp } from '@/testing/test-app';
import { aTenantWithSecret, postIncoming, sendEntry, signedHeaders } from '@/testing/webhooks';

describe('POST /api/webhook/incoming/:tenantId', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const entry = {
    plateNumber: 'ND 123-456',
    driverName: 'Thabo',
    transportName: 'Karoo Haulage',
    referenceNumber: 'REF-1001',
  };
  const unauthenticated = {
    error: { code: 'UNAUTHENTICATED', message: 'The webhook signature could not be verified.' },
  };

  it('stores a correctly signed entry and answers 202 with its id', async () => {
    const tenant = await aTenantWithSecret(t);
    const body = JSON.stringify(entry);

    const response = await postIncoming(
      t,
      tenant.tenantId,
      body,
      signedHeaders(tenant.secret, body, { at: t.clock.now() }),
    );

    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ id: expect.any(String), duplicate: false });
    const feed = await tenant.admin.get('/api/webhook/pending-requests');
    expect(feed.json()).toEqual([
      expect.objectContaining({
        id: response.json().id,
        plateNumber: 'ND123456',
        driverName: 'Thabo',
        referenceNumber: 'REF-1001',
        status: 'Incomplete',
      }),
    ]);
  });

  it('refuses the body with one byte changed', async () => {
    const tenant = await aTenantWithSecret(t);
    const body = JSON.stringify(entry);
    const headers = signedHeaders(tenant.secret, body, { at: t.clock.now() });

    const response = await postIncoming(
      t,
      tenant.tenantId,
      body.replace('Thabo', 'Thabi'),
      headers,
    );

    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(unauthenticated);
  });

  it('refuses the same JSON re-serialised with different whitespace (the raw bytes are verified)', async () => {
    const tenant = await aTenantWithSecret(t);
    const body = JSON.stringify(entry);
    const headers = signedHeaders(tenant.secret, body, { at: t.clock.now() });

    const response = await postIncoming(
      t,
      tenant.tenantId,
      JSON.stringify(entry, null, 2),
      headers,
    );

    expect(response.statusCode).toBe(401);
  });

  it('refuses timestamps more than 300 s away and accepts 299 s', async () => {
    const tenant = await aTenantWithSecret(t);
    const body = JSON.stringify(entry);
    const at = (seconds: number) => new Date(t.clock.now().getTime() + seconds * 1000);

    const old = await postIncoming(
      t,
      tenant.tenantId,
      body,
      signedHeaders(tenant.secret, body, { at: at(-301) }),
    );
    const future = await postIncoming(
      t,
      tenant.tenantId,
      body,
      signedHeaders(tenant.secret, body, { at: at(301) }),
    );
    const recent = await postIncoming(
      t,
      tenant.tenantId,
      body,
      signedHeaders(tenant.secret, body, { at: at(-299) }),
    );

    expect(old.statusCode).toBe(401);
    expect(future.statusCode).toBe(401);
    expect(recent.statusCode).toBe(202);
  });

  it.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'])(
    'refuses a post without %s',
    async (name) => {
      const tenant = await aTenantWithSecret(t);
      const body = JSON.stringify(entry);
      const headers: Record<string, string> = signedHeaders(tenant.secret, body, {
        at: t.clock.now(),
      });
      delete headers[name];

      const response = await postIncoming(t, tenant.tenantId, body, headers);

      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(unauthenticated);
    },
  );

  it('accepts a post whose second listed signature is the valid one', async () => {
    const tenant = await aTenantWithSecret(t);
    const body = JSON.stringify(entry);
    const headers = signedHeaders(tenant.secret, body, { at: t.clock.now() });
    const wrong = `v1,${Buffer.alloc(32, 7).toString('base64')}`;

    const response = await postIncoming(t, tenant.tenantId, body, {
      ...headers,
      'webhook-signature': `${wrong} ${headers['webhook-signature']}`,
    });

    expect(response.statusCode).toBe(202);
  });

  it('accepts the old and the new secret during the rotation window, and only the new one after it', async () => {
    const tenant = await aTenantWithSecret(t);
    const rotated = await tenant.admin.post('/api/integrations/secret');
    const newSecret = rotated.json<{ secret: string }>().secret;
    const body = JSON.stringify(entry);
    const post = (secret: string) =>
      postIncoming(t, tenant.tenantId, body, signedHeaders(secret, body, { at: t.clock.now() }));

    const withOld = await post(tenant.secret);
    const withNew = await post(newSecret);
    t.clock.advanceMs(24 * 3_600_000 + 1_000);
    const oldAfterWindow = await post(tenant.secret);
    const newAfterWindow = await post(newSecret);

    expect(rotated.statusCode).toBe(201);
    expect(newSecret).not.toBe(tenant.secret);
    expect(withOld.statusCode).toBe(202);
    expect(withNew.statusCode).toBe(202);
    expect(oldAfterWindow.statusCode).toBe(401);
    expect(newAfterWindow.statusCode).toBe(202);
  });

  it('answers an unknown tenant, a tenant without a secret and a wrong secret alike', async () => {
    const tenant = await aTenantWithSecret(t);
    const withoutSecret = await t.registerTenant();
    const body = JSON.stringify(entry);
    const headers = signedHeaders(tenant.secret, body, { at: t.clock.now() });

    const unknown = await postIncoming(t, crypto.randomUUID(), body, headers);
    const noSecret = await postIncoming(t, withoutSecret.body.tenant.id, body, headers);
    const notUuid = await postIncoming(t, 'not-a-tenant', body, headers);

    for (const response of [unknown, noSecret, notUuid]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(unauthenticated);
    }
  });

  it('stores 20 concurrent deliveries of one webhook-id once, answering each with the same id', async () => {
    const tenant = await aTenantWithSecret(t);
    const body = JSON.stringify(entry);
    const headers = signedHeaders(tenant.secret, body, {
      id: 'msg_same_delivery',
      at: t.clock.now(),
    });

    const responses = await Promise.all(
      Array.from({ length: 20 }, () => postIncoming(t, tenant.tenantId, body, headers)),
    );

    const ids = new Set(responses.map((response) => response.json<{ id: string }>().id));
    expect(responses.every((response) => [200, 202].includes(response.statusCode))).toBe(true);
    expect(responses.filter((response) => response.statusCode === 202)).toHaveLength(1);
    expect(ids.size).toBe(1);
    expect(
      await t.ownerQuery('select id from incoming_requests where tenant_id = $1', [
        tenant.tenantId,
      ]),
    ).toHaveLength(1);
  });

  it('answers 413 for a body over 256 KiB and 415 for a body that is not JSON', async () => {
    const tenant = await aTenantWithSecret(t);
    const big = JSON.stringify({ ...entry, extractedDiskData: 'x'.repeat(300 * 1024) });
    const text = 'plate=ND123456';

    const tooLarge = await postIncoming(
      t,
      tenant.tenantId,
      big,
      signedHeaders(tenant.secret, big, { at: t.clock.now() }),
    );
    const notJson = await postIncoming(t, tenant.tenantId, text, {
      ...signedHeaders(tenant.secret, text, { at: t.clock.now() }),
      'content-type': 'text/plain',
    });

    expect(tooLarge.statusCode).toBe(413);
    expect(notJson.statusCode).toBe(415);
  });

  it('answers 400 for a signed body that is not valid JSON or not a valid entry', async () => {
    const tenant = await aTenantWithSecret(t);
    const broken = '{"plateNumber":';
    const empty = JSON.stringify({ transportName: 'Karoo Haulage' });

    const invalidJson = await postIncoming(
      t,
      tenant.tenantId,
      broken,
      signedHeaders(tenant.secret, broken, { at: t.clock.now() }),
    );
    const invalidEntry = await postIncoming(
      t,
      tenant.tenantId,
      empty,
      signedHeaders(tenant.secret, empty, { at: t.clock.now() }),
    );

    expect(invalidJson.statusCode).toBe(400);
    expect(invalidEntry.statusCode).toBe(400);
  });

  it('refuses a signed body with a key the entry does not have (SEC-10, strict)', async () => {
    const tenant = await aTenantWithSecret(t);
    const body = JSON.stringify({ ...entry, vehicleApproved: true });

    const response = await postIncoming(
      t,
      tenant.tenantId,
      body,
      signedHeaders(tenant.secret, body, { at: t.clock.now() }),
    );

    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'INVALID', issues: expect.any(Array) });
    expect(
      await t.ownerQuery('select id from incoming_requests where tenant_id = $1', [
        tenant.tenantId,
      ]),
    ).toHaveLength(0);
  });

  it('rate-limits 300 bad-signature calls in a row from one address, with Retry-After', async () => {
    const tenant = await aTenantWithSecret(t);
    const body = JSON.stringify(entry);
    const forged = signedHeaders('whsec_' + 'A'.repeat(43), body, { at: t.clock.now() });
    const post = (remoteAddress: string, headers: Record<string, string>) =>
      t.inject({
        method: 'POST',
        url: `/api/webhook/incoming/${tenant.tenantId}`,
        payload: body,
        headers,
        remoteAddress,
      });

    const statuses: number[] = [];
    let last = await post('10.9.0.1', forged);
    statuses.push(last.statusCode);
    for (let i = 1; i < 300; i++) {
      last = await post('10.9.0.1', forged);
      statuses.push(last.statusCode);
    }
    const good = signedHeaders(tenant.secret, body, { at: t.clock.now() });
    const fromElsewhere = await post('10.9.0.2', good);
    const stillBlocked = await post('10.9.0.1', good);

    expect(statuses.slice(0, 100).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(100).every((status) => status === 429)).toBe(true);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    expect(last.json().error.code).toBe('RATE_LIMITED');
    expect(fromElsewhere.statusCode).toBe(202);
    expect(stillBlocked.statusCode).toBe(429);
    t.clock.advanceMs(10 * 60_000);
    expect((await post('10.9.0.1', forged)).statusCode).toBe(401);
  });

  it('is exempt from the cross-site guard (it is authenticated by signature, not a cookie)', async () => {
    const tenant = await aTenantWithSecret(t);
    const body = JSON.stringify(entry);

    const response = await postIncoming(t, tenant.tenantId, body, {
      ...signedHeaders(tenant.secret, body, { at: t.clock.now() }),
      origin: 'https://erp.example.com',
      'sec-fetch-site': 'cross-site',
    });

    expect(response.statusCode).toBe(202);
  });

  it('logs each verification with its webhook-id and result, never the signature or the secret', async () => {
    const tenant = await aTenantWithSecret(t);
    const body = JSON.stringify(entry);
    const headers = signedHeaders(tenant.secret, body, {
      id: 'msg_logged_once',
      at: t.clock.now(),
    });

    await postIncoming(t, tenant.tenantId, body, headers);
    await postIncoming(t, tenant.tenantId, body, { ...headers, 'webhook-id': 'msg_logged_bad' });

    const logs = t.logLines.join('\n');
    expect(logs).toMatch(/"webhookId":"msg_logged_once","result":"verified"/);
    expect(logs).toMatch(/"webhookId":"msg_logged_bad","result":"no-matching-signature"/);
    expect(logs).not.toContain(headers['webhook-signature'].slice(3));
    expect(logs).not.toContain(tenant.secret.slice(6));
  });

  it("keeps one tenant's entries out of another tenant's feed", async () => {
    const tenant = await aTenantWithSecret(t);
    const other = await t.registerTenant();
    await sendEntry(t, tenant, entry);

    const feed = await other.get('/api/webhook/pending-requests');

    expect(feed.statusCode).toBe(200);
    expect(feed.json()).toEqual([]);
  });
});
