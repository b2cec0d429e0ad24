import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { EXPORT_ROW_COUNT_HEADER, ExportEntryLogsQuerySchema } from '@boomgate/contracts/exports';

import { REAUTHENTICATION_MINUTES, rolesAccess } from '@/platform/access';
import { attachment } from '@/platform/csv';

import type { createEntryExportService } from './entry-export.service';

/** Issue 23: exports are for the office (reports), not the gate. */
const REPORT_ROLES = ['super_admin', 'tenant_admin', 'back_office'] as const;

export function entryExportRoutes(
  service: ReturnType<typeof createEntryExportService>,
): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/exports/entry-logs',
      {
        // SEC-25: a bulk export of personal data needs the password given recently.
        config: rolesAccess(REPORT_ROLES, { recentAuthentication: true }),
        schema: {
          tags: ['entry-logs'],
          operationId: 'exportEntryLogs',
          description:
            'Every entry of the site days `from` to `to` (SAST, both inclusive), oldest first, streamed as CSV (formula cells neutralised) or XLSX. ' +
            `${EXPORT_ROW_COUNT_HEADER} holds the number of rows. Audited (entry-logs.exported). ` +
            `401 REAUTH_REQUIRED unless the password was given in the last ${REAUTHENTICATION_MINUTES} minutes.`,
          querystring: ExportEntryLogsQuerySchema,
          produces: [
            'text/csv',
            'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          ],
        },
      },
      async (request, reply) => {
        const file = await service.exportEntries(request.actor, request.query, request.ip);
        return reply
          .type(file.contentType)
          .header('content-disposition', attachment(file.fileName))
          .header(EXPORT_ROW_COUNT_HEADER, String(file.rowCount))
          .send(file.body);
      },
    );
  };
}
