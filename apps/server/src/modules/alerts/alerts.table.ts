import { sql } from 'drizzle-orm';
import {
  foreignKey,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { ALERT_KINDS, ALERT_SEVERITIES } from '@boomgate/contracts/alerts';

import { tenants } from '@/modules/tenants/tenants.table';
import { users } from '@/modules/users/users.table';

export const alertKind = pgEnum('alert_kind', ALERT_KINDS);
export const alertSeverity = pgEnum('alert_severity', ALERT_SEVERITIES);
export const alertState = pgEnum('alert_state', ['open', 'acknowledged']);

/** Something a person must be told about and acknowledge (issue 22). */
export const alerts = pgTable(
  'alerts',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    id: uuid().notNull(),
    kind: alertKind().notNull(),
    severity: alertSeverity().notNull(),
    state: alertState().notNull().default('open'),
    message: text().notNull(),
    // What it concerns; ids without foreign keys: sites and gates are other modules' tables, and
    // an erased entry must not take its alert with it.
    entryId: uuid(),
    siteId: uuid(),
    gateId: uuid(),
    plateNumber: text(),
    /** One alert per key (e.g. `feed_unprocessed:<incoming id>`): raising it again does nothing. */
    dedupeKey: text(),
    // Milliseconds, as JavaScript holds them: page cursors compare equal to the row.
    createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
    acknowledgedAt: timestamp({ withTimezone: true }),
    acknowledgedBy: uuid(),
    acknowledgedByName: text(),
    /** When e-mail and push last went out: unacknowledged critical alerts repeat from here. */
    lastNotifiedAt: timestamp({ withTimezone: true }).notNull(),
    notifications: integer().notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // Newest first, read backwards; the id makes the (created_at, id) keyset one index range.
    index('alerts_tenant_created_idx').on(t.tenantId, t.createdAt, t.id),
    index('alerts_tenant_state_created_idx').on(t.tenantId, t.state, t.createdAt, t.id),
    uniqueIndex('alerts_one_per_dedupe_key')
      .on(t.tenantId, t.dedupeKey)
      .where(sql`dedupe_key is not null`),
    // The repeat job's cross-tenant scan (alerts_due_repeat): open critical alerts by due time.
    index('alerts_open_critical_idx')
      .on(t.lastNotifiedAt)
      .where(sql`state = 'open' and severity = 'critical'`),
    foreignKey({
      columns: [t.tenantId, t.acknowledgedBy],
      foreignColumns: [users.tenantId, users.id],
      name: 'alerts_acknowledged_by_fk',
    }),
  ],
);

/** The tenant's routing (AlertSettings in the contracts); no row means the defaults. */
export const alertSettings = pgTable('alert_settings', {
  tenantId: uuid()
    .primaryKey()
    .references(() => tenants.id),
  settings: jsonb().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull(),
});

/** Browsers of admins that asked for Web Push (their PushSubscription). */
export const alertPushSubscriptions = pgTable(
  'alert_push_subscriptions',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    id: uuid().notNull(),
    userId: uuid().notNull(),
    endpoint: text().notNull(),
    p256dh: text().notNull(),
    auth: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('alert_push_subscriptions_endpoint').on(t.tenantId, t.endpoint),
    foreignKey({
      columns: [t.tenantId, t.userId],
      foreignColumns: [users.tenantId, users.id],
      name: 'alert_push_subscriptions_user_fk',
    }).onDelete('cascade'),
  ],
);

export type AlertRow = typeof alerts.$inferSelect;
export type NewAlertRow = typeof alerts.$inferInsert;
export type AlertPushSubscriptionRow = typeof alertPushSubscriptions.$inferSelect;
