import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import {
  EXPORT_ROW_COUNT_HEADER,
  type ExportEntryLogsQuery,
  ExportEntryLogsQuerySchema,
  ExportRangeQuerySchema,
} from '@boomgate/contracts/exports';

import type { Actor } from '@/modules/sessions';
import { REAUTHENTICATION_MINUTES, rolesAccess } from '@/platform/access';
import { attachment } from '@/platform/csv';
import type { ExportFile } from '@/platform/spreadsheet-export';

import type { createEntryExportService } from './entry-export.service';

/** Issue 23: exports are for the office (reports), not the gate. */
const REPORT_ROLES = ['super_admin', 'tenant_admin', 'back_office'] as const;

const PRODUCES = ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'];

export function entryExportRoutes(
  service: ReturnType<typeof createEntryExportService>,
): FastifyPluginAsyncZod {
  return async (app) => {
    const route = (
      url: string,
      operationId: string,
      what: string,
      action: string,
      run: (actor: Actor, query: ExportEntryLogsQuery, ip: string) => Promise<ExportFile>,
      querystring: typeof ExportEntryLogsQuerySchema,
    ) =>
      app.get(
        url,
        {
          // SEC-25: a bulk export of personal data needs the password given recently.
          config: rolesAccess(REPORT_ROLES, { recentAuthentication: true }),
          schema: {
            tags: ['entry-logs'],
            operationId,
            description:
              `${what} of the site days \`from\` to \`to\` (SAST, both inclusive), oldest first, streamed as CSV (formula cells neutralised) or XLSX. ` +
              `${EXPORT_ROW_COUNT_HEADER} holds the number of rows. Audited (${action}). ` +
              `401 REAUTH_REQUIRED unless the password was given in the last ${REAUTHENTICATION_MINUTES} minutes.`,
            querystring,
            produces: PRODUCES,
          },
        },
        async (request, reply) => {
          const file = await run(request.actor, request.query, request.ip);
          return reply
            .type(file.contentType)
            .header('content-disposition', attachment(file.fileName))
            .header(EXPORT_ROW_COUNT_HEADER, String(file.rowCount))
            .send(file.body);
        },
      );

    route(
      '/exports/entry-logs',
      'exportEntryLogs',
      'Every entry',
      'entry-logs.exported',
      service.exportEntries,
      ExportEntryLogsQuerySchema,
    );
    route(
      '/exports/refusals',
      'exportRefusals',
      'Every refused entry (with its reason)',
      'refusals.exported',
      service.exportRefusals,
      ExportRangeQuerySchema,
    );
    route(
      '/exports/weighbridge-tickets',
      'exportWeighbridgeTickets',
      'Every entry that cited a weighbridge ticket, with the ticket’s weights and the overload check against the licence disc’s GVM',
      'weighbridge-tickets.exported',
      service.exportWeighbridgeTickets,
      ExportRangeQuerySchema,
    );
  };
}
