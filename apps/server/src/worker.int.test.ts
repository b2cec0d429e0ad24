import { describe, expect, it } from 'vitest';

import { startServer } from '../../../scripts/lib/server-process';

import { signedHeaders, startReceiver } from './testing/webhooks';

describe('the job worker in the server process', () => {
  it('delivers the callback of a processed entry from the real process, then exits 0 on SIGTERM', async () => {
    const receiver = await startReceiver();
    const server = await startServer({ env: { WEBHOOKS_ALLOW_LOOPBACK_HTTP: 'true' } });
    try {
      const call = async (path: string, body: unknown, cookie = '') =>
        fetch(`${server.url}${path}`, {
          method: path === '/api/integrations' ? 'PATCH' : 'POST',
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify(body),
        });
      const registered = await call('/api/auth/register', {
        organizationName: 'Worker Mine',
        fullName: 'Worker Admin',
        username: 'worker-admin',
        password: 'worker-pass-1',
      });
      const cookie = (registered.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const tenantId = ((await registered.json()) as { tenant: { id: string } }).tenant.id;
      const { secret } = (await (
        await call('/api/integrations/secret', undefined, cookie)
      ).json()) as { secret: string };
      await call('/api/integrations', { callbackUrl: receiver.url }, cookie);
      const body = JSON.stringify({ plateNumber: 'ND123456', referenceNumber: 'REF-W' });
      const incoming = await fetch(`${server.url}/api/webhook/incoming/${tenantId}`, {
        method: 'POST',
        headers: signedHeaders(secret, body),
        body,
      });
      const { id } = (await incoming.json()) as { id: string };

      const processed = await call(
        `/api/webhook/process-request/${id}`,
        { plateNumber: 'ND123456', driverName: 'Sipho', driverIdNumber: '8001015009087' },
        cookie,
      );
      await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(1);

      expect(incoming.status).toBe(202);
      expect(processed.status).toBe(200);
      expect(JSON.parse(receiver.received[0]?.body ?? '{}')).toMatchObject({
        type: 'incoming-request.completed',
        data: { id, referenceNumber: 'REF-W' },
      });
    } finally {
      const exitCode = await server.stop();
      await receiver.close();
      expect(exitCode).toBe(0);
    }
  }, 90_000);
});
