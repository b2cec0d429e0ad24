import { sql } from 'drizzle-orm';
import {
  check,
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

/**
 * Issue 26 (SEC-48): a tenant's keys, each wrapped by the master key (ENCRYPTION_KEY), never
 * stored in the clear. `data` keys seal personal data (AES-256-GCM); the `index` key makes the
 * keyed hashes beside sealed values for equality lookups, and is not rotated with the data key
 * (rotating it would mean recomputing every index; it reveals only equality). The `audit` key seals
 * the audit trail's personal details and is not rotated with the data key either: the trail is
 * append-only, so nothing it sealed could be re-sealed before the old key's erasure. One active key per
 * purpose; a rotated-out data key is `retiring` until nothing sealed with it is left, then
 * `retired` with its wrapped bytes erased.
 */
export const tenantKeys = pgTable(
  'tenant_keys',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    purpose: text({ enum: ['data', 'index', 'audit'] }).notNull(),
    version: integer().notNull(),
    state: text({ enum: ['active', 'retiring', 'retired'] }).notNull(),
    /** `<iv>.<tag>.<ciphertext>` under the master key; null once retired (crypto-shredded). */
    wrappedKey: text(),
    /** Which master key wrapped it (platform/sealing.ts masterKeyId): the re-wrap job's work list. */
    masterKeyId: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    retiredAt: timestamp({ withTimezone: true }),
    /**
     * A retiring data key's erasure has begun (ADR 0009, "A push during central's key erasure"):
     * from then on central refuses what a site node sealed with it, so the re-seal job's last walk
     * sees everything the key sealed. Null while nodes may still send it; never set at a node.
     */
    closedToNodesAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.purpose, t.version] }),
    uniqueIndex('tenant_keys_one_active')
      .on(t.tenantId, t.purpose)
      .where(sql`${t.state} = 'active'`),
    index('tenant_keys_master_key_idx').on(t.masterKeyId),
    check(
      'tenant_keys_retired_shredded',
      sql`(${t.state} = 'retired') = (${t.wrappedKey} is null)`,
    ),
  ],
);
