import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The server's Node options, as in `npm run serve` (server-process.test.ts keeps the two equal),
 * so benches measure the server as it runs.
 * - `--max-old-space-size=1024`: left to its default (a quarter of the machine's memory, 4 GiB
 *   here) V8 lets the old generation grow to about four times the live heap before a full
 *   collection, so a long streamed export's short-lived garbage raised the RSS by ~200 MiB with
 *   ~60 MiB live. At 1 GiB V8 grows it by a smaller factor: the 1,000,000-row export's rise fell
 *   under 100 MiB (docs/benchmarks.md).
 * - `--max-semi-space-size=64` (issue 27): a 64 MiB young generation lets a 100-row page's
 *   objects die young under 50 concurrent requests instead of being promoted and collected by
 *   the old generation's mark-compact: a quarter of the scavenges and half the mark-compacts.
 * - `--v8-pool-size=1` (issues 26/27): V8's background threads (concurrent marking, parallel
 *   scavenging, optimising compiles; Node starts four) took both cores at once, and the main
 *   thread and PostgreSQL's backends waited for a core: the lists' remaining clusters of slow
 *   requests. One background thread leaves a core to the requests (docs/benchmarks.md, "Scale:
 *   V8's background threads"). On a machine with more cores per instance, raise it
 *   (docs/deployment.md).
 */
export const SERVER_NODE_OPTIONS = [
  '--max-old-space-size=1024',
  '--max-semi-space-size=64',
  '--v8-pool-size=1',
] as const;

export type ServerProcess = {
  url: string;
  child: ChildProcess;
  /** Resident memory of the server process now and its peak so far (bytes; worker threads included). */
  memory(): ProcessMemory;
  stop(): Promise<number | null>;
};

export type ProcessMemory = { rssBytes: number; peakRssBytes: number };

/**
 * VmRSS and VmHWM of a process from /proc (Linux). The vision engine's piscina workers are threads,
 * so this is the whole server; the embedded PostgreSQL runs in its own processes and is not included.
 */
export function processMemory(pid: number): ProcessMemory {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) =>
      Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
    return { rssBytes: kib('VmRSS') * 1024, peakRssBytes: kib('VmHWM') * 1024 };
  } catch {
    return { rssBytes: 0, peakRssBytes: 0 };
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        address && typeof address === 'object'
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/** The line main.ts prints once it listens, with the port it actually bound. */
export const RUNNING_LINE = /Boomgate is running: http:\/\/localhost:(\d+)\r?\n/;
/** How much of the server's output a failed start quotes (its last lines say why). */
const OUTPUT_TAIL_CHARS = 4_000;

/**
 * Starts the real server (`npm run serve`'s command) with a throwaway data folder and embedded
 * PostgreSQL, and waits until /api/health answers.
 *
 * Unless the caller sets PORT, the server listens on port 0 and says which port the system gave
 * it. Choosing a free port first and passing it on lost races under the full suite: in the
 * seconds the server spends on initdb and migrations, another test's outgoing connection could
 * take the port, and the server exited with EADDRINUSE.
 */
export async function startServer({
  env = {},
  nodeArgs = [],
  preload = [],
}: {
  env?: Record<string, string>;
  /** Node options before the entry point (`--cpu-prof`: not allowed in NODE_OPTIONS). */
  nodeArgs?: string[];
  /** TypeScript modules imported before the entry point, after tsx (a bench's watchers). */
  preload?: string[];
} = {}): Promise<ServerProcess> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'boomgate-run-'));
  const child = spawn(
    process.execPath,
    [
      ...SERVER_NODE_OPTIONS,
      ...nodeArgs,
      '--import',
      'tsx',
      ...preload.flatMap((module) => ['--import', module]),
      'apps/server/src/main.ts',
    ],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        TSX_TSCONFIG_PATH: 'apps/server/tsconfig.json',
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  // 'close' comes after the pipes are read to the end: the output a failed start quotes is whole.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let output = '';
  let stdout = '';
  let port: number | undefined;
  const keep = (chunk: Buffer, forward: NodeJS.WriteStream) => {
    forward.write(chunk);
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stdout?.on('data', (chunk: Buffer) => {
    keep(chunk, process.stdout);
    // The line is looked for on stdout alone and whole (up to its newline): a read may end
    // inside the port number.
    stdout = (stdout + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
    port ??= Number(RUNNING_LINE.exec(stdout)?.[1]) || undefined;
  });
  child.stderr?.on('data', (chunk: Buffer) => keep(chunk, process.stderr));
  const failed = async (reason: string) => {
    await rm(dataDir, { recursive: true, force: true });
    return new Error(`${reason}; its last output:\n${output.trim()}`);
  };

  const deadline = Date.now() + 60_000;
  let url: string;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2_000))]);
      throw await failed(`server exited with ${child.exitCode ?? child.signalCode}`);
    }
    const isUp =
      port !== undefined &&
      (await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.ok,
        () => false,
      ));
    if (isUp) {
      url = `http://127.0.0.1:${port}`;
      break;
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw await failed('server did not become healthy within 60 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    child,
    memory: () => processMemory(child.pid ?? 0),
    async stop() {
      const exited = new Promise<number | null>((resolve) =>
        child.once('exit', (code) => resolve(code)),
      );
      child.kill('SIGTERM');
      const code = await exited;
      await rm(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}
