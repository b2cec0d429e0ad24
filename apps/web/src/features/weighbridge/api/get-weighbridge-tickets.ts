import { queryOptions, useQuery } from '@tanstack/react-query';

import { WeighbridgeTicketListSchema } from '@boomgate/contracts/documents';

import { request } from '@/lib/api-client';
import { gateKeys } from '@/lib/api/query-keys';

export const weighbridgeTicketsQuery = () =>
  queryOptions({
    queryKey: gateKeys.weighbridgeTickets,
    queryFn: ({ signal }) =>
      request('GET', '/api/weighbridge-tickets', { schema: WeighbridgeTicketListSchema, signal }),
  });

export function useWeighbridgeTickets() {
  return useQuery(weighbridgeTicketsQuery());
}
