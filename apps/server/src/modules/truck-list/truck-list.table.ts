import {
  date,
  foreignKey,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

import { sites } from '@/modules/sites/sites.table';
import { tenants } from '@/modules/tenants/tenants.table';

export const truckCategory = pgEnum('truck_category', ['contracted', 'other']);

/** Plates read by the number-plate cameras (ANPR), checked against the approved register. */
export const truckListEntries = pgTable(
  'truck_list_entries',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    id: uuid().notNull(),
    // Milliseconds, as JavaScript holds them: a page cursor made from a row's timestamp must
    // compare equal to it, or rows within the same millisecond would be skipped.
    timestamp: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
    truckNumber: text(),
    plateNumber: text().notNull(),
    category: truckCategory().notNull(),
    transportName: text(),
    imageKey: text(),
    source: text(),
    /** Issue 16: the site of the camera's read (the tenant's default site until cameras name a gate). */
    siteId: uuid(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // Ascending, read backwards: a DESC NULLS LAST index cannot serve ORDER BY … DESC. The id
    // makes the (timestamp, id) keyset of the paged list one index range.
    index('truck_list_entries_tenant_timestamp_idx').on(t.tenantId, t.timestamp, t.id),
    // The list filtered to a site (`siteId`, a guard's sites).
    index('truck_list_entries_site_timestamp_idx').on(t.tenantId, t.siteId, t.timestamp, t.id),
    foreignKey({ columns: [t.tenantId, t.siteId], foreignColumns: [sites.tenantId, sites.id] }),
  ],
);

/**
 * The Truck List's summary cards, kept per tenant and site day by statement-level triggers on
 * truck_list_entries in the writer's transaction (migration 0019): the cards read a few hundred
 * day rows instead of counting every camera read on every request.
 */
export const truckListDailyCounts = pgTable(
  'truck_list_daily_counts',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    day: date({ mode: 'string' }).notNull(),
    total: integer().notNull().default(0),
    withTruckNumber: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day] })],
);

export type TruckListEntryRow = typeof truckListEntries.$inferSelect;
