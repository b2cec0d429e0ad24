import { bigint, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Issue 26i: a platform marker, no tenant data. keys.seal-stored-data (queued at every worker
 * start) walks all of storage only until one complete walk has found every object sealed with its
 * tenant's active data key; that walk is recorded here (`walk = 'objects'`) and later starts skip
 * the object walk (the row walks stay). Deleting the row makes the next start walk storage again.
 */
export const sealedStorageWalks = pgTable('sealed_storage_walks', {
  walk: text({ enum: ['objects'] }).primaryKey(),
  /** When the walk that found nothing to seal ended. */
  completedAt: timestamp({ withTimezone: true }).notNull(),
  /** How many objects it walked. */
  objects: bigint({ mode: 'number' }).notNull(),
});
