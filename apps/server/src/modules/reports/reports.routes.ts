import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import {
  ReportScheduleSchema,
  ReportSummaryQuerySchema,
  ReportSummarySchema,
  UpdateReportScheduleSchema,
} from '@boomgate/contracts/reports';

import { rolesAccess } from '@/platform/access';

import type { ReportSchedulesService } from './report-schedules.service';
import type { ReportsService } from './reports.service';

/** Issue 23: reports are for the office (as the entry export), not the gate. */
const REPORT_ROLES = ['super_admin', 'tenant_admin', 'back_office'] as const;

/** Issue 23: the scheduled e-mail is a tenant setting, so an administrator's. */
const SCHEDULE_ROLES = ['super_admin', 'tenant_admin'] as const;

export function reportsRoutes(
  service: ReportsService,
  schedules: ReportSchedulesService,
): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/reports/schedule',
      {
        config: rolesAccess(SCHEDULE_ROLES),
        schema: {
          tags: ['reports'],
          operationId: 'getReportSchedule',
          description:
            "The scheduled report e-mail: off, daily (the previous site day, sent at 06:00) or weekly (the previous Monday to Sunday, sent on Monday at 06:00), with its recipients and its site (`siteId`: that site's report in its timezone; null: every site in SAST).",
          response: { 200: ReportScheduleSchema },
        },
      },
      async (request) => schedules.get(request.actor),
    );

    app.patch(
      '/reports/schedule',
      {
        config: rolesAccess(SCHEDULE_ROLES),
        schema: {
          tags: ['reports'],
          operationId: 'updateReportSchedule',
          description:
            "Turns the scheduled report e-mail off or on (daily or weekly, XLSX or PDF attachment, at most 20 recipients) through the SMTP channel of alerts. `siteId` names the site whose report it is (in its timezone; 404 when not the tenant's), null every site, omitted unchanged. Audited (reports.schedule-changed).",
          body: UpdateReportScheduleSchema,
          response: { 200: ReportScheduleSchema },
        },
      },
      async (request) => schedules.update(request.actor, request.body, request.ip),
    );

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
