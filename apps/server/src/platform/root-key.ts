import pg from 'pg';

import { decodeEncryptionKey } from './crypto';
import { masterKeyId, unwrapKey, wrapKey } from './sealing';

const CONTEXT = 'boomgate:platform:root';

/**
 * Issue 26: the platform's root key, unwrapped at start-up through the schema owner's connection.
 * The integration secrets' box and every key derived for one purpose (MFA recovery codes,
 * override PINs, VAPID key pairs, driver and data-subject references) use it instead of
 * ENCRYPTION_KEY itself, so a master-key rotation changes none of them: only the wrapping does.
 *
 * The first start wraps the current ENCRYPTION_KEY's own bytes as the root: whatever was sealed
 * or hashed before keeps opening and matching. A start with a new ENCRYPTION_KEY finds the root
 * wrapped by a key named in ENCRYPTION_KEY_PREVIOUS, unwraps it with that and re-wraps it under
 * the new master at once; from then on the old master is no longer needed.
 */
export async function loadRootKey({
  ownerUrl,
  master,
  previousMasters = [],
}: {
  ownerUrl: string;
  master: Buffer;
  previousMasters?: readonly Buffer[];
}): Promise<Buffer> {
  const currentId = masterKeyId(master);
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    await client.query('begin');
    // First start: the current master's bytes become the root (two processes: one insert wins).
    await client.query(
      `insert into platform_keys (purpose, wrapped_key, master_key_id) values ('root', $1, $2)
       on conflict (purpose) do nothing`,
      [wrapKey(master, master, CONTEXT), currentId],
    );
    const { rows } = await client.query<{ wrapped_key: string; master_key_id: string }>(
      `select wrapped_key, master_key_id from platform_keys where purpose = 'root' for update`,
    );
    const row = rows[0];
    if (!row) throw new Error('platform_keys has no root key');
    if (row.master_key_id === currentId) {
      await client.query('commit');
      return unwrapKey(master, row.wrapped_key, CONTEXT);
    }
    const previous = previousMasters.find((key) => masterKeyId(key) === row.master_key_id);
    if (!previous)
      throw new Error(
        'The platform root key was wrapped by a master key this server does not have: set ENCRYPTION_KEY_PREVIOUS to the ENCRYPTION_KEY it replaced',
      );
    const root = unwrapKey(previous, row.wrapped_key, CONTEXT);
    await client.query(
      `update platform_keys set wrapped_key = $1, master_key_id = $2, rewrapped_at = now()
        where purpose = 'root'`,
      [wrapKey(master, root, CONTEXT), currentId],
    );
    await client.query('commit');
    return root;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

/** ENCRYPTION_KEY_PREVIOUS: comma-separated master keys a rotation replaced. */
export const previousMastersOf = (text: string | undefined): Buffer[] =>
  (text ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map(decodeEncryptionKey);
