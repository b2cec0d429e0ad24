import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Issue 26: keys of the platform itself, each wrapped by the master key (ENCRYPTION_KEY). `root`
 * is the key the integration secrets (platform/crypto.ts) are sealed with and the purpose keys
 * are derived from (MFA recovery codes, override PINs, VAPID, driver and data-subject
 * references): wrapped, so a master-key rotation re-wraps it and changes none of them. Only the
 * schema owner reads it, at start-up (platform/root-key.ts); the API and job roles have no grant.
 */
export const platformKeys = pgTable('platform_keys', {
  purpose: text({ enum: ['root'] }).primaryKey(),
  /** `<iv>.<tag>.<ciphertext>` under the master key named by master_key_id. */
  wrappedKey: text().notNull(),
  masterKeyId: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  rewrappedAt: timestamp({ withTimezone: true }),
});
