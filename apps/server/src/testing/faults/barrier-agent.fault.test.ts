import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { type AddressInfo, type Socket, createServer, connect as tcpConnect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { type Simulator, startHttpSimulator } from 'boomgate-agent';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { GateBarrierStatus, GateOpenOutcome } from '@boomgate/contracts/barriers';

import {
  type ServerProcess,
  apiClient,
  killServer,
  sleep,
  startServer,
  stopLeftoverPostgres,
} from './harness';

/**
 * Issue 17, fail closed: the real server process and the real agent process (`boomgate-agent
 * run`), a loopback HTTP relay controller, and faults between them. The agent is killed while the
 * controller is still answering; the link to the server drops while a command is in flight. In
 * every case the open is reported not opened, nothing is pulsed late when the agent or the link
 * comes back, and the next open works.
 */
const AGENT_BIN = fileURLToPath(
  new URL('../../../../../packages/agent/bin/boomgate-agent.js', import.meta.url),
);

let dataDir = '';
let server: ServerProcess | undefined;
let admin: ReturnType<typeof apiClient>;
const cleanups: Array<() => unknown> = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'boomgate-fault-barrier-'));
  server = await startServer({
    dataDir,
    env: { BARRIER_HEARTBEAT_INTERVAL_MS: '500', BARRIER_RESULT_TIMEOUT_MS: '1500' },
  });
  admin = apiClient(server.url);
  await admin.register();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  if (server) await killServer(server);
  await stopLeftoverPostgres(dataDir);
  await rm(dataDir, { recursive: true, force: true });
});

async function ok<T>(answer: Promise<Awaited<ReturnType<typeof admin.call>>>, status = 200) {
  const got = await answer;
  if (got.status !== status) throw new Error(JSON.stringify(got));
  return got.body as T;
}

/** A new gate at the default site with its agent token. */
async function aGate() {
  const [site] = await ok<Array<{ id: string; isDefault: boolean }>>(
    admin.call('sites', 'GET', '/api/sites'),
  );
  const gate = await ok<{ id: string }>(
    admin.call('gate', 'POST', `/api/sites/${site!.id}/gates`, {
      name: `Fault gate ${Math.random().toString(36).slice(2, 8)}`,
    }),
    201,
  );
  const { token } = await ok<{ token: string }>(
    admin.call('token', 'POST', `/api/gates/${gate.id}/agent-token`),
    201,
  );
  return { gateId: gate.id, token };
}

const barrierOf = (gateId: string) =>
  ok<GateBarrierStatus>(admin.call('barrier', 'GET', `/api/gates/${gateId}/barrier`));
const openByHand = (gateId: string) =>
  ok<GateOpenOutcome>(admin.call('open', 'POST', `/api/gates/${gateId}/open`, { reason: 'test' }));
async function until(check: () => Promise<boolean>, withinMs = 20_000) {
  const deadline = Date.now() + withinMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(50);
  }
}

function spawnAgent(
  serverUrl: string,
  token: string,
  deviceUrl: string,
  extra: string[] = [],
): ChildProcess {
  const child = spawn(
    process.execPath,
    [
      AGENT_BIN,
      'run',
      '--server',
      serverUrl,
      '--device',
      'http',
      '--device-url',
      deviceUrl,
      ...extra,
    ],
    { env: { ...process.env, BOOMGATE_AGENT_TOKEN: token }, stdio: 'ignore' },
  );
  cleanups.push(() => child.kill('SIGKILL'));
  return child;
}

async function aController(options: Parameters<typeof startHttpSimulator>[0] = {}) {
  const simulator: Simulator = await startHttpSimulator(options);
  cleanups.push(() => simulator.close());
  return { simulator, deviceUrl: `http://127.0.0.1:${simulator.port}/relay/0` };
}

/**
 * A TCP link between agent and server that can stall (the server's frames held back, then
 * delivered late: a congested uplink), be cut (every connection dropped, new ones refused) and
 * be restored: the site's uplink going bad, then down.
 */
