import type { AddressInfo } from 'node:net';
import type { IncomingMessage, Server } from 'node:http';

/** Options every simulator takes. */
export type SimulatorOptions = {
  port?: number;
  /** Loopback only by default: a simulator is a test device, not a network service. */
  host?: string;
  /** Called with one line per command received (the CLI prints them). */
  log?: (line: string) => void;
  /** Answer every command with a device error. */
  fail?: boolean;
};

export type Simulator = {
  port: number;
  /** Every command received, in order (e.g. `Switch.Set id=0 on=true toggle_after=1`). */
  commands: string[];
  /** Open pulses the device actually carried out. */
  pulses: number;
  setFailing(failing: boolean): void;
  close(): Promise<void>;
};

export async function listen(server: Server, port: number, host: string) {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

export const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

export async function readBody(request: IncomingMessage) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > 64 * 1024) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
