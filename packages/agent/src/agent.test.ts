import type { AddressInfo } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';

import type { AgentResult } from '@boomgate/contracts/barriers';

import { type Agent, frameText, startAgent } from './agent';
import type { BarrierDriver, PulseOutcome } from './drivers/types';

/** A stand-in for the Boomgate server's agent endpoint: checks the token, says hello, relays frames. */
async function fakeServer(options: { token: string; serverTime?: () => number }) {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => wss.once('listening', resolve));
  const sockets: WebSocket[] = [];
  const results: AgentResult[] = [];
  const heartbeats: unknown[] = [];
  let connections = 0;
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((wake) => wake());
  wss.on('connection', (socket, request) => {
    if (request.headers.authorization !== `Bearer ${options.token}`) {
      socket.close(4401);
      return;
    }
    connections += 1;
    sockets.push(socket);
    socket.send(
      JSON.stringify({
        type: 'hello',
        gateId: '00000000-0000-4000-8000-000000000001',
        serverTime: (options.serverTime ?? Date.now)(),
        heartbeatIntervalMs: 100,
      }),
    );
    socket.on('message', (data) => {
      const message = JSON.parse(frameText(data)) as { type: string };
      if (message.type === 'result') results.push(message as AgentResult);
      else heartbeats.push(message);
      notify();
    });
    notify();
  });
  const until = (check: () => boolean) =>
    new Promise<void>((resolve) => {
      if (check()) return resolve();
      const wake = () => {
        if (check()) {
          waiters.delete(wake);
          resolve();
        }
      };
      waiters.add(wake);
    });
  let commandNumber = 0;
  return {
    url: `http://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    results,
    heartbeats,
    get connections() {
      return connections;
    },
    until,
    sendOpen(decisionId: string, issuedAt = Date.now()) {
      commandNumber += 1;
      const commandId = `00000000-0000-4000-8000-${String(commandNumber).padStart(12, '0')}`;
      sockets.at(-1)?.send(JSON.stringify({ type: 'open', commandId, decisionId, issuedAt }));
      return commandId;
    },
    dropConnections() {
      sockets.forEach((socket) => socket.terminate());
    },
    close: () => new Promise<void>((resolve) => wss.close(() => resolve())),
  };
}

/** A driver whose pulses are counted and can be held open to test overlapping commands. */
function countingDriver(outcome: PulseOutcome = { opened: true, detail: 'ok' }) {
  let release: (() => void) | null = null;
  const driver: BarrierDriver & { pulses: number; hold: boolean; release(): void } = {
    kind: 'http',
    pulses: 0,
    hold: false,
    async pulse() {
      this.pulses += 1;
      if (this.hold) await new Promise<void>((resolve) => (release = resolve));
      return outcome;
    },
    release: () => release?.(),
  };
  return driver;
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const run = (options: Parameters<typeof startAgent>[0]): Agent => {
  const agent = startAgent({ reconnectMinMs: 20, reconnectMaxMs: 100, ...options });
  cleanups.push(() => agent.stop());
  return agent;
};
const serve = async (options: Parameters<typeof fakeServer>[0]) => {
  const server = await fakeServer(options);
  cleanups.push(() => server.close());
  return server;
};

describe('startAgent', () => {
  it('connects with its token, sends heartbeats and reports a confirmed opening', async () => {
    const server = await serve({ token: 't0k' });
    const driver = countingDriver();
    run({ serverUrl: server.url, token: 't0k', driver });
    await server.until(() => server.heartbeats.length > 0);
    expect(server.heartbeats[0]).toEqual({
      type: 'heartbeat',
      device: 'http',
      agentVersion: '0.1.0',
    });
    const commandId = server.sendOpen('entry-1');
    await server.until(() => server.results.length === 1);
    expect(server.results[0]).toMatchObject({
      commandId,
      decisionId: 'entry-1',
      outcome: 'opened',
    });
    expect(driver.pulses).toBe(1);
  });

  it('reports a failed pulse as not_opened', async () => {
    const server = await serve({ token: 't' });
    run({
      serverUrl: server.url,
      token: 't',
      driver: countingDriver({ opened: false, detail: 'jammed' }),
    });
    await server.until(() => server.connections === 1);
    server.sendOpen('d');
    await server.until(() => server.results.length === 1);
    expect(server.results[0]).toMatchObject({ outcome: 'not_opened', detail: 'jammed' });
  });

  it('pulses once per decision: a repeated decision is dropped', async () => {
    const server = await serve({ token: 't' });
    const driver = countingDriver();
    run({ serverUrl: server.url, token: 't', driver });
    await server.until(() => server.connections === 1);
    server.sendOpen('same');
    await server.until(() => server.results.length === 1);
    server.sendOpen('same');
    await server.until(() => server.results.length === 2);
    expect(server.results.map((result) => result.outcome)).toEqual(['opened', 'dropped']);
    expect(driver.pulses).toBe(1);
  });

  it('drops a command that arrives later than the maximum age, by the server clock', async () => {
    // The server's clock runs an hour behind the agent's: age is still measured correctly.
    const skew = 3_600_000;
    const server = await serve({ token: 't', serverTime: () => Date.now() - skew });
    const driver = countingDriver();
    run({ serverUrl: server.url, token: 't', driver, maxCommandAgeMs: 500 });
    await server.until(() => server.connections === 1);
    server.sendOpen('late', Date.now() - skew - 5_000);
    server.sendOpen('fresh', Date.now() - skew);
    await server.until(() => server.results.length === 2);
    expect(server.results.map((result) => [result.decisionId, result.outcome])).toEqual([
      ['late', 'dropped'],
      ['fresh', 'opened'],
    ]);
    expect(driver.pulses).toBe(1);
  });

  it('runs one command at a time', async () => {
    const server = await serve({ token: 't' });
    const driver = countingDriver();
    driver.hold = true;
    run({ serverUrl: server.url, token: 't', driver });
    await server.until(() => server.connections === 1);
    server.sendOpen('first');
    server.sendOpen('second');
    await server.until(() => server.results.length === 1);
    expect(server.results[0]).toMatchObject({ decisionId: 'second', outcome: 'dropped' });
    driver.release();
    await server.until(() => server.results.length === 2);
    expect(server.results[1]).toMatchObject({ decisionId: 'first', outcome: 'opened' });
    expect(driver.pulses).toBe(1);
  });

  it('reconnects after the connection drops', async () => {
    const server = await serve({ token: 't' });
    const agent = run({ serverUrl: server.url, token: 't', driver: countingDriver() });
    await server.until(() => server.connections === 1);
    server.dropConnections();
    await server.until(() => server.connections === 2);
    await server.until(() => agent.connected);
    expect(agent.connected).toBe(true);
  });

  it('a pulse that never answers is reported not opened after the command timeout', async () => {
    const server = await serve({ token: 't' });
    const driver = countingDriver();
    driver.hold = true;
    run({ serverUrl: server.url, token: 't', driver, commandTimeoutMs: 50 });
    await server.until(() => server.connections === 1);
    server.sendOpen('slow');
    await server.until(() => server.results.length === 1);
    expect(server.results[0]).toMatchObject({ outcome: 'not_opened' });
    driver.release();
  });
});
