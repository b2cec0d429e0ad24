import { queryOptions, useQuery } from '@tanstack/react-query';

import { DashboardSchema } from '@boomgate/contracts/entry-logs';

import { request } from '@/lib/api-client';
import { gateKeys } from '@/lib/api/query-keys';

export const dashboardQuery = () =>
  queryOptions({
    queryKey: gateKeys.dashboard,
    queryFn: ({ signal }) => request('GET', '/api/dashboard', { schema: DashboardSchema, signal }),
  });

export function useDashboard() {
  return useQuery(dashboardQuery());
}
