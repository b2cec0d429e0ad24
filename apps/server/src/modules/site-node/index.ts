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
import { z } from 'zod';

import type { SiteNodeConfig } from '@/config/env';
import type { Clock } from '@/platform/clock';
import type { Database } from '@/platform/db';
import { type Job, type ScheduledJob, defineJob } from '@/platform/jobs';

import { pruneOutboxObjects } from './site-node.outbox';
import { siteNodeRoutes } from './site-node.routes';
import { createSiteNodeService } from './site-node.service';

export { createSiteFacts, recordSiteFact, type SiteFact, type SiteFacts } from './site-facts';
export { registerManagedCentrally, MANAGED_CENTRALLY_MESSAGE } from './site-node.routes';
export { startSiteNodeRuntime } from './site-node.runtime';
export { outboxSealedTable } from './site-node.outbox-reseal';

export function createSiteNodeModule({
  database,
  clock,
  config,
}: {
  database: Pick<Database, 'withTenant' | 'db'>;
  clock: Clock;
  config: SiteNodeConfig | undefined;
}) {
  // On central, GET /api/site-sync/status is central's own (the site-sync module's nodes view).
  if (!config)
    return {
      isSiteNode: false,
      routes: (async () => undefined) as FastifyPluginAsync,
      jobs: [] as Job<unknown>[],
      schedules: [] as ScheduledJob[],
    };
  const service = createSiteNodeService({ database, clock, staleAfterMs: config.staleAfterMs });
  // Daily: acknowledged facts older than SITE_OUTBOX_OBJECT_RETENTION_DAYS lose their objects'
  // bytes (kept in the node's storage); the fact's row and the objects' digests stay.
  const pruneOutbox = defineJob({
    name: 'site-node.prune-outbox-objects',
    maxAttempts: 3,
    payload: z.unknown(),
    async run(_payload, { log }) {
      const pruned = await pruneOutboxObjects(database, {
        now: clock.now(),
        retentionDays: config.outboxObjectRetentionDays,
      });
      if (pruned > 0) log('info', `pruned the objects of ${pruned} acknowledged site fact(s)`);
    },
  });
  return {
    isSiteNode: true,
    service,
    routes: siteNodeRoutes(service),
    jobs: [pruneOutbox] as Job<unknown>[],
    schedules: [{ job: pruneOutbox, schedule: '53 3 * * *' }] as ScheduledJob[],
  };
}
