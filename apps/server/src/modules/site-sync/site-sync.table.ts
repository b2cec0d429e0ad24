import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import type { SiteSyncEventKind } from '@boomgate/contracts/site-sync';

import { sites } from '@/modules/sites/sites.table';
import { tenants } from '@/modules/tenants/tenants.table';

/**
 * Issue 28 (ADR 0009): a site node's credential. The token is shown once; only its SHA-256 is
 * kept. Revoked tokens stay (who had access, when) with `revoked_at` set.
 */
export const siteNodeTokens = pgTable(
  'site_node_tokens',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    id: uuid().notNull(),
    siteId: uuid().notNull(),
    name: text().notNull(),
    tokenHash: text().notNull(),
    createdBy: uuid(),
    createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
    revokedAt: timestamp({ withTimezone: true, precision: 3 }),
    /** The node's last pull or push with this token. */
    lastSyncAt: timestamp({ withTimezone: true, precision: 3 }),
    lastDownSyncAt: timestamp({ withTimezone: true, precision: 3 }),
    lastUpSyncAt: timestamp({ withTimezone: true, precision: 3 }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({ columns: [t.tenantId, t.siteId], foreignColumns: [sites.tenantId, sites.id] }),
    index('site_node_tokens_tenant_site_idx').on(t.tenantId, t.siteId),
    // Not unique: a unique index without tenant_id is refused (tenancy test); 256-bit tokens do not collide.
    index('site_node_tokens_token_hash_idx').on(t.tokenHash),
  ],
);

/**
 * The tenant's Ed25519 key pair that signs the changes pages sent to its site nodes: the public
 * half in the clear (nodes pin it at enrolment), the private half sealed with the master key
 * (platform/crypto.ts, the tenant id as associated data). Made once, at the first node token.
 */
export const siteSyncSigningKeys = pgTable('site_sync_signing_keys', {
  tenantId: uuid()
    .primaryKey()
    .references(() => tenants.id),
  /** SPKI DER, base64. */
  publicKey: text().notNull(),
  /** PKCS#8 DER (base64) sealed by the SecretBox. */
  privateKeySealed: text().notNull(),
  createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
});

/**
 * A deleted row of a synced table (SITE_SYNC_TABLES), written by the delete trigger of the
 * custom migration: the next changes page tells the nodes to delete it.
 */
export const syncTombstones = pgTable(
  'sync_tombstones',
  {
    version: bigint({ mode: 'number' }).notNull(),
    // No foreign key: a deleted tenant's own row leaves a tombstone too.
    tenantId: uuid().notNull(),
    tableName: text().notNull(),
    rowId: text().notNull(),
    /**
     * What central matches a site's fact by, where the key is not enough: an approved vehicle's
     * plate (a site's entry names the plate, not the approval's id). Null for other tables.
     */
    matchKey: text(),
    deletedAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    // The key is the changes page's range read: (tenant_id, version).
    primaryKey({ columns: [t.tenantId, t.version] }),
    index('sync_tombstones_match_idx')
      .on(t.tenantId, t.tableName, t.matchKey)
      .where(sql`match_key is not null`),
  ],
);

/**
 * A fact recorded at a site node and received centrally (up-sync), once: the id is the site's.
 * `stream` is the gate id or 'site' (siteSyncStreamKey); `seq` orders a stream.
 */
export const siteSyncEvents = pgTable(
  'site_sync_events',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    id: uuid().notNull(),
    siteId: uuid().notNull(),
    gateId: uuid(),
    stream: text().notNull(),
    seq: integer().notNull(),
    kind: text().$type<SiteSyncEventKind>().notNull(),
    siteRecordedAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
    centralReceivedAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
    payload: jsonb()
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    /**
     * Applied and flagged: `site_decided_on_stale_data` (ADR 0009 "Conflicts"), or objects the
     * site no longer held when it sent the fact (`objects_missing` in the payload).
     */
    flagged: boolean().notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({ columns: [t.tenantId, t.siteId], foreignColumns: [sites.tenantId, sites.id] }),
    uniqueIndex('site_sync_events_stream_seq_unique').on(t.tenantId, t.siteId, t.stream, t.seq),
  ],
);

/**
 * Issue 28 (ADR 0009, "A duplicate under the stream's next seq"): a fact central already holds
 * (`event_id`, under its own seq) that a node sent again under the stream's next seq, after two
 * restores around a renumbering. The seq counts as used, so the node's later facts follow it
 * instead of meeting a gap for ever; the fact itself is held once, under its first seq.
 */
export const siteSyncSeqAliases = pgTable(
  'site_sync_seq_aliases',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    siteId: uuid().notNull(),
    stream: text().notNull(),
    seq: integer().notNull(),
    eventId: uuid().notNull(),
    recordedAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.siteId, t.stream, t.seq] }),
    foreignKey({ columns: [t.tenantId, t.siteId], foreignColumns: [sites.tenantId, sites.id] }),
    foreignKey({
      columns: [t.tenantId, t.eventId],
      foreignColumns: [siteSyncEvents.tenantId, siteSyncEvents.id],
    }),
  ],
);

export type SiteNodeTokenRow = typeof siteNodeTokens.$inferSelect;
export type SiteSyncEventRow = typeof siteSyncEvents.$inferSelect;

/**
 * Issue 28 (ADR 0009, "Uploads named by nothing"): an object a node uploaded on its own
 * (POST /api/site-sync/objects) before the entry naming it. The entry may never arrive (the node
 * lost it); the daily sweep deletes such an object once `uploaded_at` is older than the grace
 * period and nothing names its key, without ever listing storage. A row is removed once swept,
 * whether its object was named (kept) or not (deleted). Only objects central did not hold before
 * the upload are recorded: one already held is another row's, never the sweep's.
 */
export const siteSyncUploads = pgTable(
  'site_sync_uploads',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    key: text().notNull(),
    siteId: uuid().notNull(),
    uploadedAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.key] }),
    index('site_sync_uploads_uploaded_at_idx').on(t.uploadedAt),
  ],
);
