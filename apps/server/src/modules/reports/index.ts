/**
 * Reports (issue 23): the site manager's figures for a range of site days, read from hourly
 * summary tables kept by triggers on entry_logs and visits (migration 0055).
 * Owns: report_hourly_entries, report_hourly_refusals, report_hourly_visits.
 */
import type { SitesService } from '@/modules/sites';
import { createSitesRepository } from '@/modules/sites';
import type { Database } from '@/platform/db';

import { createReportsRepository } from './reports.repository';
import { reportsRoutes } from './reports.routes';
import { createReportsService } from './reports.service';

export type { ReportsService } from './reports.service';

export function createReportsModule(deps: {
  database: Pick<Database, 'withTenant'>;
  sites: Pick<SitesService, 'inTransaction'>;
}) {
  const service = createReportsService({
    database: deps.database,
    repository: createReportsRepository(),
    sites: deps.sites.inTransaction,
    siteRows: createSitesRepository(),
  });
  return { service, routes: reportsRoutes(service) };
}
