import { boolean, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

import { tenants } from '@/modules/tenants/tenants.table';

/**
 * Issue 21: one tenant's watchlist (row-level security like every tenant table; never shared,
 * POPIA s57). `matchKey` is the value as the gate compares it (watchlistMatchKey).
 */
export const watchlistEntries = pgTable(
  'watchlist_entries',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    id: uuid().notNull(),
    kind: text({ enum: ['plate', 'idNumber', 'company'] }).notNull(),
    value: text().notNull(),
    matchKey: text().notNull(),
    reason: text().notNull(),
    severity: text({ enum: ['block', 'alert'] }).notNull(),
    covert: boolean().notNull().default(false),
    expiresAt: timestamp({ withTimezone: true, precision: 3 }),
    createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
    createdBy: uuid(),
    createdByName: text(),
    updatedAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('watchlist_entries_match_idx').on(t.tenantId, t.kind, t.matchKey),
  ],
);

export type WatchlistRow = typeof watchlistEntries.$inferSelect;
export type NewWatchlistRow = typeof watchlistEntries.$inferInsert;
