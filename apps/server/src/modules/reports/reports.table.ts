import {
  bigint,
  foreignKey,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

import { sites } from '@/modules/sites/sites.table';
import { tenants } from '@/modules/tenants/tenants.table';

/**
 * Issue 23: the reports' counts per tenant, site and UTC hour, kept by statement-level triggers
 * on entry_logs and visits in the writer's transaction (as entry_log_daily_counts): a report over
 * a year sums at most 8,784 rows per site instead of scanning a million entries. Hours, not days,
 * so any whole-hour site timezone (SAST) can cut its own days from them. Entries with no site
 * count under the nil uuid, so a tenant-wide report still adds up.
 */
export const reportHourlyEntries = pgTable(
  'report_hourly_entries',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    siteId: uuid().notNull(),
    /** The gate the entry was attempted at (busiest gates); the nil uuid when none was named. */
    gateId: uuid().notNull(),
    hour: timestamp({ withTimezone: true }).notNull(),
    total: integer().notNull().default(0),
    approved: integer().notNull().default(0),
    faceVerified: integer().notNull().default(0),
    granted: integer().notNull().default(0),
    /** Entries whose plate the guard typed differently from the reading (a manual correction). */
    corrected: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.siteId, t.hour, t.gateId] })],
);

/** Refusals per reason, per tenant, site and UTC hour (same triggers). */
export const reportHourlyRefusals = pgTable(
  'report_hourly_refusals',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    siteId: uuid().notNull(),
    hour: timestamp({ withTimezone: true }).notNull(),
    reason: text().notNull(),
    refused: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.siteId, t.hour, t.reason] })],
);

/**
 * Visits begun (arrivals) and ended (departures) per tenant, site and UTC hour, kept by triggers
 * on visits: vehicles on site over a day are the open count at its start plus the running sum.
 */
export const reportHourlyVisits = pgTable(
  'report_hourly_visits',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    siteId: uuid().notNull(),
    hour: timestamp({ withTimezone: true }).notNull(),
    arrivals: integer().notNull().default(0),
    departures: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.siteId, t.hour] })],
);

/**
 * Weighbridge figures per tenant, site, UTC hour and transporter (same triggers, on entry_logs):
 * granted entries that cited a weighbridge ticket, their net mass, and the overload check of the
 * ticket's gross mass against the GVM on the vehicle's licence disc (migration 0068 says which
 * loads are checked). Fixed when the entry is logged: erasing its personal data later never
 * shifts a past report.
 */
export const reportHourlyWeighbridge = pgTable(
  'report_hourly_weighbridge',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    siteId: uuid().notNull(),
    hour: timestamp({ withTimezone: true }).notNull(),
    /** The entry's transporter (else the ticket's); '' when neither names one. */
    transporter: text().notNull(),
    /** Granted entries that cited a ticket. */
    loads: integer().notNull().default(0),
    /** Loads whose ticket shows a net mass, and the sum of those masses. */
    weighed: integer().notNull().default(0),
    netMassKg: bigint({ mode: 'number' }).notNull().default(0),
    /** Loads of a single vehicle (no trailers) with both the ticket's gross mass and the disc's GVM. */
    overloadChecked: integer().notNull().default(0),
    /** Checked loads whose gross mass exceeded the GVM. */
    overloaded: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.siteId, t.hour, t.transporter] })],
);

/**
 * Issue 23: a tenant's scheduled report e-mail (one per tenant): the summary of the last site day
 * (daily) or week (weekly, Monday to Sunday) of one site in its timezone, or of every site in SAST, as an XLSX or PDF attachment, to its recipients.
 * `nextSendAt` is when the next one is due; the send job moves it on in the same transaction that
 * queues the e-mail, so a report is queued once.
 */
export const reportSchedules = pgTable(
  'report_schedules',
  {
    tenantId: uuid()
      .primaryKey()
      .references(() => tenants.id),
    frequency: text({ enum: ['daily', 'weekly'] }).notNull(),
    format: text({ enum: ['xlsx', 'pdf'] }).notNull(),
    recipients: text().array().notNull(),
    /** The site whose report it is, cut in that site's timezone; null: every site, in SAST. */
    siteId: uuid(),
    nextSendAt: timestamp({ withTimezone: true }).notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
    updatedBy: uuid(),
  },
  (t) => [
    foreignKey({ columns: [t.tenantId, t.siteId], foreignColumns: [sites.tenantId, sites.id] }),
  ],
);
