import { useQuery } from '@tanstack/react-query';

import { SiteSyncStatusSchema } from '@boomgate/contracts/site-sync';

import { request } from '@/lib/api-client';

/** Half the node's pull interval: the banner appears within ~15 s of the status turning. */
const SITE_SYNC_STATUS_REFRESH_MS = 15_000;

/** Issue 28: whether this server is a site node and when it last synced with head office. */
export function useSiteSyncStatus() {
  return useQuery({
    queryKey: ['site-sync', 'status'] as const,
    queryFn: ({ signal }) =>
      request('GET', '/api/site-sync/status', { schema: SiteSyncStatusSchema, signal }),
    refetchInterval: SITE_SYNC_STATUS_REFRESH_MS,
  });
}
