import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { tenants } from '@/modules/tenants/tenants.table';

/** Issue 21: whether an organization lets guards override with a supervisor's PIN (one row). */
export const overridePinSettings = pgTable('override_pin_settings', {
  tenantId: uuid()
    .primaryKey()
    .references(() => tenants.id),
  enabled: boolean().notNull(),
  validityMinutes: integer().notNull(),
  updatedAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
  updatedBy: uuid(),
});

/**
 * Issue 21: one-time supervisor PINs. Only a keyed hash (HMAC with the server's key) is stored:
 * six digits are guessed offline in a moment from a plain hash, not without the key. A PIN is
 * spent by setting `usedAt` with the entry it overrode.
 */
export const overridePins = pgTable(
  'override_pins',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    id: uuid().notNull(),
    pinHash: text().notNull(),
    issuedAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
    issuedBy: uuid(),
    issuedByName: text(),
    expiresAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
    usedAt: timestamp({ withTimezone: true, precision: 3 }),
    usedBy: uuid(),
    entryId: uuid(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // Two unspent PINs of one organization never share a value: the PIN alone names its issuer.
    uniqueIndex('override_pins_one_unspent_per_value')
      .on(t.tenantId, t.pinHash)
      .where(sql`${t.usedAt} is null`),
    index('override_pins_tenant_id_expires_at_idx').on(t.tenantId, t.expiresAt),
  ],
);

export type OverridePinRow = typeof overridePins.$inferSelect;
