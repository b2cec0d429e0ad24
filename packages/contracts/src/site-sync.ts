import { z } from 'zod';

import { IdSchema, TimestampSchema } from './primitives';

/**
 * Issue 28 (ADR 0009): the wire contract between a central instance and a site node. Both sides
 * parse with these schemas, so a change here is a change to both. The site node authenticates with
 * a site token (`Authorization: Bearer <token>`), never with a user session.
 */

/** A site node pulls master data this often while the link is up (Genetec units sync about every 15 s). */
export const SITE_SYNC_PULL_INTERVAL_MS = 15_000;
/** Either direction older than this and every screen says the site decides alone. */
export const SITE_SYNC_STALE_AFTER_MS = 60_000;
export const SITE_SYNC_PAGE_LIMIT_DEFAULT = 500;
export const SITE_SYNC_PAGE_LIMIT_MAX = 2_000;
export const SITE_SYNC_EVENTS_BATCH_MAX = 500;
/**
 * `POST /api/site-sync/events` takes bodies up to this (a capture carries its sealed object,
 * base64); a node fills a batch up to SITE_SYNC_EVENTS_BATCH_BYTES, or sends one fact alone.
 */
export const SITE_SYNC_EVENTS_BODY_LIMIT_BYTES = 32 * 1024 * 1024;
export const SITE_SYNC_EVENTS_BATCH_BYTES = 8 * 1024 * 1024;
/** One stored object (a capture's or an entry's image, sealed) is at most this much base64. */
export const SITE_SYNC_OBJECT_MAX_BASE64 = 20 * 1024 * 1024;
/** `POST /api/site-sync/objects` takes bodies up to this: one object with its key. */
export const SITE_SYNC_OBJECT_BODY_LIMIT_BYTES = SITE_SYNC_OBJECT_MAX_BASE64 + 64 * 1024;

// ---- Site tokens (central, tenant_admin) ----

/** `POST /api/sites/{id}/node-tokens` body. */
export const CreateSiteNodeTokenSchema = z.object({
  name: z.string().trim().min(1, 'Name is required').max(100),
});
export type CreateSiteNodeToken = z.infer<typeof CreateSiteNodeTokenSchema>;

export const SiteNodeTokenSchema = z.object({
  id: IdSchema,
  siteId: IdSchema,
  name: z.string(),
  createdAt: TimestampSchema,
  revokedAt: TimestampSchema.nullable(),
  /** When the node last pulled or pushed with this token; null before its first sync. */
  lastSyncAt: TimestampSchema.nullable(),
  /**
   * Central's verdict: the node has synced before but not within SITE_SYNC_STALE_AFTER_MS (central's
   * setting; 60 s, four missed pulls), so it is deciding alone. False before the first sync and
   * once revoked.
   */
  stale: z.boolean(),
});
export type SiteNodeToken = z.infer<typeof SiteNodeTokenSchema>;

/** The answer to the create: the token in clear exactly once, and what the node pins at enrolment. */
export const CreatedSiteNodeTokenSchema = SiteNodeTokenSchema.extend({
  token: z.string(),
  /** Central's Ed25519 public key (SPKI, base64) that signs every changes page. */
  centralPublicKey: z.string(),
});
export type CreatedSiteNodeToken = z.infer<typeof CreatedSiteNodeTokenSchema>;

// ---- Down-sync: GET /api/site-sync/changes?since=<version>&limit=<n> ----

/** Master-data tables a site decides from (ADR 0009 "Down-sync"). */
export const SITE_SYNC_TABLES = [
  'tenants',
  'sites',
  'gates',
  'users',
  'user_sites',
  'mfa_totp',
  'mfa_passkeys',
  'approved_vehicles',
  'drivers',
  'induction_assignments',
  'watchlist_entries',
  'document_rule_settings',
  'override_pin_settings',
] as const;
export const SiteSyncTableSchema = z.enum(SITE_SYNC_TABLES);
export type SiteSyncTable = z.infer<typeof SiteSyncTableSchema>;

export const SiteSyncChangesQuerySchema = z.object({
  since: z.coerce.number().int().min(0).default(0),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(SITE_SYNC_PAGE_LIMIT_MAX)
    .default(SITE_SYNC_PAGE_LIMIT_DEFAULT),
});
export type SiteSyncChangesQuery = z.infer<typeof SiteSyncChangesQuerySchema>;

