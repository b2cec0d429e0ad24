import { Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

import Modbus from 'jsmodbus';

import type { Simulator, SimulatorOptions } from './common';

const bit = (buffer: Buffer, address: number) =>
  (buffer[Math.floor(address / 8)]! >> (address % 8)) & 1;
const setBit = (buffer: Buffer, address: number, on: boolean) => {
  const index = Math.floor(address / 8);
  const mask = 1 << (address % 8);
  buffer[index] = on ? buffer[index]! | mask : buffer[index]! & ~mask;
};

/**
 * A Modbus TCP I/O module on loopback (`jsmodbus` server): coil writes (function 05) are
 * printed; a coil turning on lifts the simulated boom, which closes discrete input `coil` (the
 * open contact) for `holdOpenMs`. `fail`: coil writes are not carried out (the relay is dead) so
 * the position input never closes.
 */
export async function startModbusSimulator({
  port = 0,
  host = '127.0.0.1',
  log = () => {},
  fail = false,
  holdOpenMs = 5_000,
}: SimulatorOptions & { holdOpenMs?: number }): Promise<
  Simulator & { coil(address: number): boolean }
> {
  const netServer = new Server();
  const sockets = new Set<Socket>();
  netServer.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const coils = Buffer.alloc(64);
  const discrete = Buffer.alloc(64);
  const server = new Modbus.server.TCP(netServer, { coils, discrete });
  const commands: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let failing = fail;
  let pulses = 0;

  server.on('preWriteSingleCoil', (request) => {
    const body = request.body as unknown as { address: number; value: number };
    const on = body.value === 0xff00;
    const line = `write coil ${body.address} ${on ? 'ON' : 'OFF'}`;
    commands.push(line);
    log(`[modbus] ${line}`);
  });
  server.on('postWriteSingleCoil', (request) => {
    const body = request.body as unknown as { address: number; value: number };
    if (failing) {
      setBit(coils, body.address, false);
      return;
    }
    if (body.value === 0xff00) {
      pulses += 1;
      setBit(discrete, body.address, true);
      const timer = setTimeout(() => {
        timers.delete(timer);
        setBit(discrete, body.address, false);
        log(`[modbus] input ${body.address} open contact released`);
      }, holdOpenMs);
      timers.add(timer);
    }
  });

  await new Promise<void>((resolve, reject) => {
    netServer.once('error', reject);
    netServer.listen(port, host, () => resolve());
  });
  const boundPort = (netServer.address() as AddressInfo).port;
  log(`[modbus] simulator listening on modbus://${host}:${boundPort}`);
  return {
    port: boundPort,
    commands,
    get pulses() {
      return pulses;
    },
    coil: (address) => bit(coils, address) === 1,
    setFailing: (value) => {
      failing = value;
    },
    close: async () => {
      timers.forEach(clearTimeout);
      sockets.forEach((socket) => socket.destroy());
      await new Promise<void>((resolve) => netServer.close(() => resolve()));
    },
  };
}
