import type { Env } from '@/config/env';
import { type Database, createDatabase } from '@/platform/db';
import { prepareDatabase } from '@/platform/database-bootstrap';
import { findRunningEmbeddedPostgres, startEmbeddedPostgres } from '@/platform/embedded-postgres';
import { loadOrCreateSecrets } from '@/platform/secrets';

/**
 * Operator commands connect as the schema owner (they act across tenants on purpose, e.g. to
 * find a tenant by name). They use the running server's embedded database when there is one,
 * start it briefly when there is not, or use DATABASE_URL.
 */
export async function openOperatorDatabase(
  env: Env,
): Promise<{ database: Database; close: () => Promise<void> }> {
  const secrets = await loadOrCreateSecrets(env.dataDir);
  let stopEmbedded: (() => Promise<void>) | undefined;
  let ownerUrl =
    env.DATABASE_URL ??
    (await findRunningEmbeddedPostgres(env.dataDir, secrets.databaseSuperuserPassword));
  if (!ownerUrl) {
    const embedded = await startEmbeddedPostgres({
      dataDir: env.dataDir,
      password: secrets.databaseSuperuserPassword,
    });
    ownerUrl = embedded.ownerUrl;
    stopEmbedded = () => embedded.stop();
  }
  await prepareDatabase({
    ownerUrl,
    appUrl: env.DATABASE_APP_URL,
    appPassword: secrets.databaseAppPassword,
  });
  const database = createDatabase({ url: ownerUrl, poolMax: 2 });
  return {
    database,
    close: async () => {
      await database.close();
      await stopEmbedded?.();
    },
  };
}
