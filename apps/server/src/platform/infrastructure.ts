import type { Env } from '@/config/env';

import { decodeEncryptionKey } from './crypto';
import { type Database, createDatabase } from './db';
import { prepareDatabase } from './database-bootstrap';
import { startEmbeddedPostgres } from './embedded-postgres';
import { previousMastersOf, loadRootKey } from './root-key';
import { loadOrCreateSecrets } from './secrets';

export type StartedInfrastructure = {
  database: Database;
  sessionSecret: string;
  /** The master key (ENCRYPTION_KEY): wraps tenant keys and the root key. */
  encryptionKey: Buffer;
  /** The platform root key (platform/root-key.ts): secrets in the database, derived keys. */
  rootKey: Buffer;
  /** The schema owner's URL: the job queue's own connection (platform/jobs.ts). */
  ownerUrl: string;
  databaseLabel: string;
  stop(): Promise<void>;
};

/**
 * The database the app runs on: the one named by DATABASE_URL, else PostgreSQL embedded from npm
 * with its data in DATA_DIR. Either way migrations run as the owner and the API connects as the
 * restricted role boomgate_app.
 */
export async function startInfrastructure(
  env: Env,
  log: (message: string) => void,
): Promise<StartedInfrastructure> {
  const secrets = await loadOrCreateSecrets(env.dataDir);
  const embedded = env.DATABASE_URL
    ? undefined
    : await startEmbeddedPostgres({
        dataDir: env.dataDir,
        password: secrets.databaseSuperuserPassword,
        port: env.EMBEDDED_PG_PORT,
      });
  try {
    const ownerUrl = env.DATABASE_URL ?? embedded?.ownerUrl;
    if (!ownerUrl) throw new Error('No database configured');
    const { appUrl } = await prepareDatabase({
      ownerUrl,
      appUrl: env.DATABASE_APP_URL,
      appPassword: secrets.databaseAppPassword,
    });
    const encryptionKey = decodeEncryptionKey(env.ENCRYPTION_KEY ?? secrets.dataEncryptionKey);
    const rootKey = await loadRootKey({
      ownerUrl,
      master: encryptionKey,
      previousMasters: previousMastersOf(env.ENCRYPTION_KEY_PREVIOUS),
    });
    const database = createDatabase({
      url: appUrl,
      poolMax: env.DATABASE_POOL_MAX,
      poolMin: env.DATABASE_POOL_MIN,
      onPoolError: (error) => log(`database connection lost: ${error.message}`),
    });
    return {
      database,
      sessionSecret: env.SESSION_SECRET ?? secrets.sessionSecret,
      encryptionKey,
      rootKey,
      ownerUrl,
      databaseLabel: embedded
        ? `embedded PostgreSQL on 127.0.0.1:${embedded.port}`
        : 'external PostgreSQL',
      async stop() {
        await database.close();
        await embedded?.stop();
      },
    };
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
}
