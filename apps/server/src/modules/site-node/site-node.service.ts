import type { SiteSyncStatus } from '@boomgate/contracts/site-sync';

import type { Clock } from '@/platform/clock';
import type { Database } from '@/platform/db';

import { siteNodeStatus } from './site-node.sync';

export type SiteNodeService = ReturnType<typeof createSiteNodeService>;

export function createSiteNodeService({
  database,
  clock,
  staleAfterMs,
}: {
  database: Pick<Database, 'withTenant'>;
  clock: Clock;
  /** SITE_SYNC_STALE_AFTER_MS: either direction older than this and the site decides alone. */
  staleAfterMs: number;
}) {
  return {
    /** `GET /api/site-sync/status` on a site node. */
    async status(tenantId: string): Promise<SiteSyncStatus> {
      return database.withTenant(tenantId, (tx) =>
        siteNodeStatus(tx, { now: clock.now(), staleAfterMs }),
      );
    },
  };
}
