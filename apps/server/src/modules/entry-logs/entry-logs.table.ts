import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import type { EntryWarning } from '@boomgate/contracts/entry-checks';

import {
  driversLicences,
  identityDocuments,
  licenceDiscs,
  passports,
  weighbridgeTickets,
} from '@/modules/documents/documents.table';
import { gates, sites } from '@/modules/sites/sites.table';
import { tenants } from '@/modules/tenants/tenants.table';

export const entryCategory = pgEnum('entry_category', ['visitor', 'contracted']);

/** One vehicle's entry through the gate: what was checked, what was decided and by whom. */
export const entryLogs = pgTable(
  'entry_logs',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    id: uuid().notNull(),
    // Milliseconds, as JavaScript holds them: a page cursor made from a row's timestamp must
    // compare equal to it, or rows within the same millisecond would be skipped.
    timestamp: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
    category: entryCategory().notNull().default('visitor'),
    plateNumber: text().notNull(),
    extractedPlate: text(),
    vehicleApproved: boolean().notNull(),
    faceVerified: boolean().notNull(),
    entryGranted: boolean().notNull(),
    matchScore: real(),
    /** Why the attempt did not end in an entry (RefusalReason); null when granted. */
    refusalReason: text(),
    driverName: text(),
    driverSurname: text(),
    /** Issue 26: sealed (`sv1.…`); equality by driverIdNumberHash, the keyed hash beside it. */
    driverIdNumber: text(),
    driverIdNumberHash: text(),
    driverPhone1: text(),
    driverPhone2: text(),
    driverPhone3: text(),
    /** Issue 26: sealed (`sv1.…`); equality by driverPassportNumberHash. */
    driverPassportNumber: text(),
    driverPassportNumberHash: text(),
    transportName: text(),
    vehicleLicenceDiscId: uuid(),
    identityDocumentId: uuid(),
    driversLicenceId: uuid(),
    passportRecordId: uuid(),
    weighbridgeTicketId: uuid(),
    plateImageKey: text(),
    vehicleDiskImageKey: text(),
    driverFaceImageKey: text(),
    driverLicenseImageKey: text(),
    passportImageKey: text(),
    permitImageKeys: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The server's checks of the entry (EntryWarning[]), validated by the contract when read. */
    warnings: jsonb()
      .$type<EntryWarning[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** Issue 21: the trailers' plates presented with the truck-tractor (a rig), in order. */
    trailerPlates: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Issue 21: the trailers' licence discs the entry cited (documents' licence_discs ids). */
    trailerLicenceDiscIds: uuid()
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    recordedBy: uuid(),
    recordedByName: text(),
    /** A client's Idempotency-Key: a retried grant returns the first entry instead of logging twice. */
    idempotencyKey: text(),
    requestHash: text(),
    /** Issue 16: where the attempt happened (the tenant's default site when none was named). */
    siteId: uuid(),
    gateId: uuid(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // Ascending, read backwards for "newest first": Drizzle's desc() is DESC NULLS LAST, which
    // ORDER BY … DESC (NULLS FIRST) cannot use, so the list and dashboard sorted the whole tenant.
    index('entry_logs_tenant_timestamp_idx').on(t.tenantId, t.timestamp, t.id),
    uniqueIndex('entry_logs_one_per_idempotency_key')
      .on(t.tenantId, t.idempotencyKey)
      .where(sql`idempotency_key is not null`),
    foreignKey({
      columns: [t.tenantId, t.vehicleLicenceDiscId],
      foreignColumns: [licenceDiscs.tenantId, licenceDiscs.id],
    }),
    foreignKey({
      columns: [t.tenantId, t.identityDocumentId],
      foreignColumns: [identityDocuments.tenantId, identityDocuments.id],
    }),
    foreignKey({
      columns: [t.tenantId, t.driversLicenceId],
      foreignColumns: [driversLicences.tenantId, driversLicences.id],
    }),
    foreignKey({
      columns: [t.tenantId, t.passportRecordId],
      foreignColumns: [passports.tenantId, passports.id],
    }),
    foreignKey({
      columns: [t.tenantId, t.weighbridgeTicketId],
      foreignColumns: [weighbridgeTickets.tenantId, weighbridgeTickets.id],
    }),
    foreignKey({ columns: [t.tenantId, t.siteId], foreignColumns: [sites.tenantId, sites.id] }),
    foreignKey({ columns: [t.tenantId, t.gateId], foreignColumns: [gates.tenantId, gates.id] }),
    // A site's entries newest first (site-scoped lists), read backwards like the tenant index.
    index('entry_logs_tenant_site_timestamp_idx').on(t.tenantId, t.siteId, t.timestamp, t.id),
    // A plate's entries in time order: the truck list links each camera read to the plate's first
    // entry after it (issue 15) by a range read here, with no sort per listed read.
    index('entry_logs_tenant_plate_timestamp_idx').on(t.tenantId, t.plateNumber, t.timestamp, t.id),
    index('entry_logs_tenant_disc_idx').on(t.tenantId, t.vehicleLicenceDiscId),
    index('entry_logs_tenant_identity_idx').on(t.tenantId, t.identityDocumentId),
    index('entry_logs_tenant_licence_idx').on(t.tenantId, t.driversLicenceId),
    index('entry_logs_tenant_passport_idx').on(t.tenantId, t.passportRecordId),
    index('entry_logs_tenant_ticket_idx').on(t.tenantId, t.weighbridgeTicketId),
    // Issue 26: a driver's entries by the keyed hash of an ID or passport number (data-subject
    // export and erasure, visits and corrections about a driver).
    index('entry_logs_tenant_id_number_hash_idx')
      .on(t.tenantId, t.driverIdNumberHash)
      .where(sql`driver_id_number_hash is not null`),
    index('entry_logs_tenant_passport_number_hash_idx')
      .on(t.tenantId, t.driverPassportNumberHash)
      .where(sql`driver_passport_number_hash is not null`),
    // Issue 26: entries stored before sealing (the sealing job's lookup); empty once it has run.
    index('entry_logs_unsealed_idx')
      .on(t.tenantId)
      .where(
        sql`(driver_id_number is not null and (driver_id_number_hash is null or driver_id_number not like 'sv1.%')) or (driver_passport_number is not null and (driver_passport_number_hash is null or driver_passport_number not like 'sv1.%'))`,
      ),
    // The daily image retention purge (retention_due_document_images): only entries that still
    // hold an image, so purged history drops out of the index instead of being rescanned daily.
    index('entry_logs_images_held_idx')
      .on(t.tenantId, t.timestamp)
      .where(
        sql`plate_image_key is not null or vehicle_disk_image_key is not null or driver_face_image_key is not null or driver_license_image_key is not null or passport_image_key is not null or cardinality(permit_image_keys) > 0`,
      ),
  ],
);

/**
 * The dashboard's counts per tenant and site day (SAST), kept by statement-level triggers on
 * entry_logs in the writer's transaction (migration 0015): the dashboard sums a few hundred day
 * rows instead of counting a million entries on every request.
 */
export const entryLogDailyCounts = pgTable(
  'entry_log_daily_counts',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    day: date({ mode: 'string' }).notNull(),
    total: integer().notNull().default(0),
    approved: integer().notNull().default(0),
    faceVerified: integer().notNull().default(0),
    /** Attempts that ended in an entry (entry_granted): the Approval Rate's numerator. */
    granted: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day] })],
);

export type EntryLogRow = typeof entryLogs.$inferSelect;
export type NewEntryLogRow = typeof entryLogs.$inferInsert;
