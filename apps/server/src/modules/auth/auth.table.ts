import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Failed sign-in counters per account and per client address; not tenant data. */
export const authThrottle = pgTable('auth_throttle', {
  key: text().primaryKey(),
  failures: integer().notNull().default(0),
  windowStartedAt: timestamp({ withTimezone: true }).notNull(),
  lockedUntil: timestamp({ withTimezone: true }),
});
