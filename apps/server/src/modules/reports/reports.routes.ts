import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { ReportSummaryQuerySchema, ReportSummarySchema } from '@boomgate/contracts/reports';

import { rolesAccess } from '@/platform/access';

import type { ReportsService } from './reports.service';

/** Issue 23: reports are for the office (as the entry export), not the gate. */
const REPORT_ROLES = ['super_admin', 'tenant_admin', 'back_office'] as const;

export function reportsRoutes(service: ReportsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/reports/summary',
      {
        config: rolesAccess(REPORT_ROLES),
        schema: {
          tags: ['reports'],
          operationId: 'getReportSummary',
          description:
            'Counts for the site days `from` to `to` (both inclusive, in the site’s timezone; SAST across every site; at most 366 days): entries, approvals and refusals with reasons per day and hour of day, vehicles on site over the last day, face-verification and manual-correction rates, busiest gates, and exact turnaround median and 90th percentile per transporter. Read from hourly summary tables, not a scan of the entries.',
          querystring: ReportSummaryQuerySchema,
          response: { 200: ReportSummarySchema },
        },
      },
      async (request) => service.summary(request.actor, request.query),
    );
  };
}
