import { boolean, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Counters of every rate limit and throttle (sign-in failures, uploads, sign-ups, bad webhook
 * signatures), shared by every API process; not tenant data. One row per key, changed only by
 * the one-statement upsert in rate-limits.store.ts.
 */
export const rateLimitCounters = pgTable('rate_limit_counters', {
  key: text().primaryKey(),
  hits: integer().notNull(),
  windowStartedAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
  /** Hits are refused until then. */
  blockedUntil: timestamp({ withTimezone: true, precision: 3 }),
  /** Whether the latest hit was refused: what the upsert reports back to its caller. */
  refused: boolean().notNull().default(false),
  /** After this the row means nothing any more and may be deleted. */
  expiresAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
});
