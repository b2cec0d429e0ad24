import { sql } from 'drizzle-orm';
import {
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import type { IncomingRuleEvidence } from '@boomgate/contracts/webhooks';

import { sites } from '@/modules/sites/sites.table';
import { tenants } from '@/modules/tenants/tenants.table';

import type { CitedTrailerDisc } from './incoming-trailers';

/**
 * One per tenant: the integration secret (encrypted, platform/crypto.ts) that signs inbound posts
 * and outbound callbacks, the previous secret during a rotation window, and the callback URL.
 */
export const webhookIntegrations = pgTable('webhook_integrations', {
  tenantId: uuid()
    .primaryKey()
    .references(() => tenants.id),
  secretCiphertext: text(),
  secretCreatedAt: timestamp({ withTimezone: true }),
  previousSecretCiphertext: text(),
  previousSecretExpiresAt: timestamp({ withTimezone: true }),
  callbackUrl: text(),
  /** Set when the receiver answered 410 Gone: no more callbacks until the URL is saved again. */
  callbackDisabledAt: timestamp({ withTimezone: true }),
  callbackDisabledReason: text(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** Vehicle entries posted by external systems (the incoming feed), completed at the office. */
export const incomingRequests = pgTable(
  'incoming_requests',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    id: uuid().notNull(),
    /** The sender's `webhook-id`: a redelivery of the same message is stored once. */
    webhookId: text().notNull(),
    receivedAt: timestamp({ withTimezone: true }).notNull(),
    // Milliseconds, as JavaScript holds them: a page cursor made from a row's timestamp must
    // compare equal to it, or rows within the same millisecond would be skipped.
    timestamp: timestamp({ withTimezone: true, precision: 3 }).notNull(),
    plateNumber: text(),
    driverName: text(),
    driverSurname: text(),
    /** Issue 26: sealed (`sv1.…`), its keyed hash beside it (a data subject's entries). */
    driverIdNumber: text(),
    driverIdNumberHash: text(),
    driverPhone1: text(),
    transportName: text(),
    referenceNumber: text(),
    weighbridgeTicketId: text(),
    extractedDiskData: text(),
    driverLicenseNumber: text(),
    driverLicenseValidTo: text(),
    driverDateOfBirth: text(),
    driverSex: text(),
    completedAt: timestamp({ withTimezone: true }),
    completedBy: uuid(),
    /** Issue 16: the site the entry is for (the tenant's default site: senders name none yet). */
    siteId: uuid(),
    /** Issue 21: the trailers' plates the completion named (a rig), in order. */
    trailerPlates: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Issue 21: the trailers' licence discs the completion cited (documents' licence_discs ids). */
    trailerLicenceDiscIds: uuid()
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    /** Issue 21: the warnings the completion was accepted with ({code, message}), in order. */
    warnings: jsonb()
      .$type<{ code: string; message: string }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /**
     * Issue 21: the documents the completion's document rules judged: a dialog capture's stored
     * reading (its capture id) or, where none was read, the stated details (`source: 'stated'`).
     */
    ruleEvidence: jsonb()
      .$type<IncomingRuleEvidence[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('incoming_requests_one_per_webhook_id').on(t.tenantId, t.webhookId),
    // Ascending, read backwards: a DESC NULLS LAST index cannot serve ORDER BY … DESC. The id
    // makes the (timestamp, id) keyset of the paged feed one index range.
    index('incoming_requests_tenant_timestamp_idx').on(t.tenantId, t.timestamp, t.id),
    // The feed filtered to a site (`siteId`, a guard's sites).
    index('incoming_requests_site_timestamp_idx').on(t.tenantId, t.siteId, t.timestamp, t.id),
    foreignKey({ columns: [t.tenantId, t.siteId], foreignColumns: [sites.tenantId, sites.id] }),
    index('incoming_requests_tenant_id_number_hash_idx')
      .on(t.tenantId, t.driverIdNumberHash)
      .where(sql`driver_id_number_hash is not null`),
    // Issue 26: rows stored before sealing (keys.seal-stored-data's lookup; empty once sealed).
    index('incoming_requests_unsealed_idx')
      .on(t.tenantId)
      .where(
        sql`driver_id_number is not null and (driver_id_number_hash is null or driver_id_number not like 'sv1.%')`,
      ),
  ],
);

/**
 * The Incoming Feed's cards (total, processed), kept per tenant and site day of the entry's
 * timestamp by statement-level triggers on incoming_requests (migration 0019), so a poll reads a
 * few hundred day rows. "Processed" is spec §2's rule: driver name and ID number both present.
 */
export const incomingRequestDailyCounts = pgTable(
  'incoming_request_daily_counts',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    day: date({ mode: 'string' }).notNull(),
    total: integer().notNull().default(0),
    complete: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day] })],
);

export const webhookDeliveryStatus = pgEnum('webhook_delivery_status', [
  'pending',
  'delivered',
  'failed',
]);

/**
 * The outbox: one row per callback, written in the transaction that caused it. The worker claims
 * a due row with a lease (locked_until), sends it, and records the outcome and the next attempt.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    id: uuid().notNull(),
    /** The `webhook-id` header: the same on every attempt and replay. */
    webhookId: text().notNull(),
    eventType: text().notNull(),
    /** The exact bytes sent on every attempt (so each retry is byte-identical). */
    body: text().notNull(),
    incomingRequestId: uuid(),
    status: webhookDeliveryStatus().notNull().default('pending'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull(),
    lockedUntil: timestamp({ withTimezone: true }),
    lastAttemptAt: timestamp({ withTimezone: true }),
    lastResponseStatus: integer(),
    lastError: text(),
    deliveredAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({
      columns: [t.tenantId, t.incomingRequestId],
      foreignColumns: [incomingRequests.tenantId, incomingRequests.id],
      name: 'webhook_deliveries_incoming_request_fk',
    }),
    index('webhook_deliveries_tenant_created_idx').on(t.tenantId, t.createdAt),
    index('webhook_deliveries_tenant_incoming_request_idx').on(t.tenantId, t.incomingRequestId),
    // The sweeper's cross-tenant scan (webhooks_due_deliveries): only pending rows, by due time.
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
  ],
);

export type WebhookIntegrationRow = typeof webhookIntegrations.$inferSelect;
export type IncomingRequestRow = typeof incomingRequests.$inferSelect;
/** What the feed lists and the API answers for an incoming entry. */
export type IncomingRequestListRow = Pick<
  IncomingRequestRow,
  | 'id'
  | 'timestamp'
  | 'plateNumber'
  | 'driverName'
  | 'driverSurname'
  | 'driverIdNumber'
  | 'driverPhone1'
  | 'transportName'
  | 'referenceNumber'
  | 'weighbridgeTicketId'
  | 'extractedDiskData'
  | 'completedAt'
  | 'trailerPlates'
  | 'trailerLicenceDiscIds'
  | 'warnings'
  | 'ruleEvidence'
> & {
  /** Issue 15: the gate entry the processed request led to (list only). */
  entryLogId?: string | null;
  /** Issue 21: the trailer discs the completion cited, as read (list only). */
  trailerDiscs?: CitedTrailerDisc[];
};
export type NewIncomingRequestRow = typeof incomingRequests.$inferInsert;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type NewWebhookDeliveryRow = typeof webhookDeliveries.$inferInsert;