async function aLink(targetUrl: string) {
  const target = Number(new URL(targetUrl).port);
  const sockets = new Set<Socket>();
  const state = { up: true, stalled: false };
  const held: Array<() => void> = [];
  const relay = createServer((agentSide) => {
    if (!state.up) return agentSide.destroy();
    const serverSide = tcpConnect(target, '127.0.0.1');
    sockets.add(agentSide).add(serverSide);
    agentSide.pipe(serverSide);
    serverSide.on('data', (chunk) => {
      const deliver = () => agentSide.destroyed || agentSide.write(chunk);
      if (state.stalled) held.push(deliver);
      else deliver();
    });
    const end = () => {
      agentSide.destroy();
      serverSide.destroy();
    };
    agentSide.on('close', end).on('error', end);
    serverSide.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        sockets.forEach((socket) => socket.destroy());
        relay.close(() => resolve());
      }),
  );
  return {
    url: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`,
    stall() {
      state.stalled = true;
    },
    /** Delivers everything held back, in order, and flows again. */
    unstall() {
      state.stalled = false;
      held.splice(0).forEach((deliver) => deliver());
    },
    cut() {
      state.up = false;
      sockets.forEach((socket) => socket.destroy());
      sockets.clear();
    },
    restore() {
      state.up = true;
    },
  };
}

describe('barrier agent faults', () => {
  it('agent killed mid-command: not opened, no late pulse after the restart, the next open works', async () => {
    const { gateId, token } = await aGate();
    let agent: ChildProcess | undefined;
    let killed = false;
    // A slow controller: the agent dies while it waits for the answer.
    const { simulator, deviceUrl } = await aController({
      answerAfterMs: 1_000,
      log: (line) => {
        if (line.startsWith('[http] POST') && !killed) {
          killed = true;
          agent?.kill('SIGKILL');
        }
      },
    });
    agent = spawnAgent(server!.url, token, deviceUrl);
    await until(async () => (await barrierOf(gateId)).online);

    const outcome = await openByHand(gateId);
    expect(killed).toBe(true);
    expect(outcome).toMatchObject({ opened: false, result: 'not_opened' });
    await until(async () => !(await barrierOf(gateId)).online);
    expect(await openByHand(gateId)).toMatchObject({ opened: false, result: 'offline' });

    agent = spawnAgent(server!.url, token, deviceUrl);
    await until(async () => (await barrierOf(gateId)).online);
    await sleep(1_500); // time for anything replayed to show up at the controller
    expect(simulator.commands).toEqual(['POST /relay/0']);
    expect(await openByHand(gateId)).toMatchObject({ opened: true, result: 'opened' });
    expect(simulator.commands).toEqual(['POST /relay/0', 'POST /relay/0']);
  });

  it('a stalled link delivers the command late: dropped, not opened; a cut link is offline', async () => {
    const { gateId, token } = await aGate();
    const { simulator, deviceUrl } = await aController();
    const link = await aLink(server!.url);
    spawnAgent(link.url, token, deviceUrl, ['--max-command-age-ms', '1000']);
    await until(async () => (await barrierOf(gateId)).online);
    await sleep(600); // a heartbeat's clock sample, so the agent knows the server's time

    // The command is held on the link past the server's wait (1.5 s) and the agent's limit (1 s).
    link.stall();
    const outcome = await openByHand(gateId);
    expect(outcome).toMatchObject({ opened: false, result: 'not_opened' });
    link.unstall();
    await sleep(1_000); // the late command reaches the agent now
    expect(simulator.pulses).toBe(0);
    expect(simulator.commands).toEqual([]);

    // The uplink goes down: offline, and the stored presence says so.
    link.cut();
    await until(async () => {
      const status = await barrierOf(gateId);
      return !status.online && !status.connected;
    });
    expect((await barrierOf(gateId)).lastSeenAt).not.toBeNull();
    expect(await openByHand(gateId)).toMatchObject({ opened: false, result: 'offline' });

    link.restore();
    await until(async () => (await barrierOf(gateId)).online);
    await sleep(1_000);
    expect(simulator.pulses).toBe(0);
    expect(await openByHand(gateId)).toMatchObject({ opened: true, result: 'opened' });
    expect(simulator.pulses).toBe(1);
  });
});
