import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chmod, readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import pg from 'pg';

import { EmbeddedPostgres, findFreePort } from '@/platform/embedded-postgres';

import { RUNNING_LINE } from '../../../../../scripts/lib/server-process';

/**
 * The fault-test harness (REL-01, 05, 06, 07): the real server process (`npm run serve`'s
 * command) on loopback, killed, stopped and restarted by the tests; a PostgreSQL the tests can
 * crash; a small HTTP client that records every answer. Nothing here talks to anything but
 * 127.0.0.1.
 */

const REPO_ROOT = fileURLToPath(new URL('../../../../..', import.meta.url));
const isRoot = process.getuid?.() === 0;

export type ServerProcess = {
  url: string;
  child: ChildProcess;
  /** stdout and stderr, for the failure message when something goes wrong. */
  output: string[];
  exited: Promise<number | null>;
};

/**
 * Spawns `node --import tsx apps/server/src/main.ts` and waits until it is ready: /api/health
 * answers 200, or (APP_ROLE=worker, no HTTP) it says the worker runs. Without a `port` the server
 * listens on port 0 and says which port it got: a free port chosen here could be taken by a
 * parallel test before the server bound it.
 */
export async function startServer({
  dataDir,
  port,
  env = {},
  readyWithinMs = 90_000,
}: {
  dataDir: string;
  port?: number;
  env?: Record<string, string>;
  readyWithinMs?: number;
}): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      TSX_TSCONFIG_PATH: 'apps/server/tsconfig.json',
      PORT: String(port ?? 0),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      WORKER_CONCURRENCY: '2',
      DATABASE_POOL_MAX: '10',
      // The fault tests drive one user's grant-entry writes in tight loops (hundreds a minute):
      // the per-user upload limit (120 a minute, tested on its own) must not be what they measure.
      RATE_LIMIT_UPLOADS_PER_MINUTE: '100000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const collect = (chunk: Buffer) => {
    output.push(chunk.toString('utf8'));
    if (output.length > 400) output.splice(0, 100);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  // 'close' comes after the pipes are read to the end: the output a failed start quotes is whole.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const server = { url: '', child, output, exited };

  const isWorkerOnly = env.APP_ROLE === 'worker';
  const deadline = Date.now() + readyWithinMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await Promise.race([closed, sleep(2_000)]);
      throw new Error(`server exited (${child.exitCode ?? child.signalCode}):\n${output.join('')}`);
    }
    const boundPort = RUNNING_LINE.exec(output.join(''))?.[1];
    if (boundPort) server.url = `http://127.0.0.1:${boundPort}`;
    const isReady = isWorkerOnly
      ? output.join('').includes('Boomgate worker is running')
      : server.url !== '' &&
        (await fetch(`${server.url}/api/health`).then(
          (response) => response.ok,
          () => false,
        ));
    if (isReady) return server;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not ready within ${readyWithinMs} ms:\n${output.join('')}`);
    }
    await sleep(200);
  }
}

/** SIGTERM and the exit code (null when it had to be killed after `withinMs`). */
export async function stopServer(server: ServerProcess, withinMs = 30_000) {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return server.exited;
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), withinMs);
  const code = await server.exited;
  clearTimeout(timer);
  return code;
}

export async function killServer(server: ServerProcess) {
  server.child.kill('SIGKILL');
  await server.exited;
}

/** The schema owner's connection to the embedded PostgreSQL a server runs in `dataDir`. */
export async function embeddedOwnerPool(dataDir: string): Promise<pg.Pool> {
  const secrets = JSON.parse(await readFile(path.join(dataDir, 'secrets.json'), 'utf8')) as {
    databaseSuperuserPassword: string;
  };
  const port = Number(await readFile(path.join(dataDir, 'postgres.port'), 'utf8'));
  const pool = new pg.Pool({
    host: '127.0.0.1',
    port,
    user: 'postgres',
    password: secrets.databaseSuperuserPassword,
    database: 'boomgate',
    max: 2,
  });
  pool.on('error', () => undefined);
  return pool;
}

/**
 * Stops a PostgreSQL still running on `<dataDir>/postgres` (cleanup after a failed test that
 * left a killed server's database behind).
 */
export async function stopLeftoverPostgres(dataDir: string) {
  const pidFile = await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').catch(
    () => '',
  );
  const pid = Number(pidFile.split('\n')[0]);
  if (!pid) return;
  try {
    process.kill(pid, 'SIGQUIT');
  } catch {
    return;
  }
  await sleep(500);
}

/**
 * A PostgreSQL the test controls (the server gets its URL as DATABASE_URL): stopped with
 * `immediate` (SIGQUIT: no checkpoint, like a crash; the next start replays the WAL) and started
 * again on the same port.
 */
export async function startTestPostgres(databaseDir: string) {
  const password = randomBytes(12).toString('hex');
  const options = {
    databaseDir,
    port: 0,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: isRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: () => undefined,
    onError: () => undefined,
  };
  // As root, PostgreSQL runs as the OS user `postgres`, which must be able to enter the folder.
  if (isRoot) await chmod(path.dirname(databaseDir), 0o755);
  await new EmbeddedPostgres(options).initialise(); // initdb: no port yet
  // The port is chosen right before the start, not before initdb's seconds, so that no other
  // connection of the parallel fault files takes it in between.
  const port = await findFreePort();
  options.port = port;
  let instance = new EmbeddedPostgres(options);
  await instance.start();
  const admin = instance.getPgClient('postgres', '127.0.0.1');
  await admin.connect();
  await admin.query('create database boomgate');
  await admin.end();

  const postmasterPid = async () =>
    Number((await readFile(path.join(databaseDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  let running = true;
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/boomgate`,
    async crash() {
      const pid = await postmasterPid();
      process.kill(pid, 'SIGQUIT');
      while (isAlive(pid)) await sleep(50);
      running = false;
    },
    async start() {
      instance = new EmbeddedPostgres(options);
      await instance.start();
      running = true;
    },
    async stop() {
      if (running) await instance.stop();
      running = false;
    },
  };
}

