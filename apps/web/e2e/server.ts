import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export type RunningServer = {
  baseUrl: string;
  /** The server's DATA_DIR (its embedded database and storage folder); removed on stop unless given. */
  dataDir: string;
  stop: () => Promise<void>;
};

/** The line apps/server/src/main.ts prints once it listens, with the port it actually bound. */
const RUNNING_LINE = /Boomgate is running: http:\/\/localhost:(\d+)\r?\n/;

/** The server's base URL once GET /api/health answers 200 on the port it says it bound. */
async function waitForHealth(
  boundPort: () => number | undefined,
  server: ChildProcess,
  timeoutMs: number,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) {
      throw new Error(`The server exited with code ${server.exitCode} before it was healthy`);
    }
    const port = boundPort();
    try {
      const baseUrl = `http://127.0.0.1:${port}`;
      const response =
        port === undefined
          ? undefined
          : await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (response?.status === 200) return baseUrl;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`GET /api/health did not answer 200 within ${timeoutMs} ms`);
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Starts the real server (`node --import tsx apps/server/src/main.ts`) from the repository root
 * with a fresh DATA_DIR, and waits until GET /api/health answers 200. Without a fixed port it
 * listens on port 0 and says which port it got (a port chosen here first could be taken by
 * another connection while the server sets up its database).
 */
export async function startServer({
  repoRoot,
  logFile,
  healthTimeoutMs = 120_000,
  port: fixedPort,
  dataDir: givenDataDir,
}: {
  repoRoot: string;
  logFile: string;
  healthTimeoutMs?: number;
  /** Start again where a stopped server was (the offline flow): same port, same data. */
  port?: number;
  /** A data directory the caller owns (kept on stop). */
  dataDir?: string;
}): Promise<RunningServer> {
  const dataDir = givenDataDir ?? (await mkdtemp(path.join(tmpdir(), 'boomgate-e2e-')));
  const log = createWriteStream(logFile, { flags: 'a' });

  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(fixedPort ?? 0),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  let said = '';
  let boundPort: number | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    said = (said + chunk.toString('utf8')).slice(-2_000);
    boundPort ??= Number(RUNNING_LINE.exec(said)?.[1]) || undefined;
  });

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      if (!(await waitForExit(child, 20_000))) {
        child.kill('SIGKILL');
        await waitForExit(child, 5_000);
      }
    }
    log.end();
    if (!givenDataDir) await rm(dataDir, { recursive: true, force: true });
  };

  try {
    const baseUrl = await waitForHealth(() => boundPort, child, healthTimeoutMs);
    return { baseUrl, dataDir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
