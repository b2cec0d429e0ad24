import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { z } from 'zod';

const SecretsSchema = z.object({
  sessionSecret: z.string().min(32),
  databaseSuperuserPassword: z.string().min(16),
  databaseAppPassword: z.string().min(16),
});
export type Secrets = z.infer<typeof SecretsSchema>;

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
    return parsed.data;
  }
  const secrets: Secrets = {
    sessionSecret: generate(),
    databaseSuperuserPassword: generate(),
    databaseAppPassword: generate(),
  };
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
