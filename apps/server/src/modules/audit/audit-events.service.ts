import {
  AUDIT_EXPORT_MAX_ROWS,
  type AuditEventFilters,
  type ListAuditEventsQuery,
} from '@boomgate/contracts/audit';

import type { Actor } from '@/modules/sessions';
import { siteDayRange } from '@/platform/calendar';
import { toCsv } from '@/platform/csv';
import type { Database } from '@/platform/db';
import { readPageCursor, toPage } from '@/platform/page-cursor';

import type { AuditService } from './audit.service';
import {
  type ActorNameSql,
  type AuditEventListRow,
  type AuditEventQuery,
  createAuditEventsRepository,
} from './audit-events.repository';

export type AuditEventsService = ReturnType<typeof createAuditEventsService>;

const EXPORT_HEADER = [
  'Time',
  'Person',
  'Person ID',
  'Action',
  'Target type',
  'Target ID',
  'IP address',
  'Details',
] as const;

/** Filters as the repository takes them: days become the instants that bound them at the site. */
function toQuery({ from, to, ...rest }: AuditEventFilters): AuditEventQuery {
  return {
    ...rest,
    ...(from ? { from: siteDayRange(from, from).from } : {}),
    ...(to ? { until: siteDayRange(to, to).until } : {}),
  };
}

/** The filters as they are written into the audit's own record of the read. */
const filtersOf = (filters: AuditEventFilters) =>
  Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined));

/**
 * The audit viewer (issue 23): a tenant admin reads and exports the trail. Reading it is itself
 * recorded (POPIA: who looked at whose records), in the same transaction as the read.
 */
export function createAuditEventsService({
  database,
  audit,
  actorNameSql,
}: {
  database: Pick<Database, 'withTenant'>;
  audit: AuditService;
  actorNameSql: ActorNameSql;
}) {
  const repository = createAuditEventsRepository(actorNameSql);

  return {
    list: (actor: Actor, { limit, cursor, ...filters }: ListAuditEventsQuery, ip?: string) => {
      const after = readPageCursor(cursor);
      return database.withTenant(actor.tenantId, async (tx) => {
        const rows = await audit.openAll(
          actor.tenantId,
          await repository.list(tx, actor.tenantId, toQuery(filters), limit + 1, after),
        );
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'audit.viewed',
          targetType: 'audit_log',
          ip,
          details: { filters: filtersOf(filters), page: after ? 'next' : 'first' },
        });
        return toPage(rows, limit);
      });
    },

    exportCsv: (actor: Actor, filters: AuditEventFilters, ip?: string) =>
      database.withTenant(actor.tenantId, async (tx) => {
        const rows: AuditEventListRow[] = await audit.openAll(
          actor.tenantId,
          await repository.list(tx, actor.tenantId, toQuery(filters), AUDIT_EXPORT_MAX_ROWS),
        );
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'audit.exported',
          targetType: 'audit_log',
          ip,
          details: { filters: filtersOf(filters), events: rows.length },
        });
        return toCsv(
          EXPORT_HEADER,
          rows.map((row) => [
            row.timestamp.toISOString(),
            row.actorName,
            row.actorUserId,
            row.action,
            row.targetType,
            row.targetId,
            row.ip,
            row.details ? JSON.stringify(row.details) : null,
          ]),
        );
      }),
  };
}
