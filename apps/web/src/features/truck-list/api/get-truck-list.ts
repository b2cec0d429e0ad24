import { queryOptions, useQuery } from '@tanstack/react-query';

import { TruckListSchema } from '@boomgate/contracts/truck-list';

import { request } from '@/lib/api-client';
import { gateKeys } from '@/lib/api/query-keys';

export const truckListQuery = () =>
  queryOptions({
    queryKey: gateKeys.truckList,
    queryFn: ({ signal }) => request('GET', '/api/truck-list', { schema: TruckListSchema, signal }),
  });

export function useTruckList() {
  return useQuery(truckListQuery());
}
