import { type AnyColumn, type SQL, and, desc, eq, gte, like, lt, sql } from 'drizzle-orm';

import type { AuditEventFilters } from '@boomgate/contracts/audit';

import { type DbExecutor } from '@/platform/db';
import type { PageCursor } from '@/platform/page-cursor';

import { auditEvents } from './audit.table';

/** The filters as instants: `from` is the start of its site day, `until` the start of the day after `to`. */
export type AuditEventQuery = Omit<AuditEventFilters, 'from' | 'to'> & {
  from?: Date;
  until?: Date;
};

/** An event with its actor's name, as the audit viewer lists it. */
export type AuditEventListRow = Awaited<
  ReturnType<ReturnType<typeof createAuditEventsRepository>['list']>
>[number];

/** Escapes LIKE's wildcards so an action prefix matches literally. */
const literalPrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The actor's display name for an event's (tenant, actor) columns, from the users module. */
export type ActorNameSql = (tenantId: AnyColumn, userId: AnyColumn) => SQL<string | null>;

export function createAuditEventsRepository(actorNameSql: ActorNameSql) {
  return {
    /** Newest first, keyset-paged on (occurred_at, id); the tenant's (occurred_at) index serves it. */
    list(
      tx: DbExecutor,
      tenantId: string,
      query: AuditEventQuery,
      limit: number,
      after?: PageCursor,
    ) {
      const e = auditEvents;
      return tx
        .select({
          id: e.id,
          timestamp: e.occurredAt,
          actorUserId: e.actorUserId,
          actorName: actorNameSql(e.tenantId, e.actorUserId),
          action: e.action,
          targetType: e.targetType,
          targetId: e.targetId,
          ip: e.ip,
          details: e.details,
        })
        .from(e)
        .where(
          and(
            eq(e.tenantId, tenantId),
            query.actorUserId ? eq(e.actorUserId, query.actorUserId) : undefined,
            query.action
              ? query.action.endsWith('.')
                ? like(e.action, literalPrefix(query.action))
                : eq(e.action, query.action)
              : undefined,
            query.targetType ? eq(e.targetType, query.targetType) : undefined,
            query.targetId ? eq(e.targetId, query.targetId) : undefined,
            query.from ? gte(e.occurredAt, query.from) : undefined,
            query.until ? lt(e.occurredAt, query.until) : undefined,
            after
              ? sql`(${e.occurredAt}, ${e.id}) < (${after.timestamp.toISOString()}::timestamptz, ${after.id}::uuid)`
              : undefined,
          ),
        )
        .orderBy(desc(e.occurredAt), desc(e.id))
        .limit(limit);
    },
  };
}
