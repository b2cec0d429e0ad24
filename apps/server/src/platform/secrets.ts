import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

import lockfile from 'proper-lockfile';
import { z } from 'zod';

const SecretsSchema = z.object({
  sessionSecret: z.string().min(32),
  databaseSuperuserPassword: z.string().min(16),
  databaseAppPassword: z.string().min(16),
  /** AES-256-GCM key for secrets stored in the database; added to older files on first need. */
  dataEncryptionKey: z.string().min(43).optional(),
});
export type Secrets = z.infer<typeof SecretsSchema> & { dataEncryptionKey: string };

const generate = () => randomBytes(32).toString('base64url');

/**
 * Secrets the app needs but nobody configured: generated on first start and kept in the data
 * folder (mode 0600), so `npm start` works with no variables and restarts keep sessions valid.
 */
export async function loadOrCreateSecrets(dataDir: string): Promise<Secrets> {
  const file = path.join(dataDir, 'secrets.json');
  let existing: string | undefined;
  try {
    existing = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (existing !== undefined) {
    // Never regenerate over a damaged file: the database password in it would be lost.
    const parsed = SecretsSchema.safeParse(JSON.parse(existing));
    if (!parsed.success) throw new Error(`${file} is damaged; restore it from a backup.`);
    const { dataEncryptionKey } = parsed.data;
    if (dataEncryptionKey) return { ...parsed.data, dataEncryptionKey };
    return addEncryptionKey(file);
  }
  const secrets: Secrets = {
    sessionSecret: generate(),
    databaseSuperuserPassword: generate(),
    databaseAppPassword: generate(),
    dataEncryptionKey: generate(),
  };
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

/**
 * A file written before the encryption key existed gets one added, keeping every other value.
 * Under a lock and re-read inside it: two processes starting together must agree on one key.
 */
async function addEncryptionKey(file: string): Promise<Secrets> {
  const release = await lockfile.lock(file, { retries: { retries: 20, minTimeout: 50 } });
  try {
    const parsed = SecretsSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    if (!parsed.success) throw new Error(`${file} is damaged; restore it from a backup.`);
    const secrets = {
      ...parsed.data,
      dataEncryptionKey: parsed.data.dataEncryptionKey ?? generate(),
    };
    if (!parsed.data.dataEncryptionKey) {
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, JSON.stringify(secrets, null, 2), { mode: 0o600 });
      await rename(temporary, file);
    }
    return secrets;
  } finally {
    await release();
  }
}
