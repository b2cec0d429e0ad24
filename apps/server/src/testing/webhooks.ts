import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Webhook } from 'standardwebhooks';

import { DELIVERY_BODY } from '@/modules/webhooks/sealed-deliveries';
import { runDueJobsOnce } from '@/platform/jobs';
import { jobsOf } from '@/worker';

import type { Session, TestApp } from './test-app';

/** A tenant admin with an integration secret, as the Integrations screen would set one up. */
export async function aTenantWithSecret(t: TestApp) {
  const admin = await t.registerTenant();
  const response = await admin.post('/api/integrations/secret');
  if (response.statusCode !== 201)
    throw new Error(`secret: ${response.statusCode} ${response.body}`);
  return {
    admin,
    tenantId: admin.body.tenant.id,
    secret: response.json<{ secret: string }>().secret,
  };
}

/** Signs exactly like an external system using the Standard Webhooks library would. */
export function signedHeaders(
  secret: string,
  body: string,
  { id = `msg_${randomUUID()}`, at = new Date() }: { id?: string; at?: Date } = {},
) {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': Math.floor(at.getTime() / 1000).toString(),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  };
}

export async function postIncoming(
  t: TestApp,
  tenantId: string,
  body: string,
  headers: Record<string, string>,
) {
  return t.inject({
    method: 'POST',
    url: `/api/webhook/incoming/${tenantId}`,
    payload: body,
    headers,
  });
}

/** Posts an entry signed with the tenant's secret at the app's (fake) clock time. */
export async function sendEntry(
  t: TestApp,
  tenant: { tenantId: string; secret: string },
  entry: Record<string, unknown>,
  options: { id?: string } = {},
) {
  const body = JSON.stringify(entry);
  const response = await postIncoming(
    t,
    tenant.tenantId,
    body,
    signedHeaders(tenant.secret, body, { ...options, at: t.clock.now() }),
  );
  if (response.statusCode !== 202 && response.statusCode !== 200) {
    throw new Error(`incoming: ${response.statusCode} ${response.body}`);
  }
  return response.json<{ id: string; duplicate: boolean }>().id;
}

export const aCompletion = (overrides: Record<string, unknown> = {}) => ({
  plateNumber: 'CA123456',
  driverName: 'Sipho',
  driverSurname: 'Dlamini',
  driverIdNumber: '8001015009087',
  driverPhone: '0821234567',
  transportName: 'Haul Co',
  ...overrides,
});

/** Runs the jobs that are due now through graphile-worker, as the worker process would. */
export function runJobs(t: TestApp) {
  return runDueJobsOnce({ ownerUrl: t.ownerUrl, jobs: jobsOf(t.modules).jobs });
}

export type ReceivedCallback = {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
};

/**
 * A callback receiver on 127.0.0.1 that answers from a script: each request takes the next
 * reply (the last one repeats). `hold` keeps a request open until `release()` is called.
 */
export async function startReceiver() {
  type Reply = { status: number; headers?: Record<string, string> } | 'hold';
  let script: Reply[] = [{ status: 200 }];
  const received: ReceivedCallback[] = [];
  const held: ServerResponse[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const reply = script.length > 1 ? script.shift() : script[0];
      if (reply === 'hold' || reply === undefined) {
        held.push(response);
        return;
      }
      response.writeHead(reply.status, reply.headers).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/boomgate`,
    port,
    received,
    script(replies: Reply[]) {
      script = replies;
    },
    release(status = 200) {
      for (const response of held.splice(0)) response.writeHead(status).end('late');
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of held.splice(0)) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

export async function setCallback(admin: Session, callbackUrl: string | null) {
  const response = await admin.patch('/api/integrations', { callbackUrl });
  if (response.statusCode !== 200)
    throw new Error(`callback: ${response.statusCode} ${response.body}`);
  return response;
}

/**
 * Outbox rows with their bodies opened (issue 26: the outbox keeps them sealed). The query must
 * select `tenant_id` and `body`.
 */
export async function openedCallbacks<T extends { body: string }>(
  t: TestApp,
  query: string,
  params: unknown[],
): Promise<T[]> {
  const rows = await t.ownerQuery<T & { tenant_id: string }>(query, params);
  return Promise.all(
    rows.map(async (row) => ({
      ...row,
      body: await t.modules.keys.keyring.open(row.tenant_id, DELIVERY_BODY, row.body),
    })),
  );
}
