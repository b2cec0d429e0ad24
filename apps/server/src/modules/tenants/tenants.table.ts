import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** An organization. Its own row is visible only inside its own tenant context (RLS on `id`). */
export const tenants = pgTable('tenants', {
  id: uuid().primaryKey(),
  name: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export type TenantRow = typeof tenants.$inferSelect;
