import { sql } from 'drizzle-orm';
import {
  bigint,
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

import { tenants } from '@/modules/tenants/tenants.table';

/**
 * Issue 28 (ADR 0009): a site node's sync cursor, one row (the node serves one site of one
 * tenant). `since_version` is the central version the node has applied up to; it moves only in
 * the transaction that applied the page, so a page is applied whole or not at all. No personal
 * data: readable before the node knows its tenant (a start-up reads it to resume).
 */
export const siteNodeState = pgTable('site_node_state', {
  // No foreign key: the cursor is stored with the first page, which need not carry the tenant's row.
  tenantId: uuid().primaryKey(),
  siteId: uuid().notNull(),
  sinceVersion: bigint({ mode: 'number' }).notNull().default(0),
  /** Central's highest version at the last pull (`since_version < high_water`: more to fetch). */
  highWater: bigint({ mode: 'number' }).notNull().default(0),
  lastDownSyncAt: timestamp({ withTimezone: true, precision: 3 }),
  lastUpSyncAt: timestamp({ withTimezone: true, precision: 3 }),
  /** The last failure of either direction (for the operator), cleared by the next success. */
  lastError: text(),
  lastErrorAt: timestamp({ withTimezone: true, precision: 3 }),
});

export type SiteNodeStateRow = typeof siteNodeState.$inferSelect;

/**
 * Issue 28: facts recorded at the site, written in the same transaction as the row they describe
 * (an entry, an exit) and pushed to central in (stream, seq) order. Append-only: a row is never
 * deleted or rewritten; central's acknowledgement only sets `acknowledged_at`.
 */
export const siteOutbox = pgTable(
  'site_outbox',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    /** UUIDv7 assigned here: central's primary key for the fact (applied exactly once). */
    id: uuid().notNull(),
    gateId: uuid(),
    /** The gate's id, or "site" for a fact of no gate (siteSyncStreamKey). */
    stream: text().notNull(),
    seq: integer().notNull(),
    kind: text().notNull(),
    siteRecordedAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    acknowledgedAt: timestamp({ withTimezone: true, precision: 3 }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('site_outbox_stream_seq').on(t.tenantId, t.stream, t.seq),
    // What the push worker reads: the unacknowledged facts in order.
    index('site_outbox_pending_idx')
      .on(t.tenantId, t.stream, t.seq)
      .where(sql`acknowledged_at is null`),
  ],
);

export type SiteOutboxRow = typeof siteOutbox.$inferSelect;

/**
 * Issue 28: the last seq given out per stream. Taking the next one updates this row, whose lock
 * is held until the fact's transaction ends: facts of one gate commit in seq order, so the push
 * worker never sees seq n+1 before n, and a rolled-back fact gives its seq back.
 */
export const siteOutboxStreams = pgTable(
  'site_outbox_streams',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    stream: text().notNull(),
    lastSeq: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.stream] })],
);
