import { randomUUID } from 'node:crypto';
import { type IncomingMessage, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { createDriver, startAgent, startHttpSimulator } from 'boomgate-agent';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Cluster, startCluster } from './cluster';
import { type Answer, type Client, client, gateLoad, sleep } from './load';

/**
 * test:cluster (issue 27): the cloud shape of `npm run cluster` — three API instances and a worker
 * behind HAProxy on one PostgreSQL, images in s3rver — under the faults a load balancer must
 * absorb. Clients never retry; HAProxy may re-dispatch a request that could not connect.
 */
let cluster: Cluster;
let owner: pg.Pool;
let admin: Client;
let tenantId: string;
const report: string[] = [];

/** A callback receiver on loopback (the tenant's system), answering 200. */
async function startReceiver() {
  const received: { id: string; body: string }[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        id: String(request.headers['webhook-id']),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    received,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callbacks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let secret: string;

/** Requests each API server has answered so far (HAProxy `show stat`, column stot). */
async function sessionsPerServer() {
  const lines = (await cluster.haproxy('show stat')).split('\n');
  const header = (lines[0] ?? '').replace(/^# /, '').split(',');
  const column = header.indexOf('stot');
  const totals: Record<string, number> = {};
  for (const line of lines.slice(1)) {
    const fields = line.split(',');
    if (fields[0] === 'api' && fields[1]?.startsWith('api')) {
      totals[fields[1]] = Number(fields[column]);
    }
  }
  return totals;
}

async function until(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(100);
  }
}

function signed(body: string, id: string) {
  const at = new Date();
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': Math.floor(at.getTime() / 1000).toString(),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  };
}

const statuses = (answers: Answer[]) =>
  answers.reduce<Record<string, number>>((counts, answer) => {
    const key = String(answer.status ?? answer.error);
    counts[key] = (counts[key] ?? 0) + 1;
    return counts;
  }, {});

beforeAll(async () => {
  receiver = await startReceiver();
  cluster = await startCluster({
    // The load below is one user's: its grants must not hit the per-user upload limit (shared
    // by the instances in PostgreSQL, as it should be).
    env: {
      WEBHOOKS_ALLOW_LOOPBACK_HTTP: 'true',
      BARRIER_RESULT_TIMEOUT_MS: '4000',
      RATE_LIMIT_UPLOADS_PER_MINUTE: '1000000',
    },
    log: (line) => {
      if (
        !/NodeVersionSupportWarning|node >=22|a\.co\/|trace-warnings|upgrade to node|after the first week|To continue receiving/.test(
          line,
        )
      ) {
        process.stdout.write(`${line}\n`);
      }
    },
  });
  owner = new pg.Pool({ connectionString: cluster.postgres.url, max: 2 });
  owner.on('error', () => undefined); // PostgreSQL is restarted on purpose below
  admin = client(cluster.url);
  tenantId = (await admin.register(`cluster${Date.now().toString(36)}`)).tenant.id;
  const created = await admin.call('secret', 'POST', '/api/integrations/secret');
  secret = (created.body as { secret: string }).secret;
  const callback = await admin.call('callback', 'PATCH', '/api/integrations', {
    callbackUrl: receiver.url,
  });
  expect(callback.status).toBe(200);
});

afterAll(async () => {
  process.stdout.write(`\n=== test:cluster report\n${report.join('\n')}\n`);
  await owner?.end();
  await cluster?.stop();
  await receiver?.close();
});

describe('three API instances and a worker behind HAProxy', () => {
  it('20 concurrent duplicate webhooks spread over the instances: one entry, one callback', async () => {
    const before = await sessionsPerServer();
    const webhookId = `msg_${randomUUID()}`;
    const body = JSON.stringify({ plateNumber: 'ND777111', referenceNumber: 'CLUSTER-1' });
    // Each post on its own connection, as 20 retries of a sender would come.
    const posts = await Promise.all(
      Array.from({ length: 20 }, () =>
        client(cluster.url).call(
          'incoming',
          'POST',
          `/api/webhook/incoming/${tenantId}`,
          body,
          signed(body, webhookId),
        ),
      ),
    );
    const after = await sessionsPerServer();
    const served = Object.fromEntries(
      Object.keys(after).map((name) => [name, (after[name] ?? 0) - (before[name] ?? 0)]),
    );
    report.push(
      `duplicate webhooks: answers ${JSON.stringify(statuses(posts))}, per instance ${JSON.stringify(served)}`,
    );
    for (const post of posts) expect([200, 202]).toContain(post.status);
    const ids = new Set(posts.map((post) => (post.body as { id: string }).id));
    expect(ids.size).toBe(1);
    // Spread: every instance answered some of them.
    for (const api of cluster.apis) expect(served[api.name]).toBeGreaterThan(0);
    const entryId = [...ids][0]!;
    const { rows } = await owner.query(
      'select id from incoming_requests where tenant_id = $1 and reference_number = $2',
      [tenantId, 'CLUSTER-1'],
    );
    expect(rows).toHaveLength(1);

    // Twenty guards complete it at once, over every instance, each expecting it unprocessed
    // (expectedCompletedAt null): one completion, nineteen 409s, one callback.
    const completions = await Promise.all(
      Array.from({ length: 20 }, () =>
        client(cluster.url).call(
          'process',
          'POST',
          `/api/webhook/process-request/${entryId}`,
          {
            plateNumber: 'ND777111',
            driverName: 'Sipho',
            driverSurname: 'Dlamini',
            driverIdNumber: '8001015009087',
            driverPhone: '0821234567',
            transportName: 'Haul Co',
            expectedCompletedAt: null,
          },
          { cookie: admin.cookie },
        ),
      ),
    );
    report.push(`concurrent completions: ${JSON.stringify(statuses(completions))}`);
    expect(completions.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const answer of completions) expect([200, 409]).toContain(answer.status);
    await until(() => receiver.received.length > 0, 30_000, 'the callback');
    await sleep(3_000); // a second callback would be here by now
    const callbacks = receiver.received.filter((r) => r.body.includes(entryId));
    expect(callbacks).toHaveLength(1);
  });

  it('a barrier opened on any instance reaches the agent connected through HAProxy to one', async () => {
    const { rows } = await owner.query<{ id: string }>(
      'select id from gates where tenant_id = $1 limit 1',
      [tenantId],
    );
    const gateId = rows[0]!.id;
    const token = (await admin.call('token', 'POST', `/api/gates/${gateId}/agent-token`)).body as {
      token: string;
    };
    const simulator = await startHttpSimulator({});
    const agent = startAgent({
      serverUrl: cluster.url,
      token: token.token,
      driver: createDriver({
        kind: 'http',
        url: `http://127.0.0.1:${simulator.port}/relay/0`,
        httpBody: '{"pulse":true}',
        httpExpect: '"ok":true',
      }),
      maxCommandAgeMs: 3_000,
      reconnectMinMs: 50,
      reconnectMaxMs: 500,
    });
    try {
      await until(
        async () =>
          (
            (await admin.call('status', 'GET', `/api/gates/${gateId}/barrier`)).body as {
              connected: boolean;
            }
          ).connected,
        20_000,
        'the agent connected',
      );
      // Six opens, two per instance by round robin: five of six land away from the agent's one.
      const outcomes = [];
      for (let n = 0; n < 6; n++) {
        outcomes.push(
          await client(cluster.url).call(
            'open',
            'POST',
            `/api/gates/${gateId}/open`,
            { reason: 'test' },
            { cookie: admin.cookie },
          ),
        );
      }
      report.push(
        `barrier opens through HAProxy: ${outcomes.map((o) => (o.body as { result: string }).result).join(', ')}; pulses ${simulator.pulses}`,
      );
      for (const outcome of outcomes) {
        expect(outcome.status).toBe(200);
        expect(outcome.body).toMatchObject({ opened: true, result: 'opened' });
      }
      expect(simulator.pulses).toBe(6);
    } finally {
      await agent.stop();
      await simulator.close();
    }
  });

  it('kill -9 of one API instance under a paced write load: every acknowledged entry is stored, 5xx only in flight', async () => {
    const writers = 6;
    const load = gateLoad(admin, { writers, intervalMs: 50 });
    await sleep(3_000);
    const victim = cluster.apis[1]!;
    const killedAt = Date.now();
    victim.child.kill('SIGKILL');
    await victim.exited;
    // In flight on it = sent before it was gone (the exit is seen a little after the signal).
    const diedAt = Date.now();
    await sleep(4_000);
    const answers = await load.stop();

    // A failure is HAProxy's 502/503, or the client connection closed without an answer (what
    // HAProxy does when a server dies under a request that came on a kept-alive connection).
    const failed = answers.filter((answer) => answer.status === null || answer.status >= 500);
    const inFlight = answers.filter((a) => a.startedAt <= diedAt && a.endedAt >= killedAt);
    report.push(
      `kill -9 ${victim.name}: ${answers.length} writes, ${JSON.stringify(statuses(answers))}; ` +
        `failed ${failed.length} (exit seen ${diedAt - killedAt} ms after the signal; requests in flight between signal and exit: ${inFlight.length}, over all instances)`,
    );
    // No client errors; the only failures are HAProxy's 502/503 for requests that were on the
    // killed instance when it died: started before the kill, at most one per writer.
    for (const answer of answers)
      expect(answer.status === 201 || answer.status === null || answer.status >= 500).toBe(true);
    expect(failed.length).toBeLessThanOrEqual(writers);
    for (const answer of failed) expect(answer.startedAt).toBeLessThanOrEqual(diedAt);
    // Every acknowledged entry is in the database.
    const acknowledged = answers.filter((answer) => answer.status === 201);
    expect(acknowledged.length).toBeGreaterThan(20);
    const { rows } = await owner.query<{ n: number }>(
      'select count(*)::int as n from entry_logs where tenant_id = $1 and idempotency_key = any($2)',
      [tenantId, acknowledged.map((answer) => answer.key)],
    );
    expect(rows[0]?.n).toBe(acknowledged.length);

    // Back in rotation for what follows.
    await cluster.startApi(1);
    await until(
      async () => (await cluster.serverStates())[victim.name] === 'UP',
      30_000,
      'back up',
    );
  });

  it('a rolling restart of every instance under load: zero failed requests', async () => {
    const load = gateLoad(admin, { writers: 4, intervalMs: 50 });
    const reader = client(cluster.url);
    const reads: Answer[] = [];
    let reading = true;
    const readLoop = (async () => {
      while (reading) {
        reads.push(
          await reader.call('list', 'GET', '/api/entry-logs?limit=20', undefined, {
            cookie: admin.cookie,
          }),
        );
        await sleep(50);
      }
    })();
    await sleep(1_000);
    for (let index = 0; index < cluster.apis.length; index++) await cluster.restartApi(index);
    await cluster.restartWorker();
    await sleep(1_000);
    const answers = await load.stop();
    reading = false;
    await readLoop;

    const all = [...answers, ...reads];
    report.push(
      `rolling restart of ${cluster.apis.length} API instances and the worker: ${answers.length} writes ${JSON.stringify(statuses(answers))}, ` +
        `${reads.length} reads ${JSON.stringify(statuses(reads))}`,
    );
    expect(answers.length).toBeGreaterThan(20);
    expect(all.filter((answer) => answer.status !== 201 && answer.status !== 200)).toEqual([]);
  });

  it('PostgreSQL restarted: every instance recovers without a restart', async () => {
    const restart = cluster.postgres.restart;
    if (!restart) throw new Error('DATABASE_URL names a PostgreSQL this harness cannot restart');
    const pids = [...cluster.apis.map((api) => api.child.pid), cluster.worker.child.pid];
    const load = gateLoad(admin, { writers: 3, intervalMs: 100 });
    await sleep(1_000);
    const restartedAt = Date.now();
    await restart();
    const upAt = Date.now();
    // Writes through HAProxy succeed again, and each instance is ready again on its own.
    await until(
      () => load.answers.some((answer) => answer.startedAt > upAt && answer.status === 201),
      30_000,
      'a write after the restart',
    );
    for (const api of cluster.apis) {
      await until(
        () =>
          fetch(`http://127.0.0.1:${api.port}/api/ready`).then(
            (response) => response.ok,
            () => false,
          ),
        30_000,
        `${api.name} ready`,
      );
    }
    await until(
      async () => Object.values(await cluster.serverStates()).every((state) => state === 'UP'),
      30_000,
      'every instance back in HAProxy',
    );
    const recoveredAt = Date.now();
    await sleep(1_000);
    const answers = await load.stop();
    const after = answers.filter((answer) => answer.startedAt > recoveredAt);
    report.push(
      `PostgreSQL restart (${upAt - restartedAt} ms): ${JSON.stringify(statuses(answers))}; all ready ${recoveredAt - upAt} ms after; ` +
        `after recovery ${JSON.stringify(statuses(after))}`,
    );
    // Failures only while it was down (503 in the error format, or HAProxy's 503 when no
    // instance was ready), never a crash: the same processes are running.
    for (const answer of answers) expect([201, 503]).toContain(answer.status);
    expect(after.length).toBeGreaterThan(0);
    for (const answer of after) expect(answer.status).toBe(201);
    expect([...cluster.apis.map((api) => api.child.pid), cluster.worker.child.pid]).toEqual(pids);
    for (const api of cluster.apis) expect(api.child.exitCode).toBeNull();

    // The worker's queue runs again: a new completion is called back.
    const body = JSON.stringify({ plateNumber: 'ND777222', referenceNumber: 'CLUSTER-2' });
    const posted = await client(cluster.url).call(
      'incoming',
      'POST',
      `/api/webhook/incoming/${tenantId}`,
      body,
      signed(body, `msg_${randomUUID()}`),
    );
    const entryId = (posted.body as { id: string }).id;
    const processed = await admin.call(
      'process',
      'POST',
      `/api/webhook/process-request/${entryId}`,
      {
        plateNumber: 'ND777222',
        driverName: 'Thabo',
        driverSurname: 'Mokoena',
        driverIdNumber: '8001015009087',
        driverPhone: '0821234567',
        transportName: 'Haul Co',
      },
    );
    expect(processed.status).toBe(200);
    await until(
      () => receiver.received.some((r) => r.body.includes(entryId)),
      30_000,
      'the callback after the restart',
    );
  });
});
