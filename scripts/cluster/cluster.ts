import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';

import { REPO_ROOT, RUNNING_LINE, SERVER_NODE_OPTIONS, freePort } from '../lib/server-process';

import { type ClusterPostgres, startClusterPostgres } from './postgres';

/**
 * `npm run cluster` and test:cluster / bench:cluster (issue 27): the cloud shape on one machine.
 * PostgreSQL (postgres.ts), N API instances (APP_ROLE=api) and one worker (APP_ROLE=worker) of the
 * real server, HAProxy (Debian package) in front with HTTP checks on /api/ready, and an
 * S3-compatible store: s3rver (npm) unless S3_ENDPOINT names a real one.
 */
export type Instance = {
  name: string;
  /** The port it listens on: 0 until it has said which (an API's first start binds port 0). */
  port: number;
  child: ChildProcess;
  /** Resolves with the exit code (or the signal's name) once the process has exited. */
  exited: Promise<number | string | null>;
};

export type Cluster = {
  /** HAProxy's frontend: what clients use. */
  url: string;
  postgres: ClusterPostgres;
  apis: Instance[];
  worker: Instance;
  /** Sends one command to HAProxy's runtime API (admin socket) and returns its answer. */
  haproxy(command: string): Promise<string>;
  /** Starts (again) the API instance `index` on its port and waits until it answers /api/ready. */
  startApi(index: number): Promise<Instance>;
  /**
   * Takes API instance `index` out of rotation (HAProxy `drain`), waits for its sessions to end,
   * stops it with SIGTERM (the app's own drain), starts it again and puts it back once ready.
   */
  restartApi(index: number): Promise<void>;
  /** Stops the worker with SIGTERM (running jobs finish) and starts it again. */
  restartWorker(): Promise<void>;
  /** HAProxy's view of each server: name → status (UP, DOWN, MAINT, DRAIN…). */
  serverStates(): Promise<Record<string, string>>;
  stop(): Promise<void>;
};

export type ClusterOptions = {
  apiInstances?: number;
  /** Extra environment for every instance (e.g. WEBHOOKS_ALLOW_LOOPBACK_HTTP for a test receiver). */
  env?: Record<string, string>;
  port?: number;
  log?: (message: string) => void;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const HAPROXY = process.env.HAPROXY_BIN ?? 'haproxy';

function haproxyConfig({
  port,
  socket,
  apis,
}: {
  port: number;
  socket: string;
  apis: { name: string; port: number }[];
}) {
  // Checks every 500 ms: two failures take a server out, two successes put it back. A request
  // that cannot connect is re-dispatched to another server (retries + redispatch); a request in
  // flight on a server that dies is answered 502/503 by HAProxy (never retried: POSTs are not
  // idempotent for it).
  return `global
  stats socket ${socket} mode 600 level admin
  maxconn 4096

defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout tunnel 1h
  option redispatch 1
  retries 3
  option http-keep-alive
  option forwardfor

frontend boomgate
  bind 127.0.0.1:${port}
  default_backend api

backend api
  balance roundrobin
  option httpchk GET /api/ready
  http-check expect status 200
  default-server inter 500ms fall 2 rise 2 observe layer4 error-limit 1 on-error mark-down
${apis.map((api) => `  server ${api.name} 127.0.0.1:${api.port} check`).join('\n')}
`;
}

/** One command to HAProxy's admin socket (a Unix socket: one command per connection). */
function haproxyCommand(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const connection = createConnection(socket);
    let answer = '';
    connection.on('data', (chunk) => (answer += chunk.toString('utf8')));
    connection.on('end', () => resolve(answer));
    connection.on('error', reject);
    connection.write(`${command}\n`);
  });
}

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(200);
  }
}

const answersOk = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
    (response) => response.ok,
    () => false,
  );

async function startS3(dir: string, log: (message: string) => void) {
  if (process.env.S3_ENDPOINT) {
    return {
      env: {} as Record<string, string>, // the caller's S3_* variables pass through
      label: `S3 at ${process.env.S3_ENDPOINT}`,
      close: async () => undefined,
    };
  }
  // s3rver is CommonJS without types.
  const S3rver = createRequire(import.meta.url)('s3rver') as new (options: object) => {
    run(): Promise<{ port: number }>;
    close(): Promise<void>;
  };
  const port = await freePort();
  const bucket = 'boomgate';
  const server = new S3rver({
    port,
    address: '127.0.0.1',
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket }],
  });
  await server.run();
  log(`s3rver on 127.0.0.1:${port}, bucket ${bucket}`);
  return {
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
      // s3rver's fixed development credentials.
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    label: `s3rver on 127.0.0.1:${port}`,
    close: () => server.close(),
  };
}

