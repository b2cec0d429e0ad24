import { type ChildProcess, spawn } from 'node:child_process';
import { type AddressInfo, type Socket, createServer, connect as tcpConnect } from 'node:net';
import { fileURLToPath } from 'node:url';

import {
  type DeviceSettings,
  type Simulator,
  createDriver,
  startAgent,
  startHikvisionSimulator,
  startHttpSimulator,
  startModbusSimulator,
  startShellySimulator,
} from 'boomgate-agent';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import type { GateBarrierStatus, GateOpenOutcome } from '@boomgate/contracts/barriers';

import { createSitesRepository } from '@/modules/sites';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Polls until the check holds (the test's own timeout bounds it). */
async function until(check: () => Promise<boolean> | boolean) {
  while (!(await check())) await sleep(20);
}

let t: TestApp;
let serverUrl: string;
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  t = await createTestApp({
    env: { BARRIER_HEARTBEAT_INTERVAL_MS: '1000', BARRIER_RESULT_TIMEOUT_MS: '4000' },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  serverUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(() => t.close());

type GateSetup = { admin: Session; tenantId: string; gateId: string; token: string };

async function aGateWithAgentToken(): Promise<GateSetup> {
  const admin = await t.registerTenant();
  const tenantId = admin.body.tenant.id;
  const { gate } = await t.database.withTenant(tenantId, (tx) =>
    createSitesRepository().defaultSite(tx, tenantId),
  );
  const created = await admin.post(`/api/gates/${gate.id}/agent-token`);
  expect(created.statusCode).toBe(201);
  return { admin, tenantId, gateId: gate.id, token: created.json<{ token: string }>().token };
}

const barrierOf = async (gate: GateSetup) =>
  (await gate.admin.get(`/api/gates/${gate.gateId}/barrier`)).json<GateBarrierStatus>();

async function openByHand(gate: GateSetup, session: Session = gate.admin) {
  const response = await session.post(`/api/gates/${gate.gateId}/open`, { reason: 'test' });
  expect(response.statusCode).toBe(200);
  return response.json<GateOpenOutcome>();
}

function runAgent(
  gate: GateSetup,
  device: DeviceSettings,
  options: { maxCommandAgeMs?: number; via?: string } = {},
) {
  const agent = startAgent({
    serverUrl: options.via ?? serverUrl,
    token: gate.token,
    driver: createDriver(device),
    maxCommandAgeMs: options.maxCommandAgeMs ?? 3_000,
    reconnectMinMs: 20,
    reconnectMaxMs: 200,
  });
  cleanups.push(() => agent.stop());
  return agent;
}

async function online(gate: GateSetup) {
  await until(async () => (await barrierOf(gate)).online);
}

const loopback = (port: number) => `http://127.0.0.1:${port}`;

/** Each driver with its simulator: a device that works, or one that fails every command. */
const DEVICES: Record<
  DeviceSettings['kind'],
  (fail: boolean) => Promise<{ simulator: Simulator; device: DeviceSettings }>
> = {
  shelly: async (fail) => {
    const simulator = await startShellySimulator({ password: 'relay-pass', fail });
    return {
      simulator,
      device: { kind: 'shelly', url: loopback(simulator.port), password: 'relay-pass' },
    };
  },
  hikvision: async (fail) => {
    const simulator = await startHikvisionSimulator({ password: 'hik-pass', fail });
    return {
      simulator,
      device: { kind: 'hikvision', url: loopback(simulator.port), password: 'hik-pass' },
    };
  },
  modbus: async (fail) => {
    const simulator = await startModbusSimulator({ fail, holdOpenMs: 3_000 });
    return {
      simulator,
      device: { kind: 'modbus', url: `modbus://127.0.0.1:${simulator.port}`, output: 1 },
    };
  },
  http: async (fail) => {
    const simulator = await startHttpSimulator({ fail });
    return {
      simulator,
      device: {
        kind: 'http',
        url: `${loopback(simulator.port)}/relay/0`,
        httpBody: '{"pulse":true}',
        httpExpect: '"ok":true',
      },
    };
  },
};

async function aDevice(kind: DeviceSettings['kind'], fail = false) {
  const made = await DEVICES[kind](fail);
  cleanups.push(() => made.simulator.close());
  return made;
}

/** A TCP relay between agent and server that can hold the server's frames back (a stalled link). */
async function stallingLink(targetPort: number) {
  const state = { delayMs: 0 };
  const sockets = new Set<Socket>();
  const server = createServer((agentSide) => {
    const serverSide = tcpConnect(targetPort, '127.0.0.1');
    sockets.add(agentSide).add(serverSide);
    agentSide.pipe(serverSide);
    serverSide.on('data', (chunk) => {
      const delay = state.delayMs;
      if (delay === 0) agentSide.write(chunk);
      else setTimeout(() => agentSide.destroyed || agentSide.write(chunk), delay);
    });
    const end = () => {
      agentSide.destroy();
      serverSide.destroy();
    };
    agentSide.on('close', end).on('error', end);
    serverSide.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        sockets.forEach((socket) => socket.destroy());
        server.close(() => resolve());
      }),
  );
  return { url: loopback((server.address() as AddressInfo).port), state };
}

describe('agent tokens', () => {
  it('are shown once, stored hashed, audited, and a new one cuts off the old', async () => {
    const gate = await aGateWithAgentToken();
    const rows = await t.ownerQuery<{ token_hash: string }>(
      'select token_hash from gate_agents where gate_id = $1',
      [gate.gateId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).not.toContain(gate.token);
    expect((await barrierOf(gate)).hasToken).toBe(true);

    const { device } = await aDevice('http');
    const agent = runAgent(gate, device);
    await online(gate);

    const rotated = await gate.admin.post(`/api/gates/${gate.gateId}/agent-token`);
    expect(rotated.statusCode).toBe(201);
    await until(() => !agent.connected);
    // The old token is refused before any upgrade.
    const refused = await new Promise<number>((resolve) => {
      const socket = new WebSocket(`${serverUrl.replace('http', 'ws')}/api/agent/connect`, {
        headers: { authorization: `Bearer ${gate.token}` },
      });
      socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.on('open', () => resolve(101));
    });
    expect(refused).toBe(401);
    const audit = await t.ownerQuery<{ action: string }>(
      "select action from audit_events where target_id = $1 and action like 'gate.agent-token.%' order by occurred_at",
      [gate.gateId],
    );
    expect(audit.map((row) => row.action)).toEqual([
      'gate.agent-token.created',
      'gate.agent-token.rotated',
    ]);
  });

  it('without a token or with an unknown one the connection is refused', async () => {
    const response = await t.inject({ method: 'GET', url: '/api/agent/connect' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
  });
});

describe.each(Object.keys(DEVICES) as DeviceSettings['kind'][])(
  '%s barrier through the agent',
  (kind) => {
    it('opens with one pulse the simulator prints, confirmed and audited', async () => {
      const gate = await aGateWithAgentToken();
      const { simulator, device } = await aDevice(kind);
      runAgent(gate, device);
      await online(gate);

      const outcome = await openByHand(gate);
      expect(outcome).toMatchObject({ opened: true, result: 'opened', gateId: gate.gateId });
      expect(simulator.pulses).toBe(1);
      expect(simulator.commands.length).toBeGreaterThan(0);
      expect((await barrierOf(gate)).device).toBe(kind);

      const [event] = await t.ownerQuery<{
        action: string;
        actor_user_id: string;
        details: Record<string, unknown>;
      }>(
        "select action, actor_user_id, details from audit_events where target_id = $1 and action like 'gate.open%'",
        [gate.gateId],
      );
      expect(event).toMatchObject({
        action: 'gate.opened',
        actor_user_id: gate.admin.body.user.id,
        details: { reason: 'test', result: 'opened', device: kind, decisionId: outcome.decisionId },
      });
      expect(typeof event!.details.latencyMs).toBe('number');
    });

    it('a device error is reported not_opened', async () => {
      const gate = await aGateWithAgentToken();
      const { simulator, device } = await aDevice(kind, true);
      runAgent(gate, device);
      await online(gate);

      const outcome = await openByHand(gate);
      expect(outcome).toMatchObject({ opened: false, result: 'not_opened' });
      expect(simulator.pulses).toBe(0);
      const [event] = await t.ownerQuery<{ action: string }>(
        "select action from audit_events where target_id = $1 and action like 'gate.open%'",
        [gate.gateId],
      );
      expect(event?.action).toBe('gate.open-failed');
    });

    it('two grants for one decision pulse once', async () => {
      const gate = await aGateWithAgentToken();
      const { simulator, device } = await aDevice(kind);
      runAgent(gate, device);
      await online(gate);

      const entryId = crypto.randomUUID();
      const grant = () =>
        t.modules.barriers.service.openForEntry({
          tenantId: gate.tenantId,
          actorUserId: gate.admin.body.user.id,
          entryId,
          gateId: gate.gateId,
        });
      const [first, second] = await Promise.all([grant(), grant()]);
      const third = await grant();
      expect(first).toMatchObject({ opened: true, decisionId: entryId });
      expect(second).toEqual(first);
      expect(third).toEqual(first);
      expect(simulator.pulses).toBe(1);
    });

    it('with the agent stopped the gate is offline and an open says so', async () => {
      const gate = await aGateWithAgentToken();
      const { simulator, device } = await aDevice(kind);
      const agent = runAgent(gate, device);
      await online(gate);

      await agent.stop();
      await until(async () => !(await barrierOf(gate)).online);
      const outcome = await openByHand(gate);
      expect(outcome).toMatchObject({ opened: false, result: 'offline', latencyMs: null });
      expect(simulator.pulses).toBe(0);
    });

    it('a command delivered late is dropped, not pulsed', async () => {
      const gate = await aGateWithAgentToken();
      const { simulator, device } = await aDevice(kind);
      const link = await stallingLink(Number(new URL(serverUrl).port));
      runAgent(gate, device, { via: link.url, maxCommandAgeMs: 100 });
      // The agent has had its hello (it sent a heartbeat) before the link stalls: a link slow
      // from the first frame looks like clock skew, which no agent can tell apart.
      await until(async () => (await barrierOf(gate)).device === kind);

      // A second late, well short of the agent giving up on a silent server (three heartbeats, 3 s).
      link.state.delayMs = 1_000;
      const outcome = await openByHand(gate);
      expect(outcome).toMatchObject({ opened: false, result: 'not_opened' });
      expect(outcome.detail).toMatch(/too late/);
      expect(simulator.pulses).toBe(0);
      expect(simulator.commands).toEqual([]);
    });
  },
);

describe('Hikvision credentials', () => {
  it('two 401s stop the driver and are reported; the device is not asked again', async () => {
    const gate = await aGateWithAgentToken();
    const simulator = await startHikvisionSimulator({ password: 'right' });
    cleanups.push(() => simulator.close());
    runAgent(gate, { kind: 'hikvision', url: loopback(simulator.port), password: 'wrong' });
    await online(gate);

    const first = await openByHand(gate);
    const second = await openByHand(gate);
    expect(first).toMatchObject({ opened: false, result: 'not_opened' });
    expect(first.detail).toMatch(/refused the user and password twice/);
    expect(second.detail).toMatch(/stopped sending/);
    expect(simulator.authFailures).toBe(1);
    expect(simulator.commands).toEqual([]);
  });
});

describe('manual opening', () => {
  it('a guard opens a gate of their site; back office may not', async () => {
    const gate = await aGateWithAgentToken();
    const { simulator, device } = await aDevice('http');
    runAgent(gate, device);
    await online(gate);
    const guard = await t.createSignedInUser(gate.admin, 'security_guard');
    const backOffice = await t.createSignedInUser(gate.admin, 'back_office');

    expect(await openByHand(gate, guard)).toMatchObject({ opened: true });
    const refused = await backOffice.post(`/api/gates/${gate.gateId}/open`, { reason: 'test' });
    expect(refused.statusCode).toBe(403);
    expect(simulator.pulses).toBe(1);
  });

  it('refuses a reason outside the list', async () => {
    const gate = await aGateWithAgentToken();
    const response = await gate.admin.post(`/api/gates/${gate.gateId}/open`, { reason: 'because' });
    expect(response.statusCode).toBe(400);
  });
});

describe('presence and the offline scan', () => {
  it('shows connected and last seen, and a silent agent raises device_offline once', async () => {
    const gate = await aGateWithAgentToken();
    expect(await barrierOf(gate)).toMatchObject({ connected: false, lastSeenAt: null });
    const { device } = await aDevice('http');
    const agent = runAgent(gate, device);
    await online(gate);
    await until(async () => {
      const rows = await t.ownerQuery<{ connected: boolean }>(
        'select connected from gate_agents where gate_id = $1',
        [gate.gateId],
      );
      return rows[0]?.connected === true;
    });
    expect(await barrierOf(gate)).toMatchObject({ online: true, connected: true });

    // A connected agent is not offline, however the clock stands.
    expect(await offlineAlertsOf(gate)).toBe(0);
    await t.modules.barriers.service.offlineScan();
    expect(await offlineAlertsOf(gate)).toBe(0);

    await agent.stop();
    await until(async () => !(await barrierOf(gate)).connected);
    const status = await barrierOf(gate);
    expect(status).toMatchObject({ online: false, connected: false });
    expect(status.lastSeenAt).not.toBeNull();

    // Not yet past BARRIER_OFFLINE_ALERT_SECONDS (120 s by default): nothing.
    t.clock.advanceMs(60_000);
    await t.modules.barriers.service.offlineScan();
    expect(await offlineAlertsOf(gate)).toBe(0);

    t.clock.advanceMs(61_000);
    await t.modules.barriers.service.offlineScan();
    await t.modules.barriers.service.offlineScan();
    expect(await offlineAlertsOf(gate)).toBe(1);
    const [alert] = await t.ownerQuery<{ severity: string; message: string }>(
      "select severity, message from alerts where gate_id = $1 and kind = 'device_offline'",
      [gate.gateId],
    );
    expect(alert!.severity).toBe('critical');
    expect(alert!.message).toMatch(/open the barrier by hand/);
  });
});

const offlineAlertsOf = async (gate: GateSetup) =>
  (
    await t.ownerQuery<{ n: number }>(
      "select count(*)::int as n from alerts where gate_id = $1 and kind = 'device_offline'",
      [gate.gateId],
    )
  )[0]!.n;

describe('fault: the agent dies mid-command', () => {
  const agentBin = fileURLToPath(
    new URL('../../../../../packages/agent/bin/boomgate-agent.js', import.meta.url),
  );
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill('SIGKILL');
  });

  const spawnAgent = (gate: GateSetup, deviceUrl: string) => {
    child = spawn(
      process.execPath,
      [agentBin, 'run', '--server', serverUrl, '--device', 'http', '--device-url', deviceUrl],
      // eslint-disable-next-line no-restricted-properties -- the child agent's own environment
      { env: { ...process.env, BOOMGATE_AGENT_TOKEN: gate.token }, stdio: 'ignore' },
    );
    return child;
  };

  it('reports not opened, and after a restart nothing is pulsed late', async () => {
    const gate = await aGateWithAgentToken();
    let killed = false;
    let running: ChildProcess | undefined;
    // A slow controller: the agent is killed while it waits for the answer.
    const simulator = await startHttpSimulator({
      answerAfterMs: 1_000,
      log: (line) => {
        if (line.startsWith('[http] POST') && !killed) {
          killed = true;
          running?.kill('SIGKILL');
        }
      },
    });
    cleanups.push(() => simulator.close());
    const deviceUrl = `${loopback(simulator.port)}/relay/0`;

    running = spawnAgent(gate, deviceUrl);
    await online(gate);
    const outcome = await openByHand(gate);
    expect(killed).toBe(true);
    expect(outcome).toMatchObject({ opened: false, result: 'not_opened' });
    expect(outcome.detail).toMatch(/disconnected before confirming/);

    running = spawnAgent(gate, deviceUrl);
    await online(gate);
    const again = await openByHand(gate);
    expect(again).toMatchObject({ opened: true });
    // One request before the kill, one for the new command: the first was never replayed.
    expect(simulator.commands).toEqual(['POST /relay/0', 'POST /relay/0']);
  }, 60_000);
});
