/**
 * Reports (issue 23): the site manager's figures for a range of site days, read from hourly
 * summary tables kept by triggers on entry_logs and visits (migration 0055).
 * Scheduled report e-mails (daily or weekly, XLSX or PDF; one site in its timezone or every site in SAST) go out through the alerts' SMTP channel.
 * Owns: report_hourly_entries, report_hourly_refusals, report_hourly_visits,
 * report_hourly_weighbridge, report_schedules.
 */
import type { EmailChannel } from '@/modules/alerts';
import type { AuditService } from '@/modules/audit';
import type { SitesService } from '@/modules/sites';
import { createSitesRepository } from '@/modules/sites';
import type { Clock } from '@/platform/clock';
import type { Database } from '@/platform/db';

import { createReportSchedulesPersonalData } from './report-schedules.personal-data';
import { createReportSchedulesRepository } from './report-schedules.repository';
import { createReportSchedulesService } from './report-schedules.service';
import { createReportJobs } from './reports.jobs';
import { createReportsRepository } from './reports.repository';
import { reportsRoutes } from './reports.routes';
import { createReportsService } from './reports.service';

export type { ReportsService } from './reports.service';

export function createReportsModule(deps: {
  database: Pick<Database, 'withTenant' | 'withoutTenant' | 'readTogether'>;
  sites: Pick<SitesService, 'inTransaction'>;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  /** The alerts' SMTP channel: scheduled reports go out the same way. */
  email: Pick<EmailChannel, 'isConfigured' | 'send'>;
  log?: (message: string) => void;
}) {
  const service = createReportsService({
    database: deps.database,
    repository: createReportsRepository(),
    sites: deps.sites.inTransaction,
    siteRows: createSitesRepository(),
  });
  // Issue 23: the scheduled report e-mail (GET/PUT /api/reports/schedule, reports.* jobs).
  const schedules = createReportSchedulesService({
    ...deps,
    repository: createReportSchedulesRepository(),
    reports: service,
    sites: deps.sites.inTransaction,
    siteRows: createSitesRepository(),
  });
  return {
    service,
    scheduledEmails: schedules,
    /** POPIA requests by e-mail address: the schedule's recipients. */
    emailPersonalData: createReportSchedulesPersonalData(),
    routes: reportsRoutes(service, schedules),
    ...createReportJobs(schedules),
  };
}
