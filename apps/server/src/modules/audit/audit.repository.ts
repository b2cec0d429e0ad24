import { and, asc, count, eq, gte, inArray, lt, sql } from 'drizzle-orm';

import { type DbExecutor } from '@/platform/db';
import { newId } from '@/platform/ids';

import { type AuditEventRow, auditEvents } from './audit.table';

export type AuditEventInput = {
  tenantId: string;
  actorUserId: string | null;
  action: string;
  targetType?: string;
  targetId?: string;
  ip?: string;
  details?: Record<string, unknown>;
};

/** One action's events between two instants (`until` exclusive), optionally of one site. */
export type AuditActionRange = { action: string; from: Date; until: Date; siteId?: string };

// The time range walks audit_events_tenant_occurred_idx; the action and site filter its rows.
const actionInRange = (tenantId: string, range: AuditActionRange) =>
  and(
    eq(auditEvents.tenantId, tenantId),
    gte(auditEvents.occurredAt, range.from),
    lt(auditEvents.occurredAt, range.until),
    eq(auditEvents.action, range.action),
    range.siteId ? sql`${auditEvents.details} ->> 'siteId' = ${range.siteId}` : undefined,
  );

export function createAuditRepository() {
  return {
    /** Returns the new event's id, so a record can be cited later (e.g. a face comparison). */
    async insert(tx: DbExecutor, event: AuditEventInput, occurredAt: Date): Promise<string> {
      const id = newId();
      await tx.insert(auditEvents).values({ id, occurredAt, ...event });
      return id;
    },
    /** Whether an event since `since` carries `details[key] = value` (the index covers the time range). */
    async hasDetail(
      tx: DbExecutor,
      tenantId: string,
      key: string,
      value: string,
      since: Date,
    ): Promise<boolean> {
      const rows = await tx
        .select({ id: auditEvents.id })
        .from(auditEvents)
        .where(
          and(
            eq(auditEvents.tenantId, tenantId),
            gte(auditEvents.occurredAt, since),
            sql`${auditEvents.details} ->> ${key} = ${value}`,
          ),
        )
        .limit(1);
      return rows.length > 0;
    },
    async find(tx: DbExecutor, tenantId: string, id: string): Promise<AuditEventRow | undefined> {
      const rows = await tx
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.tenantId, tenantId), eq(auditEvents.id, id)))
        .limit(1);
      return rows[0];
    },
    /** How many `action` events fall in the range (and carry details.siteId, when one is named). */
    async countAction(tx: DbExecutor, tenantId: string, range: AuditActionRange): Promise<number> {
      const rows = await tx
        .select({ n: count() })
        .from(auditEvents)
        .where(actionInRange(tenantId, range));
      return rows[0]?.n ?? 0;
    },
    /** One batch of `action` events in the range, oldest first, keyset on (occurred_at, id). */
    listActionBatch(
      tx: DbExecutor,
      tenantId: string,
      range: AuditActionRange,
      limit: number,
      after?: { occurredAt: Date; id: string },
    ) {
      return tx
        .select()
        .from(auditEvents)
        .where(
          and(
            actionInRange(tenantId, range),
            after
              ? sql`(${auditEvents.occurredAt}, ${auditEvents.id}) > (${after.occurredAt.toISOString()}::timestamptz, ${after.id}::uuid)`
              : undefined,
          ),
        )
        .orderBy(asc(auditEvents.occurredAt), asc(auditEvents.id))
        .limit(limit);
    },
    /** Events about the given rows (their target ids), oldest first: the subject's access trail. */
    listAbout(tx: DbExecutor, tenantId: string, targetIds: readonly string[]) {
      if (targetIds.length === 0) return Promise.resolve([]);
      return tx
        .select()
        .from(auditEvents)
        .where(
          and(eq(auditEvents.tenantId, tenantId), inArray(auditEvents.targetId, [...targetIds])),
        )
        .orderBy(asc(auditEvents.occurredAt));
    },
  };
}
