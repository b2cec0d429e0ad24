import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import {
  IncomingRequestEntrySchema,
  IncomingRequestListSchema,
  type ProcessRequestBody,
} from '@boomgate/contracts/webhooks';

import { request } from '@/lib/api-client';

export const incomingRequestKeys = { pending: ['webhook', 'pending-requests'] as const };

/** Spec §9: the incoming feed polls every 5000 ms (the only screen that polls). */
export const INCOMING_REQUESTS_POLL_MS = 5000;

export const pendingRequestsQuery = () =>
  queryOptions({
    queryKey: incomingRequestKeys.pending,
    queryFn: ({ signal }) =>
      request('GET', '/api/webhook/pending-requests', {
        schema: IncomingRequestListSchema,
        signal,
      }),
    refetchInterval: INCOMING_REQUESTS_POLL_MS,
  });

export function usePendingRequests() {
  return useQuery(pendingRequestsQuery());
}

/** POST /api/webhook/process-request/{id}; the pending list is refreshed afterwards (spec §7). */
export function useProcessRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ProcessRequestBody }) =>
      request('POST', `/api/webhook/process-request/${encodeURIComponent(id)}`, {
        schema: IncomingRequestEntrySchema,
        body,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: incomingRequestKeys.pending }),
  });
}
