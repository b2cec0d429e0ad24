import { index, pgEnum, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
    timestamp: timestamp({ withTimezone: true }).notNull().defaultNow(),
    truckNumber: text(),
    plateNumber: text().notNull(),
    category: truckCategory().notNull(),
    transportName: text(),
    imageKey: text(),
    source: text(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // Ascending, read backwards: a DESC NULLS LAST index cannot serve ORDER BY … DESC.
    index('truck_list_entries_tenant_timestamp_idx').on(t.tenantId, t.timestamp),
  ],
);

export type TruckListEntryRow = typeof truckListEntries.$inferSelect;
