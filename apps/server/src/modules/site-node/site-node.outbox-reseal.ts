import { sql } from 'drizzle-orm';

import type { SealedTable } from '@/modules/keys';
import { type PayloadKeyring as OutboxKeys, payloadSealedTable } from '@/modules/site-sync';
import type { Database } from '@/platform/db';

/**
 * Issue 28: the node's outbox as a sealed table of the keys service, so keys.reseal-node walks
 * it with the others and checks it before it erases a retired key. Only facts central has not
 * acknowledged are walked: they are the ones still to be sent, and central may have erased the
 * old key by the time they arrive. A fact's id, stream, seq and kind never change; its payload is
 * re-written with the same values sealed again (central compares a resent fact's payload with
 * what it holds ignoring ciphertexts, see site-sync's `sitePayloadHash`). Acknowledged facts
 * stay as recorded. Nothing is sealed for the first time here (sealStored has nothing to do).
 */
export const outboxSealedTable = (
  database: Pick<Database, 'withTenant'>,
  keyring: OutboxKeys,
): SealedTable =>
  payloadSealedTable(database, keyring, {
    table: 'site_outbox',
    walked: sql`acknowledged_at is null`,
    // Only while still unacknowledged: an acknowledgement in between keeps the fact as sent.
    stillWalked: sql`and acknowledged_at is null`,
  });