/** Alive and not a zombie (an exited child waits in state Z until its parent reaps it). */
function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type Answer = {
  op: string;
  startedAt: number;
  ms: number;
  status: number | null;
  code?: string;
  retryAfter?: string | null;
  body?: unknown;
  error?: string;
};

/**
 * A JSON client with the session cookie: each call resolves to an `Answer` (never throws), with a
 * hard time limit so a hanging server shows up as a failed request rather than a hanging test.
 */
export function apiClient(baseUrl: string, { timeoutMs = 15_000 } = {}) {
  let cookie = '';
  async function call(
    op: string,
    method: string,
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const startedAt = Date.now();
    try {
      const response = await fetch(`${baseUrl}${url}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(cookie ? { cookie } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('bg_session='));
      if (setCookie) cookie = setCookie.split(';')[0] ?? '';
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: kept as text
      }
      const code = (parsed as { error?: { code?: string } } | null)?.error?.code;
      return {
        op,
        startedAt,
        ms: Date.now() - startedAt,
        status: response.status,
        code,
        retryAfter: response.headers.get('retry-after'),
        body: parsed,
      };
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      return {
        op,
        startedAt,
        ms: Date.now() - startedAt,
        status: null,
        error: `${(error as Error).name}: ${cause ?? (error as Error).message}`,
      };
    }
  }
  return {
    baseUrl,
    call,
    get cookie() {
      return cookie;
    },
    /** Registers a new organization; the client then holds its admin's session. */
    async register() {
      const answer = await call('register', 'POST', '/api/auth/register', {
        organizationName: `Fault Org ${randomBytes(3).toString('hex')}`,
        fullName: 'Thandi Admin',
        username: `admin${randomBytes(4).toString('hex')}`,
        password: 'correct-horse-1',
      });
      if (answer.status !== 201) throw new Error(`register: ${JSON.stringify(answer)}`);
      return answer.body as { tenant: { id: string }; user: { id: string } };
    },
  };
}

/** A request whose body is sent in two parts: it stays in flight until `finish()` is called. */
export function slowRequest(
  baseUrl: string,
  { path: url, cookie, body }: { path: string; cookie: string; body: unknown },
) {
  const bytes = Buffer.from(JSON.stringify(body));
  const half = Math.floor(bytes.length / 2);
  let resolveAnswer: (answer: { status: number | null; body: string; error?: string }) => void;
  const answer = new Promise<{ status: number | null; body: string; error?: string }>(
    (resolve) => (resolveAnswer = resolve),
  );
  const request = http.request(
    `${baseUrl}${url}`,
    {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/json',
        'content-length': bytes.length,
        cookie,
      },
    },
    (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolveAnswer({
          status: response.statusCode ?? null,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    },
  );
  request.on('error', (error) => resolveAnswer({ status: null, body: '', error: error.message }));
  request.write(bytes.subarray(0, half));
  return {
    answer,
    finish() {
      request.end(bytes.subarray(half));
    },
  };
}
