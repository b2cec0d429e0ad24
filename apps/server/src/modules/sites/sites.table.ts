import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import type { GateLane } from '@boomgate/contracts/sites';

import { tenants } from '@/modules/tenants/tenants.table';
import { users } from '@/modules/users/users.table';

/**
 * A tenant's site (a mine, a depot): its gates, its guards, its visits. Every tenant has one
 * default site (migration: existing data moved into it), used when a request names none.
 */
export const sites = pgTable(
  'sites',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    id: uuid().notNull(),
    name: text().notNull(),
    /** IANA zone of the site's local day (dashboard days, roll-call times). */
    timezone: text().notNull().default('Africa/Johannesburg'),
    /** A visit longer than this is an overstay (On Site highlight, the alerts hook). */
    overstayMinutes: integer().notNull().default(720),
    isDefault: boolean().notNull().default(false),
    isActive: boolean().notNull().default(true),
    createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('sites_tenant_name_unique').on(t.tenantId, sql`lower(${t.name})`),
    uniqueIndex('sites_one_default_per_tenant')
      .on(t.tenantId)
      .where(sql`is_default`),
  ],
);

/** A gate of a site; its lanes (name, direction in/out/both) are a small list kept with it. */
export const gates = pgTable(
  'gates',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    id: uuid().notNull(),
    siteId: uuid().notNull(),
    name: text().notNull(),
    lanes: jsonb()
      .$type<GateLane[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    isActive: boolean().notNull().default(true),
    createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({ columns: [t.tenantId, t.siteId], foreignColumns: [sites.tenantId, sites.id] }),
    uniqueIndex('gates_site_name_unique').on(t.tenantId, t.siteId, sql`lower(${t.name})`),
  ],
);

/**
 * The sites a user works at. A security guard sees and writes only these sites' records (a guard
 * with none works at the default site); other roles with rows here are scoped the same way, and
 * without rows see every site.
 */
export const userSites = pgTable(
  'user_sites',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    userId: uuid().notNull(),
    siteId: uuid().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.userId, t.siteId] }),
    foreignKey({
      columns: [t.tenantId, t.userId],
      foreignColumns: [users.tenantId, users.id],
    }).onDelete('cascade'),
    foreignKey({ columns: [t.tenantId, t.siteId], foreignColumns: [sites.tenantId, sites.id] }),
  ],
);

export type SiteRow = typeof sites.$inferSelect;
export type GateRow = typeof gates.$inferSelect;
