import { and, desc, eq, sql } from 'drizzle-orm';

import type { AlertState } from '@boomgate/contracts/alerts';

import type { DbExecutor } from '@/platform/db';
import type { PageCursor } from '@/platform/page-cursor';

import {
  type AlertPushSubscriptionRow,
  type AlertRow,
  type NewAlertRow,
  alertPushSubscriptions,
  alertSettings,
  alerts,
} from './alerts.table';

export type AlertsRepository = ReturnType<typeof createAlertsRepository>;

/** Every statement on the alerts tables; all tenant-scoped except the two job lookups. */
export function createAlertsRepository() {
  return {
    /** Inserts unless an alert with the same dedupe key exists; the new row, or undefined. */
    async insert(tx: DbExecutor, row: NewAlertRow): Promise<AlertRow | undefined> {
      const rows = await tx
        .insert(alerts)
        .values(row)
        .onConflictDoNothing({
          target: [alerts.tenantId, alerts.dedupeKey],
          where: sql`dedupe_key is not null`,
        })
        .returning();
      return rows[0];
    },

    async find(tx: DbExecutor, tenantId: string, id: string): Promise<AlertRow | undefined> {
      const rows = await tx
        .select()
        .from(alerts)
        .where(and(eq(alerts.tenantId, tenantId), eq(alerts.id, id)))
        .limit(1);
      return rows[0];
    },

    list: (
      tx: DbExecutor,
      tenantId: string,
      { state, limit, after }: { state?: AlertState; limit: number; after?: PageCursor },
    ): Promise<AlertRow[]> =>
      tx
        .select()
        .from(alerts)
        .where(
          and(
            eq(alerts.tenantId, tenantId),
            state ? eq(alerts.state, state) : undefined,
            after
              ? sql`(${alerts.createdAt}, ${alerts.id}) < (${after.timestamp.toISOString()}::timestamptz, ${after.id}::uuid)`
              : undefined,
          ),
        )
        .orderBy(desc(alerts.createdAt), desc(alerts.id))
        .limit(limit),

    async countOpen(tx: DbExecutor, tenantId: string): Promise<number> {
      const [row] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(alerts)
        .where(and(eq(alerts.tenantId, tenantId), eq(alerts.state, 'open')));
      return row?.count ?? 0;
    },

    /** Acknowledges an open alert; undefined when it was not open (or does not exist). */
    async acknowledge(
      tx: DbExecutor,
      tenantId: string,
      id: string,
      by: { userId: string; name: string; at: Date },
    ): Promise<AlertRow | undefined> {
      const rows = await tx
        .update(alerts)
        .set({
          state: 'acknowledged',
          acknowledgedAt: by.at,
          acknowledgedBy: by.userId,
          acknowledgedByName: by.name,
        })
        .where(and(eq(alerts.tenantId, tenantId), eq(alerts.id, id), eq(alerts.state, 'open')))
        .returning();
      return rows[0];
    },

    /** Marks a repeat as sent unless someone acknowledged it or another worker repeated it. */
    async markRepeated(
      tx: DbExecutor,
      tenantId: string,
      id: string,
      { seen, now }: { seen: Date; now: Date },
    ): Promise<boolean> {
      const rows = await tx
        .update(alerts)
        .set({ lastNotifiedAt: now, notifications: sql`${alerts.notifications} + 1` })
        .where(
          and(
            eq(alerts.tenantId, tenantId),
            eq(alerts.id, id),
            eq(alerts.state, 'open'),
            eq(alerts.lastNotifiedAt, seen),
          ),
        )
        .returning({ id: alerts.id });
      return rows.length > 0;
    },

    /** Tells every API process (LISTEN boomgate_alerts) that the tenant's alerts changed. */
    async notifyChanged(tx: DbExecutor, tenantId: string, alertId: string) {
      await tx.execute(
        sql`select pg_notify('boomgate_alerts', ${JSON.stringify({ tenantId, alertId })})`,
      );
    },

    async findSettings(tx: DbExecutor, tenantId: string): Promise<unknown> {
      const rows = await tx
        .select({ settings: alertSettings.settings })
        .from(alertSettings)
        .where(eq(alertSettings.tenantId, tenantId))
        .limit(1);
      return rows[0]?.settings;
    },

    async saveSettings(tx: DbExecutor, tenantId: string, settings: unknown, now: Date) {
      await tx
        .insert(alertSettings)
        .values({ tenantId, settings, updatedAt: now })
        .onConflictDoUpdate({ target: alertSettings.tenantId, set: { settings, updatedAt: now } });
    },

    // ----- Web Push ---------------------------------------------------------------------------

    /** One row per endpoint: subscribing again (new keys, another user) replaces it. */
    async upsertSubscription(
      tx: DbExecutor,
      row: Omit<AlertPushSubscriptionRow, 'createdAt'> & { createdAt: Date },
    ): Promise<AlertPushSubscriptionRow> {
      const [saved] = await tx
        .insert(alertPushSubscriptions)
        .values(row)
        .onConflictDoUpdate({
          target: [alertPushSubscriptions.tenantId, alertPushSubscriptions.endpoint],
          set: { userId: row.userId, p256dh: row.p256dh, auth: row.auth },
        })
        .returning();
      if (!saved) throw new Error('push subscription upsert returned nothing');
      return saved;
    },

    async deleteSubscription(
      tx: DbExecutor,
      tenantId: string,
      where: { endpoint: string } | { id: string },
    ): Promise<boolean> {
      const rows = await tx
        .delete(alertPushSubscriptions)
        .where(
          and(
            eq(alertPushSubscriptions.tenantId, tenantId),
            'endpoint' in where
              ? eq(alertPushSubscriptions.endpoint, where.endpoint)
              : eq(alertPushSubscriptions.id, where.id),
          ),
        )
        .returning({ id: alertPushSubscriptions.id });
      return rows.length > 0;
    },

    listSubscriptions: (tx: DbExecutor, tenantId: string) =>
      tx
        .select()
        .from(alertPushSubscriptions)
        .where(eq(alertPushSubscriptions.tenantId, tenantId))
        .limit(500),

    async findSubscription(tx: DbExecutor, tenantId: string, id: string) {
      const rows = await tx
        .select()
        .from(alertPushSubscriptions)
        .where(
          and(eq(alertPushSubscriptions.tenantId, tenantId), eq(alertPushSubscriptions.id, id)),
        )
        .limit(1);
      return rows[0];
    },

    // ----- The jobs' cross-tenant lookups (SECURITY DEFINER, ids only) ------------------------

    async listDueRepeats(tx: DbExecutor, now: Date, limit: number) {
      const result = await tx.execute<{
        tenant_id: string;
        alert_id: string;
        last_notified_at: string;
      }>(
        sql`select tenant_id, alert_id, last_notified_at from alerts_due_repeat(${now.toISOString()}::timestamptz, ${limit}::int)`,
      );
      return result.rows.map((row) => ({
        tenantId: row.tenant_id,
        alertId: row.alert_id,
        lastNotifiedAt: new Date(row.last_notified_at),
      }));
    },

    /** Tenants with an open visit past its site's limit and no overstay alert for it yet. */
    async listOverstayTenants(tx: DbExecutor, now: Date, limit: number): Promise<string[]> {
      const result = await tx.execute<{ tenant_id: string }>(
        sql`select tenant_id from alerts_due_overstay_tenants(${now.toISOString()}::timestamptz, ${limit}::int)`,
      );
      return result.rows.map((row) => row.tenant_id);
    },

    async listUnprocessedFeedEntries(tx: DbExecutor, now: Date, limit: number) {
      const result = await tx.execute<{
        tenant_id: string;
        incoming_request_id: string;
        plate_number: string | null;
        received_at: string;
      }>(
        sql`select tenant_id, incoming_request_id, plate_number, received_at from alerts_due_feed_unprocessed(${now.toISOString()}::timestamptz, ${limit}::int)`,
      );
      return result.rows.map((row) => ({
        tenantId: row.tenant_id,
        incomingRequestId: row.incoming_request_id,
        plateNumber: row.plate_number,
        receivedAt: new Date(row.received_at),
      }));
    },
  };
}
