import { and, asc, eq, gte, inArray, sql } from 'drizzle-orm';

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
