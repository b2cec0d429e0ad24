import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';

import {
  type ServerProcess,
  apiClient,
  killServer,
  sleep,
  startServer,
  startTestPostgres,
  stopServer,
} from './harness';

/**
 * REL-07: the callback worker (its own process, APP_ROLE=worker, beside an API process) is killed
 * with SIGKILL while the receiver holds the callback open. After a restart the outbox sends it
 * again (the dead attempt's lease ends, the sweep re-enqueues it): the receiver gets it at least
 * twice with the same webhook-id and, deduplicating on that id as the docs tell receivers to,
 * applies its effect once.
 */
describe('the callback worker killed mid-delivery', () => {
  let dir = '';
  let database: Awaited<ReturnType<typeof startTestPostgres>> | undefined;
  const processes: ServerProcess[] = [];
  const held: ServerResponse[] = [];
  const receiver = createServer();
  afterAll(async () => {
    for (const process of processes) await killServer(process);
    for (const response of held) response.destroy();
    receiver.closeAllConnections();
    receiver.close();
    await database?.stop().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });

  it('delivers at least once and the idempotent receiver applies it once', async () => {
    // The receiver: applies each callback's effect once per webhook-id, and holds the first
    // request open (the worker dies meanwhile); later ones get 200.
    const received: { webhookId: string; at: number }[] = [];
    const effects = new Map<string, unknown>(); // the receiver's own table, keyed by webhook-id
    receiver.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const webhookId = String(request.headers['webhook-id']);
        received.push({ webhookId, at: Date.now() });
        // The effect is applied on receipt, once per webhook-id; the first answer never gets back.
        if (!effects.has(webhookId)) {
          effects.set(webhookId, JSON.parse(Buffer.concat(chunks).toString('utf8')));
        }
        if (received.length === 1) held.push(response);
        else response.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const receiverPort = (receiver.address() as AddressInfo).port;

    dir = await mkdtemp(path.join(os.tmpdir(), 'boomgate-fault-worker-'));
    database = await startTestPostgres(path.join(dir, 'pg'));
    const env = {
      DATABASE_URL: database.url,
      WEBHOOKS_ALLOW_LOOPBACK_HTTP: 'true',
      // 2 s per attempt makes the lease 34 s (2 × timeout + 30 s): the test's longest wait.
      WEBHOOK_TIMEOUT_MS: '2000',
    };
    const dataDir = path.join(dir, 'app');
    const api = await startServer({ dataDir, env: { ...env, APP_ROLE: 'api' } });
    processes.push(api);
    let worker = await startServer({ dataDir, env: { ...env, APP_ROLE: 'worker' } });
    processes.push(worker);

    const admin = apiClient(api.url);
    const { tenant } = await admin.register();
    const secret = await admin.call('secret', 'POST', '/api/integrations/secret');
    const saved = await admin.call('url', 'PATCH', '/api/integrations', {
      callbackUrl: `http://127.0.0.1:${receiverPort}/hooks/boomgate`,
    });
    expect([secret.status, saved.status]).toEqual([201, 200]);
    const body = JSON.stringify({ plateNumber: 'CA123456', driverName: 'Sipho' });
    const messageId = `msg_${randomUUID()}`;
    const now = new Date();
    const incoming = await fetch(`${api.url}/api/webhook/incoming/${tenant.id}`, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        'webhook-id': messageId,
        'webhook-timestamp': Math.floor(now.getTime() / 1000).toString(),
        'webhook-signature': new Webhook((secret.body as { secret: string }).secret).sign(
          messageId,
          now,
          body,
        ),
      },
    });
    const { id: requestId } = (await incoming.json()) as { id: string };
    const processed = await admin.call(
      'process',
      'POST',
      `/api/webhook/process-request/${requestId}`,
      {
        plateNumber: 'CA123456',
        driverName: 'Sipho',
        driverSurname: 'Dlamini',
        driverIdNumber: '8001015009087',
        driverPhone: '0821234567',
        transportName: 'Haul Co',
      },
    );
    expect(processed.status).toBe(200);

    const waitFor = async (condition: () => boolean, withinMs: number) => {
      const deadline = Date.now() + withinMs;
      while (!condition() && Date.now() < deadline) await sleep(100);
      return condition();
    };
    expect(await waitFor(() => received.length >= 1, 20_000)).toBe(true);
    const killedAt = Date.now();
    await killServer(worker); // mid-delivery: the receiver still holds the request
    processes.splice(processes.indexOf(worker), 1);
    worker = await startServer({ dataDir, env: { ...env, APP_ROLE: 'worker' } });
    processes.push(worker);
    const restartedMs = Date.now() - killedAt;

    const isRedelivered = await waitFor(() => received.length >= 2, 130_000);
    const redeliveredMs = (received[1]?.at ?? Date.now()) - killedAt;
    // Let a further (wrong) duplicate show up if there were one.
    await sleep(3000);
    const owner = new pg.Client({ connectionString: database.url });
    await owner.connect();
    const { rows } = await owner.query<{ status: string; attempts: number; webhook_id: string }>(
      'select status, attempts, webhook_id from webhook_deliveries where tenant_id = $1',
      [tenant.id],
    );
    await owner.end();

    console.info(
      `worker kill -9 mid-delivery: worker back in ${restartedMs} ms, callback sent again ` +
        `${redeliveredMs} ms after the kill; received ${received.length}×, applied ${effects.size}×; ` +
        `outbox ${JSON.stringify(rows)}`,
    );
    expect(isRedelivered).toBe(true);
    expect(new Set(received.map((r) => r.webhookId))).toEqual(new Set([rows[0]?.webhook_id]));
    expect(effects.size).toBe(1);
    expect(rows).toEqual([expect.objectContaining({ status: 'delivered', attempts: 2 })]);
    expect(await stopServer(worker)).toBe(0);
    expect(await stopServer(api)).toBe(0);
    processes.length = 0;
  });
});
