import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';

import { type Simulator, type SimulatorOptions, closeServer, listen, readBody } from './common';

/** A generic HTTP-triggered relay on loopback: any request is printed and answered `{"ok":true}`. */
export async function startHttpSimulator({
  port = 0,
  host = '127.0.0.1',
  log = () => {},
  fail = false,
  answerAfterMs = 0,
}: SimulatorOptions & {
  /** Hold each answer this long (a slow controller; the fault test kills the agent meanwhile). */
  answerAfterMs?: number;
}): Promise<Simulator> {
  const commands: string[] = [];
  let failing = fail;
  let pulses = 0;
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const body = await readBody(request).catch(() => '');
    const line = `${request.method} ${request.url}${body ? ` ${body}` : ''}`;
    commands.push(line);
    log(`[http] ${line}`);
    if (answerAfterMs > 0) await new Promise((resolve) => setTimeout(resolve, answerAfterMs));
    if (failing) {
      response.writeHead(500, { 'content-type': 'application/json' });
      return response.end('{"ok":false,"error":"relay fault"}');
    }
    pulses += 1;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"ok":true}');
  };
  const server = createServer((request, response) => void handle(request, response));
  const boundPort = await listen(server, port, host);
  log(`[http] simulator listening on http://${host}:${boundPort}/`);
  return {
    port: boundPort,
    commands,
    get pulses() {
      return pulses;
    },
    setFailing: (value) => {
      failing = value;
    },
    close: () => closeServer(server),
  };
}
