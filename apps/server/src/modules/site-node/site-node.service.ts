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
  /** Set on a site node (SITE_NODE=1); absent on central. */
  staleAfterMs?: number;
}) {
  return {
    async status(tenantId: string): Promise<SiteSyncStatus> {
      if (staleAfterMs === undefined)
        // Central: the per-node view (each node's last sync) is the Sites screen's (issue 28a).
        return {
          mode: 'central',
          lastDownSyncAt: null,
          lastUpSyncAt: null,
          oldestUnacknowledgedAt: null,
          offline: false,
        };
      return database.withTenant(tenantId, (tx) =>
        siteNodeStatus(tx, { now: clock.now(), staleAfterMs }),
      );
    },
  };
}
