import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

import { OWNER_FILE, lockDataDir } from '@/platform/embedded-postgres';

/**
 * `npm run backup -- --out FILE.tar.gz [--data-dir DIR]` and
 * `npm run restore -- --from FILE.tar.gz [--data-dir DIR]`: a cold backup of a single machine's
 * (or a site node's) embedded database. The embedded PostgreSQL ships no pg_dump, and a copy of a
 * running cluster's files is not consistent, so the backup takes the data folder's lock (the one
 * the server holds while it runs: a running server makes it refuse) and archives the whole folder
 * with the system's tar: the PostgreSQL files and secrets.json, which the data cannot be read
 * without (encrypted integration secrets, the database passwords). Restore unpacks into an empty
 * or new folder only, never over data. DATA_DIR is the default folder, as for the server.
 */
const run = promisify(execFile);

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

async function backup(dataDir: string, out: string) {
  if (!existsSync(path.join(dataDir, 'postgres', 'PG_VERSION'))) {
    throw new Error(`${dataDir} holds no embedded database`);
  }
  const release = await lockDataDir(dataDir);
  try {
    // A PostgreSQL left running by a killed server (or one that did not shut down cleanly) keeps
    // its pid file: its files are not a consistent copy.
    if (existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))) {
      throw new Error(
        `PostgreSQL in ${dataDir} is running or was not shut down cleanly: start and stop the server once, then back up`,
      );
    }
    await run('tar', [
      '--create',
      '--gzip',
      `--file=${path.resolve(out)}`,
      `--exclude=./postgres.lock`,
      `--exclude=./${OWNER_FILE}`,
      `--directory=${dataDir}`,
      '.',
    ]);
  } finally {
    await release();
  }
}

async function restore(dataDir: string, from: string) {
  if (existsSync(dataDir) && (await readdir(dataDir)).length > 0) {
    throw new Error(`${dataDir} is not empty: restore into an empty or new folder`);
  }
  await mkdir(dataDir, { recursive: true });
  // As root, tar keeps the files' owners (the embedded PostgreSQL runs as the user postgres).
  await run('tar', [
    '--extract',
    '--gzip',
    `--file=${path.resolve(from)}`,
    `--directory=${dataDir}`,
  ]);
}

const [command, ...args] = process.argv.slice(2);
const dataDir = path.resolve(option(args, '--data-dir') ?? process.env.DATA_DIR ?? './data');
try {
  if (command === 'backup') {
    const out = option(args, '--out');
    if (!out) throw new Error('--out FILE.tar.gz is required');
    await backup(dataDir, out);
    process.stdout.write(`Backed up ${dataDir} to ${out}\n`);
  } else if (command === 'restore') {
    const from = option(args, '--from');
    if (!from) throw new Error('--from FILE.tar.gz is required');
    await restore(dataDir, from);
    process.stdout.write(`Restored ${from} into ${dataDir}\n`);
  } else {
    throw new Error(
      'usage: backup --out FILE.tar.gz | restore --from FILE.tar.gz [--data-dir DIR]',
    );
  }
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
