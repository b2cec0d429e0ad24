import { sql } from 'drizzle-orm';

import type { SealedTable } from '@/modules/keys';
import type { Database } from '@/platform/db';

import type { PayloadKeyring } from './site-payload-reseal';
import { payloadSealedTable } from './site-payload-table';

/** A stored payload holding at least one sealed value (`sv1.…`), as its JSON text shows it. */
const HOLDS_SEALED = sql.raw(`payload::text like '%"sv1.%'`);

/**
 * Issue 28 (ADR 0009, "Central's stored facts re-sealed"): central's copies of the facts sites
 * sent (`site_sync_events`) as a sealed table of the keys service, so central's re-seal job walks
 * them with its other tables after a rotation: the sealed values of each stored payload (the
 * row's and its documents' rows') are opened with the key they name and sealed again with the
 * active one, under the same associated data. Objects are digests there (their bytes are in
 * storage, which the job walks on its own) and audit facts are under the audit key: both stay.
 * Only `payload` changes (the stored fact's id, site, stream, seq and kind never do), and the
 * payload hash central compares a resent fact by leaves ciphertexts out (`sitePayloadHash`), so
 * a fact sent again is still a duplicate. A value under a key no longer held is left as it is.
 */
export const siteEventsSealedTable = (
  database: Pick<Database, 'withTenant'>,
  keyring: PayloadKeyring,
): SealedTable =>
  payloadSealedTable(database, keyring, {
    table: 'site_sync_events',
    walked: sql`kind <> 'audit' and ${HOLDS_SEALED}`,
  });
