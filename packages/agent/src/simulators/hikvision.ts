import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';

import { type Simulator, type SimulatorOptions, closeServer, listen, readBody } from './common';
import { createDigestVerifier } from './digest-server';

const responseStatus = (code: number, subStatus: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><ResponseStatus version="2.0"><requestURL>/ISAPI/Parking</requestURL><statusCode>${code}</statusCode><statusString>${code === 1 ? 'OK' : 'Device Error'}</statusString><subStatusCode>${subStatus}</subStatusCode></ResponseStatus>`;

/**
 * A Hikvision barrier controller on loopback: `PUT /ISAPI/Parking/channels/{n}/barrierGate`
 * (`ctrlMode` open/close/lock/unlock) and `GET …/barrierGate/barrierGateStatus` (0 no signal,
 * 1 closed, 2 open), digest MD5. `locked`: answers OK and does not move, like a locked barrier.
 * Every refused login is counted (`authFailures`).
 */
export async function startHikvisionSimulator({
  port = 0,
  host = '127.0.0.1',
  log = () => {},
  fail = false,
  user = 'admin',
  password = 'admin12345',
  locked = false,
  holdOpenMs = 5_000,
}: SimulatorOptions & {
  user?: string;
  password?: string;
  locked?: boolean;
  holdOpenMs?: number;
}): Promise<Simulator & { readonly authFailures: number }> {
  const digest = createDigestVerifier({
    realm: 'IP Camera(sim)',
    user,
    password,
    algorithm: 'MD5',
  });
  const commands: string[] = [];
  const status = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  let failing = fail;
  let pulses = 0;
  let authFailures = 0;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const xml = (code: number, body: string) => {
      response.writeHead(code, { 'content-type': 'application/xml' });
      response.end(body);
    };
    try {
      const body = await readBody(request);
      const authorization = request.headers.authorization;
      if (!digest.verify(request.method ?? 'GET', authorization)) {
        if (authorization) {
          authFailures += 1;
          log(`[hikvision] refused login #${authFailures}`);
        }
        response.writeHead(401, { 'www-authenticate': digest.challenge() });
        return response.end();
      }
      const gate = /^\/ISAPI\/Parking\/channels\/(\d+)\/barrierGate(\/barrierGateStatus)?$/.exec(
        request.url ?? '',
      );
      if (!gate) return xml(404, responseStatus(4, 'notSupport'));
      const channel = gate[1]!;
      if (gate[2]) {
        if (request.method !== 'GET') return xml(405, responseStatus(4, 'methodNotAllowed'));
        return xml(
          200,
          `<?xml version="1.0" encoding="UTF-8"?><BarrierGateStatus version="2.0"><channelID>${channel}</channelID><barrierGateStatus>${status.get(channel) ?? 1}</barrierGateStatus></BarrierGateStatus>`,
        );
      }
      if (request.method !== 'PUT') return xml(405, responseStatus(4, 'methodNotAllowed'));
      const mode = /<ctrlMode>\s*(\w+)\s*<\/ctrlMode>/.exec(body)?.[1] ?? '(none)';
      const line = `PUT barrierGate channel=${channel} ctrlMode=${mode}`;
      commands.push(line);
      log(`[hikvision] ${line}`);
      if (failing) return xml(500, responseStatus(6, 'deviceError'));
      if (mode === 'open' && !locked) {
        pulses += 1;
        status.set(channel, 2);
        const timer = setTimeout(() => {
          timers.delete(timer);
          status.set(channel, 1);
          log(`[hikvision] barrier ${channel} closed again`);
        }, holdOpenMs);
        timers.add(timer);
      }
      return xml(200, responseStatus(1, 'ok'));
    } catch {
      xml(400, responseStatus(5, 'badXmlContent'));
    }
  };
  const server = createServer((request, response) => void handle(request, response));
  const boundPort = await listen(server, port, host);
  log(`[hikvision] simulator listening on http://${host}:${boundPort} (digest MD5, user ${user})`);
  return {
    port: boundPort,
    commands,
    get pulses() {
      return pulses;
    },
    get authFailures() {
      return authFailures;
    },
    setFailing: (value) => {
      failing = value;
    },
    close: async () => {
      timers.forEach(clearTimeout);
      await closeServer(server);
    },
  };
}
