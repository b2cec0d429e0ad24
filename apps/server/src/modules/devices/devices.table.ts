import {
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { tenants } from '@/modules/tenants/tenants.table';

/**
 * Issue 18: the guards' devices that keep an offline queue and cache. A device reports in with the
 * id it generated; an admin's revocation is kept (never deleted), so the device is refused at its
 * next contact and wipes what it holds.
 */
export const guardDevices = pgTable(
  'guard_devices',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    id: uuid().notNull(),
    /** The id the device generated for itself. */
    deviceKey: uuid().notNull(),
    label: text(),
    lastUserId: uuid(),
    lastUserName: text(),
    firstSeenAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
    lastContactAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
    revokedAt: timestamp({ withTimezone: true, precision: 3 }),
    revokedBy: uuid(),
    revokedByName: text(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('guard_devices_one_per_key').on(t.tenantId, t.deviceKey),
    // Ascending: read backwards for newest-first (index-order.test.ts).
    index('guard_devices_by_contact_idx').on(t.tenantId, t.lastContactAt),
  ],
);

export type GuardDeviceRow = typeof guardDevices.$inferSelect;