export async function startCluster({
  apiInstances = 3,
  env: extraEnv = {},
  port: requestedPort,
  log = (message) => process.stdout.write(`${message}\n`),
}: ClusterOptions = {}): Promise<Cluster> {
  const root = path.join(REPO_ROOT, '.tmp', 'cluster');
  await rm(root, { recursive: true, force: true });
  await mkdir(path.join(root, 's3'), { recursive: true });
  const cleanups: Array<() => Promise<unknown>> = [];
  const children = new Set<ChildProcess>();

  try {
    const postgres = await startClusterPostgres();
    cleanups.push(() => postgres.dispose());
    log(`database: ${postgres.label}`);
    const s3 = await startS3(path.join(root, 's3'), log);
    cleanups.push(() => s3.close());

    // Every instance of one deployment shares its secrets (here: the environment).
    const sharedEnv: Record<string, string> = {
      TSX_TSCONFIG_PATH: 'apps/server/tsconfig.json',
      HOST: '127.0.0.1',
      DATABASE_URL: postgres.url,
      DATA_DIR: path.join(root, 'data'),
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      DATABASE_POOL_MAX: '10',
      TRUST_PROXY: '127.0.0.1/32',
      // Longer than HAProxy needs to see two failed checks (2 × 500 ms): no request is routed to
      // an instance that has stopped listening.
      SHUTDOWN_DRAIN_MS: '2000',
      LOG_LEVEL: 'warn',
      VISION_THREADS: '1',
      ...s3.env,
      ...extraEnv,
    };

    const spawnInstance = (name: string, instanceEnv: Record<string, string>): Instance => {
      // `npm run serve`'s Node options: the instances run as a deployment runs them.
      const nodeArgs = [...SERVER_NODE_OPTIONS, '--import', 'tsx', 'apps/server/src/main.ts'];
      const child = spawn(process.execPath, nodeArgs, {
        cwd: REPO_ROOT,
        env: { ...process.env, ...sharedEnv, ...instanceEnv },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.add(child);
      const prefix = (chunk: Buffer) =>
        chunk
          .toString('utf8')
          .split('\n')
          .filter(Boolean)
          .forEach((line) => log(`[${name}] ${line}`));
      child.stdout?.on('data', prefix);
      child.stderr?.on('data', prefix);
      const exited = new Promise<number | string | null>((resolve) =>
        child.once('exit', (code, signal) => {
          children.delete(child);
          resolve(code ?? signal);
        }),
      );
      const instance = { name, port: Number(instanceEnv.PORT ?? 0), child, exited };
      let stdout = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        if (instance.port) return;
        stdout = (stdout + chunk.toString('utf8')).slice(-4_000);
        instance.port = Number(RUNNING_LINE.exec(stdout)?.[1] ?? 0);
      });
      return instance;
    };

    // The worker first: it runs the migrations and creates the roles, so the API instances that
    // start together after it find the schema ready (each still checks it).
    const startWorker = async () => {
      const started = spawnInstance('worker', { APP_ROLE: 'worker', PORT: '0' }); // no HTTP
      await new Promise<void>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          if (chunk.toString('utf8').includes('worker is running')) {
            started.child.stdout?.off('data', onData);
            resolve();
          }
        };
        started.child.stdout?.on('data', onData);
        void started.exited.then((code) => reject(new Error(`the worker exited (${code})`)));
      });
      return started;
    };
    let worker = await startWorker();

    // An API's first start binds port 0 and says which port it got (a port probed here could be
    // taken while the instance sets up); HAProxy is configured after, and restarts come back on it.
    const apiPorts: number[] = [];
    const apis: Instance[] = [];
    const startApi = async (index: number) => {
      const api = spawnInstance(`api${index + 1}`, {
        APP_ROLE: 'api',
        PORT: String(apiPorts[index] ?? 0),
      });
      apis[index] = api;
      await waitUntil(async () => {
        if (api.child.exitCode !== null) throw new Error(`${api.name} exited`);
        return api.port !== 0 && answersOk(`http://127.0.0.1:${api.port}/api/ready`);
      }, `${api.name} ready`);
      apiPorts[index] = api.port;
      return api;
    };
    await Promise.all(Array.from({ length: apiInstances }, (_, index) => startApi(index)));

    const port = requestedPort ?? Number(process.env.CLUSTER_PORT ?? 0);
    const frontendPort = port || (await freePort());
    const socket = path.join(root, 'haproxy.sock');
    const configFile = path.join(root, 'haproxy.cfg');
    await writeFile(
      configFile,
      haproxyConfig({
        port: frontendPort,
        socket,
        apis: apis.map((api) => ({ name: api.name, port: api.port })),
      }),
    );
    execFileSync(HAPROXY, ['-c', '-q', '-f', configFile]);
    const haproxy = spawn(HAPROXY, ['-db', '-f', configFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(haproxy);
    haproxy.stderr.on('data', (chunk: Buffer) => log(`[haproxy] ${chunk.toString('utf8').trim()}`));
    const haproxyExited = new Promise((resolve) => haproxy.once('exit', resolve));

    const command = (text: string) => haproxyCommand(socket, text);
    const serverStates = async () => {
      // "show servers state api": one line per server; field 6 is the operational state
      // (0 stopped, 1 starting, 2 running, 3 stopping), field 7 the admin state (bit 0x01 or
      // 0x04: maintenance, 0x08: drain).
      const lines = (await command('show servers state api')).split('\n');
      const states: Record<string, string> = {};
      for (const line of lines) {
        const fields = line.trim().split(/\s+/);
        if (fields.length < 8 || !/^\d+$/.test(fields[0] ?? '')) continue;
        const [, , , name, , operational, admin] = fields;
        const adminState = Number(admin);
        states[name!] =
          adminState & 0x08
            ? 'DRAIN'
            : adminState & 0x05
              ? 'MAINT'
              : operational === '2'
                ? 'UP'
                : 'DOWN';
      }
      return states;
    };
    /** Sessions open on each server now (`show stat` CSV: pxname, svname, qcur, qmax, scur…). */
    const currentSessions = async () => {
      const sessions: Record<string, number> = {};
      for (const line of (await command('show stat')).split('\n')) {
        const [proxy, server, , , scur] = line.split(',');
        if (proxy === 'api' && server && scur !== undefined && server !== 'BACKEND') {
          sessions[server] = Number(scur);
        }
      }
      return sessions;
    };
    const url = `http://127.0.0.1:${frontendPort}`;
    await waitUntil(async () => {
      try {
        const states = await serverStates();
        return apis.every((api) => states[api.name] === 'UP');
      } catch {
        return false;
      }
    }, 'HAProxy sees every instance up');
    log(
      `cluster up: ${url} → ${apis.map((api) => `${api.name}:${api.port}`).join(', ')}; worker; ${s3.label}`,
    );

    const cluster: Cluster = {
      url,
      postgres,
      apis,
      get worker() {
        return worker;
      },
      haproxy: command,
      startApi,
      serverStates,
      async restartApi(index) {
        const api = apis[index]!;
        const restartStartedAt = Date.now();
        await command(`set server api/${api.name} state drain`);
        // Requests already sent to it finish; HAProxy sends it nothing new.
        await waitUntil(
          async () => (await currentSessions())[api.name] === 0,
          `${api.name} has no sessions`,
        );
        const drainedAt = Date.now();
        api.child.kill('SIGTERM');
        await api.exited;
        const stoppedAt = Date.now();
        await startApi(index);
        log(
          `${api.name} restarted: drained in ${drainedAt - restartStartedAt} ms, stopped in ${stoppedAt - drainedAt} ms, ready in ${Date.now() - stoppedAt} ms`,
        );
        await command(`set server api/${api.name} state ready`);
        await waitUntil(
          async () => (await serverStates())[api.name] === 'UP',
          `${api.name} back in rotation`,
        );
      },
      async restartWorker() {
        worker.child.kill('SIGTERM');
        await worker.exited;
        worker = await startWorker();
      },
      async stop() {
        for (const child of children) if (child !== haproxy) child.kill('SIGTERM');
        await Promise.all([worker.exited, ...apis.map((api) => api.exited)]);
        haproxy.kill('SIGTERM');
        await haproxyExited;
        for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
      },
    };
    return cluster;
  } catch (error) {
    for (const child of children) child.kill('SIGKILL');
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
    throw error;
  }
}
