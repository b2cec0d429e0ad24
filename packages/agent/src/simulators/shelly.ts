import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';

import { type Simulator, type SimulatorOptions, closeServer, listen, readBody } from './common';
import { createDigestVerifier } from './digest-server';

/**
 * A Shelly Gen2 relay on loopback: `POST /rpc` with `Switch.Set` (honouring `toggle_after`: the
 * output turns itself off) and `Switch.GetStatus`; digest SHA-256 as user `admin` when a password
 * is set.
 */
export async function startShellySimulator({
  port = 0,
  host = '127.0.0.1',
  log = () => {},
  fail = false,
  password,
}: SimulatorOptions & { password?: string }): Promise<Simulator> {
  const digest = password
    ? createDigestVerifier({
        realm: 'shellyplus1-sim',
        user: 'admin',
        password,
        algorithm: 'SHA-256',
      })
    : null;
  const commands: string[] = [];
  const output = new Map<number, boolean>();
  // One pending toggle per switch: a new Switch.Set replaces it, as on the device.
  const timers = new Map<number, NodeJS.Timeout>();
  let failing = fail;
  let pulses = 0;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    try {
      if (request.method !== 'POST' || request.url !== '/rpc')
        return reply(404, { error: 'not found' });
      const text = await readBody(request);
      if (digest && !digest.verify('POST', request.headers.authorization)) {
        response.writeHead(401, { 'www-authenticate': digest.challenge() });
        return response.end();
      }
      const call = JSON.parse(text) as {
        id?: number;
        method?: string;
        params?: Record<string, unknown>;
      };
      const id = Number(call.params?.id ?? 0);
      if (call.method === 'Switch.Set') {
        const line = `Switch.Set id=${id} on=${String(call.params?.on)} toggle_after=${String(call.params?.toggle_after)}`;
        commands.push(line);
        log(`[shelly] ${line}`);
        if (failing)
          return reply(200, {
            id: call.id,
            src: 'shellyplus1-sim',
            error: { code: -114, message: 'Device overheated' },
          });
        const wasOn = output.get(id) ?? false;
        output.set(id, call.params?.on === true);
        if (call.params?.on === true) pulses += 1;
        const after = Number(call.params?.toggle_after);
        clearTimeout(timers.get(id));
        timers.delete(id);
        if (Number.isFinite(after) && after > 0) {
          const timer = setTimeout(() => {
            timers.delete(id);
            output.set(id, !(call.params?.on === true));
            log(`[shelly] switch ${id} toggled back after ${after}s`);
          }, after * 1000);
          timers.set(id, timer);
        }
        return reply(200, { id: call.id, src: 'shellyplus1-sim', result: { was_on: wasOn } });
      }
      if (call.method === 'Switch.GetStatus') {
        return reply(200, {
          id: call.id,
          src: 'shellyplus1-sim',
          result: { id, output: output.get(id) ?? false },
        });
      }
      return reply(200, {
        id: call.id,
        src: 'shellyplus1-sim',
        error: { code: -114, message: `No method ${call.method}` },
      });
    } catch {
      reply(400, { error: 'bad request' });
    }
  };
  const server = createServer((request, response) => void handle(request, response));
  const boundPort = await listen(server, port, host);
  log(
    `[shelly] simulator listening on http://${host}:${boundPort}/rpc${password ? ' (digest SHA-256, user admin)' : ''}`,
  );
  return {
    port: boundPort,
    commands,
    get pulses() {
      return pulses;
    },
    setFailing: (value) => {
      failing = value;
    },
    close: async () => {
      timers.forEach((timer) => clearTimeout(timer));
      await closeServer(server);
    },
  };
}
