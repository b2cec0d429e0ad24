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
    // The audit viewer's filters by person and by target (and the entry detail's trail).
    index('audit_events_tenant_actor_occurred_idx').on(t.tenantId, t.actorUserId, t.occurredAt),
    index('audit_events_tenant_target_idx').on(t.tenantId, t.targetId),
  ],
);

export type AuditEventRow = typeof auditEvents.$inferSelect;