/** One changed row: an upsert (`row` present) or a tombstone (`deleted: true`, `row` null). */
export const SiteSyncChangeSchema = z.object({
  version: z.number().int().min(1),
  table: SiteSyncTableSchema,
  id: z.string().min(1),
  deleted: z.boolean(),
  /** The row as central stores it (snake_case columns → values); sealed columns stay sealed. */
  row: z.record(z.string(), z.unknown()).nullable(),
});
export type SiteSyncChange = z.infer<typeof SiteSyncChangeSchema>;

export const SiteSyncChangesPageSchema = z.object({
  tenantId: IdSchema,
  siteId: IdSchema,
  since: z.number().int().min(0),
  /**
   * The node's next `since`: the last version in `changes` when the page is full (`limit`
   * changes; more may follow), else `highWater` (every change up to it for this site is in the
   * page, so `since` moves on even past versions of other tenants and sites).
   */
  nextSince: z.number().int().min(0),
  /**
   * Central's highest version whose every change has committed (later versions may still be in
   * open transactions); `nextSince < highWater` means more pages follow.
   */
  highWater: z.number().int().min(0),
  changes: z.array(SiteSyncChangeSchema),
  generatedAt: TimestampSchema,
  /** Ed25519 over the canonical JSON of this object without `signature` (keys sorted). */
  signature: z.string(),
});
export type SiteSyncChangesPage = z.infer<typeof SiteSyncChangesPageSchema>;

// ---- Up-sync: POST /api/site-sync/events ----

export const SITE_SYNC_EVENT_KINDS = [
  'entry',
  'exit',
  'capture',
  'face_comparison',
  'correction',
  'audit',
] as const;
export const SiteSyncEventKindSchema = z.enum(SITE_SYNC_EVENT_KINDS);
export type SiteSyncEventKind = z.infer<typeof SiteSyncEventKindSchema>;

export const SiteSyncEventSchema = z.object({
  /** UUIDv7 assigned at the site: central's primary key for the fact (exactly once). */
  id: z.uuid(),
  /** Facts are ordered per gate; a site-wide fact (an audit event) uses the null gate's stream. */
  gateId: IdSchema.nullable(),
  seq: z.number().int().min(1),
  kind: SiteSyncEventKindSchema,
  siteRecordedAt: TimestampSchema,
  payload: z.record(z.string(), z.unknown()),
});
export type SiteSyncEvent = z.infer<typeof SiteSyncEventSchema>;

export const SiteSyncEventsBatchSchema = z.object({
  events: z.array(SiteSyncEventSchema).min(1).max(SITE_SYNC_EVENTS_BATCH_MAX),
});
export type SiteSyncEventsBatch = z.infer<typeof SiteSyncEventsBatchSchema>;

// ---- Up-sync: POST /api/site-sync/objects ----

/**
 * One object an entry names, sent on its own before the entry's fact when the entry with its
 * objects inline would not fit a batch (ADR 0009): the stored object as it is at the site (sealed
 * with the tenant's data key), base64, under its storage key. The entry then lists the key in
 * `objects_uploaded` instead of carrying the bytes, so a fact's size is bounded by its rows.
 */
export const SiteSyncObjectSchema = z.object({
  key: z.string().min(1).max(200),
  object: z
    .string()
    .min(1)
    .max(SITE_SYNC_OBJECT_MAX_BASE64)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64'),
});
export type SiteSyncObject = z.infer<typeof SiteSyncObjectSchema>;

/** `stored` false: central already held an object under that key and kept it (idempotent). */
export const SiteSyncObjectStoredSchema = z.object({ key: z.string(), stored: z.boolean() });
export type SiteSyncObjectStored = z.infer<typeof SiteSyncObjectStoredSchema>;

