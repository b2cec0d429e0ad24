import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { ROLES } from '@boomgate/contracts/roles';

import { tenants } from '@/modules/tenants/tenants.table';

export const userRole = pgEnum('user_role', ROLES);

export const users = pgTable(
  'users',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    id: uuid().notNull(),
    username: text().notNull(),
    fullName: text(),
    email: text(),
    role: userRole().notNull().default('security_guard'),
    passwordHash: text().notNull(),
    isActive: boolean().notNull().default(true),
    /** Set when an admin chose the password (creation or reset): the user must pick their own. */
    mustChangePassword: boolean().notNull().default(false),
    /** The language the user chose for the app (issue 19); null until they choose one. */
    language: text(),
    passwordChangedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // Sign-in asks only for a username, so usernames are unique across tenants. This is the one
    // unique key of a tenant table without tenant_id (docs/adr/0001-tenancy-and-sign-in.md).
    uniqueIndex('users_username_unique').on(sql`lower(${t.username})`),
    index('users_tenant_role_idx').on(t.tenantId, t.role),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
