import { parseArgs } from 'node:util';

import { BARRIER_DEVICE_KINDS, BarrierDeviceKindSchema } from '@boomgate/contracts/barriers';

import { startAgent } from './agent';
import { createDriver } from './devices';
import { startHikvisionSimulator } from './simulators/hikvision';
import { startHttpSimulator } from './simulators/http';
import { startModbusSimulator } from './simulators/modbus';
import { startShellySimulator } from './simulators/shelly';

export const HELP = `boomgate-agent — the site agent that opens a gate's barrier for Boomgate

Usage:
  boomgate-agent run --server URL --token T --device <${BARRIER_DEVICE_KINDS.join('|')}> --device-url URL [options]
      Connects out to the Boomgate server (one WebSocket, reconnecting) and pulses the barrier
      on the site LAN when the server sends an open command.
        --user NAME              device user (Hikvision, generic HTTP basic auth)
        --password P             device password (Shelly/Hikvision digest, HTTP basic);
                                 or set BOOMGATE_DEVICE_PASSWORD
        --output N               Shelly switch id, Hikvision channel, Modbus coil (default 0/1)
        --position-input N       Modbus discrete input wired to the open contact
        --http-method M          generic HTTP: method (default POST)
        --http-body TEXT         generic HTTP: request body
        --http-expect TEXT       generic HTTP: text the answer must contain to count as opened
        --max-command-age-ms N   drop commands older than this (default 3000)
        The token may also come from BOOMGATE_AGENT_TOKEN.

  boomgate-agent simulate <${BARRIER_DEVICE_KINDS.join('|')}> --port N [--password P] [--fail] [--locked]
      A loopback device speaking the real protocol that prints every command it receives.

  boomgate-agent --help
`;

const toInt = (value: string | undefined, name: string) => {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw new Error(`--${name} must be a whole number`);
  return number;
};

/** Runs the CLI; returns an exit code, or null while a long-running command keeps going. */
export async function runCli(argv: string[]): Promise<number | null> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(HELP);
    return command ? 0 : 1;
  }
  try {
    if (command === 'run') return await run(rest);
    if (command === 'simulate') return await simulate(rest);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${HELP}`);
    return 2;
  }
  process.stderr.write(`Unknown command "${command}".\n\n${HELP}`);
  return 2;
}

async function run(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      server: { type: 'string' },
      token: { type: 'string' },
      device: { type: 'string' },
      'device-url': { type: 'string' },
      user: { type: 'string' },
      password: { type: 'string' },
      output: { type: 'string' },
      'position-input': { type: 'string' },
      'http-method': { type: 'string' },
      'http-body': { type: 'string' },
      'http-expect': { type: 'string' },
      'max-command-age-ms': { type: 'string' },
    },
  });
  const token = values.token ?? process.env.BOOMGATE_AGENT_TOKEN;
  if (!values.server || !token || !values.device || !values['device-url']) {
    throw new Error('run needs --server, --token, --device and --device-url.');
  }
  const kind = BarrierDeviceKindSchema.safeParse(values.device);
  if (!kind.success) throw new Error(`--device must be one of ${BARRIER_DEVICE_KINDS.join(', ')}.`);
  const driver = createDriver({
    kind: kind.data,
    url: values['device-url'],
    user: values.user,
    password: values.password ?? process.env.BOOMGATE_DEVICE_PASSWORD,
    output: toInt(values.output, 'output'),
    positionInput: toInt(values['position-input'], 'position-input'),
    httpMethod: values['http-method'],
    httpBody: values['http-body'],
    httpExpect: values['http-expect'],
  });
  const log = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);
  const agent = startAgent({
    serverUrl: values.server,
    token,
    driver,
    maxCommandAgeMs: toInt(values['max-command-age-ms'], 'max-command-age-ms'),
    log,
  });
  const stop = () => {
    void agent.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return null;
}

async function simulate(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      user: { type: 'string' },
      password: { type: 'string' },
      fail: { type: 'boolean' },
      locked: { type: 'boolean' },
    },
  });
  const kind = BarrierDeviceKindSchema.safeParse(positionals[0]);
  if (!kind.success)
    throw new Error(`simulate needs a device: ${BARRIER_DEVICE_KINDS.join(', ')}.`);
  const options = {
    port: toInt(values.port, 'port') ?? 0,
    host: values.host ?? '127.0.0.1',
    fail: values.fail ?? false,
    log: (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`),
  };
  const simulator =
    kind.data === 'shelly'
      ? await startShellySimulator({ ...options, password: values.password })
      : kind.data === 'hikvision'
        ? await startHikvisionSimulator({
            ...options,
            user: values.user,
            password: values.password,
            locked: values.locked ?? false,
          })
        : kind.data === 'modbus'
          ? await startModbusSimulator(options)
          : await startHttpSimulator(options);
  const stop = () => {
    void simulator.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return null;
}
