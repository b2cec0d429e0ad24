import { type AddressInfo } from 'node:net';

import { type Simulator, createDriver, startAgent, startHttpSimulator } from 'boomgate-agent';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { GateBarrierStatus, GateOpenOutcome } from '@boomgate/contracts/barriers';

import { createSitesRepository } from '@/modules/sites';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

/**
 * Two API processes on one database (issue 27): the agent holds its WebSocket to `a`, the
 * decisions are taken on `b`. Each app has its own pool, agent hub and decision memory, as two
 * processes behind a load balancer do; only PostgreSQL (LISTEN/NOTIFY) joins them.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => Promise<boolean> | boolean) {
  while (!(await check())) await sleep(20);
}

let a: TestApp;
let b: TestApp;
let serverUrl: string;
let serverUrlOfB: string;
const cleanups: Array<() => Promise<unknown>> = [];
const env = { BARRIER_HEARTBEAT_INTERVAL_MS: '1000', BARRIER_RESULT_TIMEOUT_MS: '3000' };

beforeAll(async () => {
  a = await createTestApp({ env });
  b = await createTestApp({ env, sameDatabaseAs: a });
  await a.app.listen({ port: 0, host: '127.0.0.1' });
  serverUrl = `http://127.0.0.1:${(a.app.server.address() as AddressInfo).port}`;
  await b.app.listen({ port: 0, host: '127.0.0.1' });
  serverUrlOfB = `http://127.0.0.1:${(b.app.server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await b.close();
  await a.close();
});

type Gate = { admin: Session; tenantId: string; gateId: string; token: string };

/** An agent process with its relay (an HTTP simulator), connected to `url`. */
async function anAgent(url: string, token: string) {
  const simulator = await startHttpSimulator({});
  const agent = startAgent({
    serverUrl: url,
    token,
    driver: createDriver({
      kind: 'http',
      url: `http://127.0.0.1:${simulator.port}/relay/0`,
      httpBody: '{"pulse":true}',
      httpExpect: '"ok":true',
    }),
    maxCommandAgeMs: 3_000,
    reconnectMinMs: 20,
    reconnectMaxMs: 200,
  });
  cleanups.push(
    () => simulator.close(),
    () => agent.stop(),
  );
  return { simulator, stop: () => agent.stop() };
}

async function aGateWithAgent(): Promise<
  Gate & { simulator: Simulator; stop: () => Promise<void> }
> {
  const admin = await a.registerTenant();
  const tenantId = admin.body.tenant.id;
  const { gate } = await a.database.withTenant(tenantId, (tx) =>
    createSitesRepository().defaultSite(tx, tenantId),
  );
  const created = await admin.post(`/api/gates/${gate.id}/agent-token`);
  expect(created.statusCode).toBe(201);
  const token = created.json<{ token: string }>().token;
  const setup = { admin, tenantId, gateId: gate.id, token };
  const agent = await anAgent(serverUrl, token);
  // Connected as far as the database knows (b reads it), and listening on a for commands.
  await until(async () => (await statusOn(b, setup)).connected);
  await until(() => a.modules.barriers.service.hub.isOnline(setup));
  return { ...setup, ...agent };
}

const onB = (gate: Gate, method: 'GET' | 'POST', url: string, payload?: object) =>
  b.inject({ method, url, payload, headers: { cookie: gate.admin.cookie } });

async function statusOn(app: TestApp, gate: Gate) {
  const response = await app.inject({
    method: 'GET',
    url: `/api/gates/${gate.gateId}/barrier`,
    headers: { cookie: gate.admin.cookie },
  });
  return response.json<GateBarrierStatus>();
}

describe('barrier commands across API processes', () => {
  it('an open decided on b pulses the agent connected to a, once, audited once', async () => {
    const gate = await aGateWithAgent();
    const response = await onB(gate, 'POST', `/api/gates/${gate.gateId}/open`, { reason: 'test' });
    expect(response.statusCode).toBe(200);
    const outcome = response.json<GateOpenOutcome>();
    expect(outcome).toMatchObject({ opened: true, result: 'opened', gateId: gate.gateId });
    expect(gate.simulator.pulses).toBe(1);
    const events = await a.ownerQuery<{ action: string; details: { device: string } }>(
      "select action, details from audit_events where target_id = $1 and action like 'gate.open%'",
      [gate.gateId],
    );
    expect(events).toEqual([
      expect.objectContaining({
        action: 'gate.opened',
        details: expect.objectContaining({ device: 'http' }),
      }),
    ]);
  });

  it('grants for one entry on both processes at once pulse once and agree', async () => {
    const gate = await aGateWithAgent();
    const entryId = crypto.randomUUID();
    const grant = (app: TestApp) =>
      app.modules.barriers.service.openForEntry({
        tenantId: gate.tenantId,
        actorUserId: gate.admin.body.user.id,
        entryId,
        gateId: gate.gateId,
      });
    const outcomes = await Promise.all([grant(b), grant(a), grant(b), grant(a)]);
    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({ opened: true, decisionId: entryId });
    }
    expect(gate.simulator.pulses).toBe(1);
    const events = await a.ownerQuery(
      "select 1 from audit_events where target_id = $1 and action like 'gate.open%'",
      [entryId],
    );
    expect(events).toHaveLength(1);
  });

  it('a token rotated on b cuts off the agent connected to a', async () => {
    const gate = await aGateWithAgent();
    const rotated = await onB(gate, 'POST', `/api/gates/${gate.gateId}/agent-token`);
    expect(rotated.statusCode).toBe(201);
    await until(() => !a.modules.barriers.service.hub.isOnline(gate));
  });

  it('a late close of the old connection on a leaves the newer one on b connected (issue 27)', async () => {
    const gate = await aGateWithAgent();
    const connectionOf = async () =>
      (
        await a.ownerQuery<{ connected: boolean; connection_id: string | null }>(
          'select connected, connection_id from gate_agents where gate_id = $1',
          [gate.gateId],
        )
      )[0];
    const first = (await connectionOf())?.connection_id;
    expect(first).toEqual(expect.any(String));
    // The agent comes back through the load balancer on b (its socket on a not yet closed):
    // b's take-over is written.
    const second = await anAgent(serverUrlOfB, gate.token);
    await until(() => b.modules.barriers.service.hub.isOnline(gate));
    await until(async () => (await connectionOf())?.connection_id !== first);
    // Then the old socket on a closes: a writes its drop, naming its own connection.
    await gate.stop();
    await until(() => !a.modules.barriers.service.hub.isOnline(gate));
    for (let check = 0; check < 25; check++) {
      expect(await connectionOf()).toMatchObject({ connected: true });
      expect((await statusOn(a, gate)).connected).toBe(true);
      await sleep(40);
    }
    // The newer connection's own close is still written.
    await second.stop();
    await until(async () => (await connectionOf())?.connected === false);
  });

  it('an agent whose process vanished without a word is offline after a short wait, never opened', async () => {
    const gate = await aGateWithAgent();
    await gate.stop();
    await until(() => !a.modules.barriers.service.hub.isOnline(gate));
    // As after kill -9 of the process holding it: the stored presence still says connected.
    await a.ownerQuery('update gate_agents set connected = true where gate_id = $1', [gate.gateId]);
    const response = await onB(gate, 'POST', `/api/gates/${gate.gateId}/open`, { reason: 'test' });
    expect(response.json<GateOpenOutcome>()).toMatchObject({ opened: false, result: 'offline' });
    expect(gate.simulator.pulses).toBe(0);
  });
});