export const SiteSyncAckSchema = z.object({
  /** Per gate stream (`null` gate as the key "site"), the highest contiguous seq central holds. */
  acknowledged: z.record(z.string(), z.number().int().min(0)),
  /** Ids central already held before this batch (resent after a lost answer): not applied twice. */
  duplicates: z.array(z.uuid()),
  /**
   * A duplicate sent under another seq than the one central holds it under (a node restored
   * twice around a renumbering, ADR 0009): its id and central's seq; absent when there is none.
   * Sent under the stream's next seq, it takes that seq too (an alias central records), so the
   * stream moves on past it.
   */
  duplicatesHeldAs: z.record(z.uuid(), z.number().int().min(1)).optional(),
  /** Ids applied and flagged `site_decided_on_stale_data`. */
  flagged: z.array(z.uuid()),
});
export type SiteSyncAck = z.infer<typeof SiteSyncAckSchema>;

/**
 * `GET /api/site-sync/acknowledged` (site token): the highest seq central holds for every stream of
 * the token's site (streams it holds nothing of are absent: 0). A node asks at start and after a
 * 409 on `POST /api/site-sync/events`, and moves its own sequences past these, so a node restored
 * from an old backup never gives out a seq central already holds under another fact (ADR 0009).
 */
export const SiteSyncAcknowledgedSchema = z.object({
  acknowledged: z.record(z.string(), z.number().int().min(0)),
});
export type SiteSyncAcknowledged = z.infer<typeof SiteSyncAcknowledgedSchema>;

/**
 * A 409 on `POST /api/site-sync/events` names, besides each stream's held seq
 * (`acknowledged.<stream>`), every fact of the batch whose seq central already holds under
 * another id as an issue `{ path: "reused.<stream>", message: "<the fact's id>" }`: central never
 * overwrites a held fact; the node renumbers that fact and the ones after it past central's seq.
 */
export const SITE_SYNC_REUSED_ISSUE_PREFIX = 'reused.';

/** The stream key of a gate in `acknowledged`. */
export function siteSyncStreamKey(gateId: string | null): string {
  return gateId ?? 'site';
}

/** `GET /api/site-sync/status` on either side: what the banner and the Sites screen show. */
export const SiteSyncStatusSchema = z.object({
  mode: z.enum(['central', 'site_node']),
  lastDownSyncAt: TimestampSchema.nullable(),
  lastUpSyncAt: TimestampSchema.nullable(),
  /** Site node: the oldest fact not yet acknowledged by central; null when all are. */
  oldestUnacknowledgedAt: TimestampSchema.nullable(),
  /** True when either direction is older than SITE_SYNC_STALE_AFTER_MS (site node only). */
  offline: z.boolean(),
});
export type SiteSyncStatus = z.infer<typeof SiteSyncStatusSchema>;

// ---- The tenant's keys for the node: POST /api/site-sync/keys ----

/** A tenant key purpose (issue 26): `data` seals rows and objects, `index` hashes, `audit` the trail. */
export const SiteSyncKeyPurposeSchema = z.enum(['data', 'index', 'audit']);

/**
 * The node's request: its X25519 public key (SPKI DER, base64; derived from the node's own
 * ENCRYPTION_KEY, so it never changes while that does not) and the keys it already holds as
 * `purpose:version:state` (central audits a delivery only when that differs from what it sends).
 */
export const SiteSyncKeysRequestSchema = z.object({
  nodePublicKey: z.string().min(40).max(200),
  have: z.array(z.string().max(40)).max(200).default([]),
});
export type SiteSyncKeysRequest = z.infer<typeof SiteSyncKeysRequestSchema>;

export const SiteSyncWrappedKeySchema = z.object({
  purpose: SiteSyncKeyPurposeSchema,
  version: z.number().int().min(1),
  state: z.enum(['active', 'retiring']),
  /** AES-256-GCM under the key agreed for this answer (`<iv>.<tag>.<ciphertext>`), never in clear. */
  wrappedKey: z.string(),
});
export type SiteSyncWrappedKey = z.infer<typeof SiteSyncWrappedKeySchema>;

/**
 * The tenant's live keys (active and retiring) wrapped for the node: X25519 between a fresh
 * ephemeral key of central (`ephemeralPublicKey`, SPKI DER base64) and `nodePublicKey`, then
 * HKDF-SHA256 (ADR 0009 "The tenant's keys at the node").
 */
export const SiteSyncKeysSchema = z.object({
  tenantId: IdSchema,
  ephemeralPublicKey: z.string(),
  keys: z.array(SiteSyncWrappedKeySchema),
});
export type SiteSyncKeys = z.infer<typeof SiteSyncKeysSchema>;
