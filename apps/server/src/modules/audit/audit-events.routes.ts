import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import {
  AuditEventListSchema,
  ExportAuditEventsQuerySchema,
  ListAuditEventsQuerySchema,
} from '@boomgate/contracts/audit';

import { REAUTHENTICATION_MINUTES, rolesAccess } from '@/platform/access';
import { attachment } from '@/platform/csv';
import { setPageHeaders } from '@/platform/page-cursor';
import { presentedResponse } from '@/platform/response-serializer';

import type { AuditEventsService } from './audit-events.service';

/** Issue 23: the audit log viewer is the organization administrator's (and the platform's). */
const ADMINS = ['super_admin', 'tenant_admin'] as const;

export function auditEventsRoutes(service: AuditEventsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/audit-events',
      {
        config: rolesAccess(ADMINS),
        schema: {
          tags: ['audit'],
          operationId: 'listAuditEvents',
          description:
            'The audit trail, newest first, filtered by person, action (a trailing `.` matches every action under it), target and site days (SAST, both inclusive). The X-Next-Cursor header holds the next page. Each read is itself audited (audit.viewed).',
          querystring: ListAuditEventsQuerySchema,
          response: { 200: presentedResponse(AuditEventListSchema) },
        },
      },
      async (request, reply) => {
        const page = await service.list(request.actor, request.query, request.ip);
        setPageHeaders(reply, page.nextCursor);
        // In AuditEventSchema's key order: the list is serialized as built.
        return page.rows.map((row) => ({
          id: row.id,
          occurredAt: row.timestamp.toISOString(),
          actorUserId: row.actorUserId,
          actorName: row.actorName,
          action: row.action,
          targetType: row.targetType,
          targetId: row.targetId,
          ip: row.ip,
          details: row.details,
        }));
      },
    );

    app.get(
      '/audit-events/export',
      {
        // SEC-25: a bulk export (IP addresses, who saw whom) needs the password given recently.
        config: rolesAccess(ADMINS, { recentAuthentication: true }),
        schema: {
          tags: ['audit'],
          operationId: 'exportAuditEvents',
          description:
            'The filtered view as CSV (newest first, at most 100,000 events), formula cells neutralised, audited (audit.exported). ' +
            `401 REAUTH_REQUIRED unless the password was given in the last ${REAUTHENTICATION_MINUTES} minutes.`,
          querystring: ExportAuditEventsQuerySchema,
          produces: ['text/csv'],
          response: { 200: z.string() },
        },
      },
      async (request, reply) => {
        const { format: _format, ...filters } = request.query;
        const csv = await service.exportCsv(request.actor, filters, request.ip);
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', attachment('audit-log.csv'))
          .send(csv);
      },
    );
  };
}
