import { foreignKey, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

import { tenants } from '@/modules/tenants/tenants.table';

import { entryLogs } from './entry-logs.table';

/**
 * Issue 21: a supervisor's override of one refused entry. Entries are append-only (0016), so the
 * override is its own row: the entry keeps its refusal and is shown granted, with who and why.
 * At most one per entry (the primary key).
 */
export const entryOverrides = pgTable(
  'entry_overrides',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    entryId: uuid().notNull(),
    reason: text().notNull(),
    overriddenAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
    overriddenBy: uuid(),
    overriddenByName: text(),
    /** A guard's override with a supervisor's PIN: the guard (overriddenBy is the supervisor). */
    enteredBy: uuid(),
    enteredByName: text(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.entryId] }),
    foreignKey({
      columns: [t.tenantId, t.entryId],
      foreignColumns: [entryLogs.tenantId, entryLogs.id],
    }).onDelete('cascade'),
  ],
);

export type EntryOverrideRow = typeof entryOverrides.$inferSelect;
