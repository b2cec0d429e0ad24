import { and, asc, eq, inArray } from 'drizzle-orm';

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
