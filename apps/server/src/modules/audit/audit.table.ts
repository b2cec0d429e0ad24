import { index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

import { tenants } from '@/modules/tenants/tenants.table';

/** Append-only: the app role may insert and read, never update or delete (see the RLS migration). */
export const auditEvents = pgTable(
  'audit_events',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    id: uuid().notNull(),
    occurredAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    actorUserId: uuid(),
    action: text().notNull(),
    targetType: text(),
    targetId: text(),
    ip: text(),
    details: jsonb().$type<Record<string, unknown>>(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('audit_events_tenant_occurred_idx').on(t.tenantId, t.occurredAt),
  ],
);

export type AuditEventRow = typeof auditEvents.$inferSelect;
