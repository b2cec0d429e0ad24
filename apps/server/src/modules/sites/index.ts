/**
 * Sites, gates and lanes (issue 16): a tenant's sites, each with gates whose lanes have a
 * direction, and the sites each user works at (a guard's records are limited to them).
 * Owns: sites, gates, user_sites.
 */
import type { AuditService } from '@/modules/audit';
import type { Database } from '@/platform/db';

import { createSitesRepository } from './sites.repository';
import { sitesRoutes } from './sites.routes';
import { createSitesService } from './sites.service';

export {
  DEFAULT_GATE_NAME,
  DEFAULT_SITE_NAME,
  type GateRef,
  type SitesRepository,
  createSitesRepository,
  findGate,
} from './sites.repository';
export {
  type Place,
  type SiteScope,
  type SiteScoping,
  type SitesService,
  inScope,
  sitesToList,
} from './sites.service';
export type { SiteRow } from './sites.table';

export function createSitesModule(deps: {
  database: Pick<Database, 'withTenant'>;
  audit: Pick<AuditService, 'record'>;
}) {
  const service = createSitesService({ ...deps, repository: createSitesRepository() });
  return { service, routes: sitesRoutes(service) };
}
