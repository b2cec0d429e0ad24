import { Socket } from 'node:net';

import Modbus from 'jsmodbus';

import { type BarrierDriver, type PulseOutcome, describeError, notOpened } from './types';

/**
 * Modbus TCP I/O modules (through `jsmodbus`): function 05 writes the relay coil on, then off
 * after `pulseMs`; function 02 reads the discrete input wired to the barrier's open contact, and
 * only that input closing counts as opened. The coil is switched off in a `finally`, and on
 * modules with a pulse ("flash") mode that should be set too, so the module's own timer ends the
 * pulse even if the agent dies between the two writes.
 */
export type ModbusOptions = {
  /** `modbus://host:port` or `tcp://host:port` (port 502 by default). */
  url: string;
  unitId?: number;
  coil?: number;
  positionInput?: number;
  pulseMs?: number;
  confirmTimeoutMs?: number;
  pollIntervalMs?: number;
  timeoutMs?: number;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The jsmodbus client must exist before the socket connects: it goes online on 'connect'.
function connect(socket: Socket, host: string, port: number, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no Modbus connection to ${host}:${port} in ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.connect({ host, port }, () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export function createModbusDriver({
  url,
  unitId = 1,
  coil = 0,
  positionInput = 0,
  pulseMs = 500,
  confirmTimeoutMs = 1_500,
  pollIntervalMs = 50,
  timeoutMs = 2_000,
}: ModbusOptions): BarrierDriver {
  const parsed = new URL(url);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const port = parsed.port ? Number(parsed.port) : 502;

  return {
    kind: 'modbus',
    async pulse(): Promise<PulseOutcome> {
      const socket = new Socket();
      try {
        const client = new Modbus.client.TCP(socket, unitId, timeoutMs);
        await connect(socket, host, port, timeoutMs);
        socket.on('error', () => {});
        const isOpen = async () => {
          const { response } = await client.readDiscreteInputs(positionInput, 1);
          return response.body.valuesAsArray[0] === 1;
        };
        const waitForOpen = async (untilMs: number) => {
          while (Date.now() < untilMs) {
            if (await isOpen()) return true;
            await sleep(pollIntervalMs);
          }
          return isOpen();
        };
        let coilOn = false;
        let open = false;
        try {
          await client.writeSingleCoil(coil, true);
          coilOn = true;
          // The contact may close while the relay is still on; watch it through the pulse, which
          // still runs its full length (controllers ignore pulses that are too short).
          const pulseEnds = Date.now() + pulseMs;
          open = await waitForOpen(pulseEnds);
          await sleep(Math.max(0, pulseEnds - Date.now()));
        } finally {
          if (coilOn) await client.writeSingleCoil(coil, false);
        }
        if (!open) open = await waitForOpen(Date.now() + confirmTimeoutMs);
        return open
          ? {
              opened: true,
              detail: `coil ${coil} pulsed ${pulseMs} ms; input ${positionInput} open`,
            }
          : notOpened(`coil ${coil} pulsed but position input ${positionInput} stayed closed`);
      } catch (error) {
        return notOpened(describeError(error));
      } finally {
        socket.destroy();
      }
    },
  };
}
