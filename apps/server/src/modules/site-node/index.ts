/**
 * Site node (issue 28, ADR 0009): with SITE_NODE=1 this server runs for one site of a tenant
 * against a central instance. Master data is pulled from central (signed pages, applied whole),
 * site facts (entries, exits, captures with their objects, face comparisons, corrections and audit
 * events) go up through an append-only outbox written by `recordSiteFact` in
 * the fact's own transaction. The sync loops run in the same process (site-node.runtime.ts,
 * started by main.ts), on the same database as the API. Owns: site_node_state, site_outbox,
 * site_outbox_streams.
 */
import type { FastifyPluginAsync } from 'fastify';

import type { SiteNodeConfig } from '@/config/env';
import type { Clock } from '@/platform/clock';
import type { Database } from '@/platform/db';

import { siteNodeRoutes } from './site-node.routes';
import { createSiteNodeService } from './site-node.service';

export { createSiteFacts, recordSiteFact, type SiteFact, type SiteFacts } from './site-facts';
export { registerManagedCentrally, MANAGED_CENTRALLY_MESSAGE } from './site-node.routes';
export { startSiteNodeRuntime } from './site-node.runtime';

export function createSiteNodeModule({
  database,
  clock,
  config,
}: {
  database: Pick<Database, 'withTenant'>;
  clock: Clock;
  config: SiteNodeConfig | undefined;
}) {
  // On central, GET /api/site-sync/status is central's own (the site-sync module's nodes view).
  if (!config) return { isSiteNode: false, routes: (async () => undefined) as FastifyPluginAsync };
  const service = createSiteNodeService({ database, clock, staleAfterMs: config.staleAfterMs });
  return { isSiteNode: true, service, routes: siteNodeRoutes(service) };
}
