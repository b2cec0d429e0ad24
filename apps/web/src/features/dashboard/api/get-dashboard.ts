import { queryOptions, useQuery } from '@tanstack/react-query';

import { DashboardSchema } from '@boomgate/contracts/entry-logs';

import { request } from '@/lib/api-client';
import { gateKeys } from '@/lib/api/query-keys';

/** Issue 16: `siteId` narrows it to one site (under gateKeys.dashboard, so grants refresh it). */
export const dashboardQuery = (siteId?: string) =>
  queryOptions({
    queryKey: siteId ? [...gateKeys.dashboard, siteId] : gateKeys.dashboard,
    queryFn: ({ signal }) =>
      request('GET', '/api/dashboard', {
        schema: DashboardSchema,
        query: { siteId },
        signal,
      }),
  });

export function useDashboard(siteId?: string) {
  return useQuery(dashboardQuery(siteId));
}
