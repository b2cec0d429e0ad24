/**
 * `npm run scan:plaintext`: issue 26's check of a Boomgate data folder at rest. Searches every
 * text-like column of every table of the database (the running server's embedded PostgreSQL,
 * found through DATA_DIR as `npm run admin` finds it, started briefly when no server runs, or
 * DATABASE_URL) for plaintext ID or passport numbers, and the storage folder for objects stored
 * unsealed (security/plaintext-scan.ts, the catalog test's walk). The end-to-end run ends with it.
 * Exit 0 when nothing is found, 1 listing `schema.table.column` and objects on a hit, 2 on error.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';

import pg from 'pg';

import { loadEnv } from '@/config/env';
import { findRunningEmbeddedPostgres, startEmbeddedPostgres } from '@/platform/embedded-postgres';
import { loadOrCreateSecrets } from '@/platform/secrets';
import {
  type OwnerQuery,
  findPlaintextNumbers,
  findUnsealedObjects,
} from '@/security/plaintext-scan';

async function ownerDatabase(env: ReturnType<typeof loadEnv>) {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, stop: async () => undefined };
  // Never create secrets (and so a database) in a folder that has none: nothing to scan there.
  await access(path.join(env.dataDir, 'secrets.json')).catch(() => {
    throw new Error(`${env.dataDir} holds no Boomgate data (no secrets.json); check DATA_DIR.`);
  });
  const { databaseSuperuserPassword: password } = await loadOrCreateSecrets(env.dataDir);
  const running = await findRunningEmbeddedPostgres(env.dataDir, password);
  if (running) return { url: running, stop: async () => undefined };
  const embedded = await startEmbeddedPostgres({ dataDir: env.dataDir, password });
  return { url: embedded.ownerUrl, stop: () => embedded.stop() };
}

async function main(): Promise<number> {
  const env = loadEnv();
  const database = await ownerDatabase(env);
  const client = new pg.Client({ connectionString: database.url });
  let columns: Set<string>;
  try {
    await client.connect();
    const query: OwnerQuery = async <Row extends Record<string, unknown>>(
      text: string,
      values?: unknown[],
    ) => (await client.query<Row>(text, values)).rows;
    columns = await findPlaintextNumbers(query);
  } finally {
    await client.end().catch(() => undefined);
    await database.stop();
  }
  const storage = env.S3_BUCKET ? undefined : await findUnsealedObjects(env.storageDir);
  const lines = [
    storage
      ? `Read ${storage.objects} objects in ${env.storageDir}.`
      : `Objects are in S3 (${env.S3_BUCKET}): not scanned.`,
  ];
  if (columns.size > 0)
    lines.push(`Plaintext ID or passport numbers in: ${[...columns].sort().join(', ')}`);
  if (storage && storage.unsealed.length > 0)
    lines.push(`Objects stored unsealed: ${storage.unsealed.join(', ')}`);
  const clean = columns.size === 0 && (storage?.unsealed.length ?? 0) === 0;
  if (clean) lines.push('No plaintext ID or passport number in any column; no object unsealed.');
  process.stdout.write(`${lines.join('\n')}\n`);
  return clean ? 0 : 1;
}

try {
  process.exitCode = await main();
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
}
