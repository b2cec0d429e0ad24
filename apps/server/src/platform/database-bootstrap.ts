import { fileURLToPath } from 'node:url';

import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

import { prepareJobQueue } from './jobs';

export const APP_ROLE = 'boomgate_app';
export const AUTH_ROLE = 'boomgate_auth';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations', import.meta.url));

// Any constant works; it only has to be the same for every Boomgate process.
const MIGRATION_LOCK_KEY = 7_260_431_552;

/**
 * Runs as the schema owner: creates the two roles the schema refers to, applies pending
 * migrations under an advisory lock (two processes starting together migrate once), and sets the
 * API role's password when we manage it. Returns the URL the API connects with.
 */
export async function prepareDatabase({
  ownerUrl,
  appPassword,
  appUrl,
}: {
  ownerUrl: string;
  /** Set the API role's password (embedded and single-server setups). */
  appPassword?: string;
  /** Or: the operator created the API login and gives us its URL. */
  appUrl?: string;
}): Promise<{ appUrl: string }> {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    await assertDurableCommits(client);
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await ensureRoles(client, appUrl ? undefined : appPassword);
    await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS_DIR });
    await prepareJobQueue(ownerUrl, APP_ROLE);
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
  } finally {
    await client.end();
  }
  if (appUrl) return { appUrl };
  if (!appPassword) throw new Error('Either DATABASE_APP_URL or a managed app password is needed');
  const url = new URL(ownerUrl);
  url.username = APP_ROLE;
  url.password = appPassword;
  return { appUrl: url.toString() };
}

/**
 * REL-02: an acknowledged write must survive a database crash. With any of these off PostgreSQL
 * may lose (or corrupt) recently committed transactions, so the app refuses to start.
 */
export async function assertDurableCommits(client: pg.Client) {
  const { rows } = await client.query<{ name: string; setting: string }>(
    `select name, setting from pg_settings
     where name in ('fsync', 'synchronous_commit', 'full_page_writes')`,
  );
  const unsafe = rows.filter((row) => row.setting === 'off').map((row) => row.name);
  if (unsafe.length > 0) {
    throw new Error(
      `PostgreSQL has ${unsafe.join(', ')} off: committed writes could be lost in a crash. ` +
        'Turn them on (the default) before starting Boomgate.',
    );
  }
}

async function ensureRoles(client: pg.Client, appPassword: string | undefined) {
  await client.query(`
    do $$ begin
      if not exists (select 1 from pg_roles where rolname = '${APP_ROLE}') then
        create role ${APP_ROLE} login nosuperuser nobypassrls nocreatedb nocreaterole noinherit;
      end if;
      if not exists (select 1 from pg_roles where rolname = '${AUTH_ROLE}') then
        create role ${AUTH_ROLE} nologin nosuperuser nobypassrls nocreatedb nocreaterole;
      end if;
    end $$`);
  if (appPassword) {
    // ALTER ROLE takes no bind parameters; escapeLiteral quotes the generated secret safely.
    await client.query(`alter role ${APP_ROLE} with password ${client.escapeLiteral(appPassword)}`);
  }
}
