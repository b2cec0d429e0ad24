import {
  infiniteQueryOptions,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';

import { NEXT_CURSOR_HEADER, readCountHeader } from '@boomgate/contracts/primitives';
import {
  INCOMING_FEED_COUNT_HEADERS,
  type IncomingFeedSummary,
  type IncomingRequestEntry,
  IncomingRequestListSchema,
  type ProcessRequestBody,
  ProcessRequestResponseSchema,
} from '@boomgate/contracts/webhooks';

import { request, requestWithHeaders } from '@/lib/api-client';

export const incomingRequestKeys = { pending: ['webhook', 'pending-requests'] as const };

/** Spec §9: the incoming feed polls every 5000 ms (the only screen that polls). */
export const INCOMING_REQUESTS_POLL_MS = 5000;

/** One page of the feed (newest first) with the spec §2 cards over every entry. */
export type PendingRequestsPage = {
  entries: IncomingRequestEntry[];
  summary: IncomingFeedSummary;
  nextCursor: string | null;
};

async function getPendingRequestsPage(
  cursor: string | undefined,
  siteId: string | undefined,
  signal?: AbortSignal,
): Promise<PendingRequestsPage> {
  const { data, headers } = await requestWithHeaders('GET', '/api/webhook/pending-requests', {
    schema: IncomingRequestListSchema,
    query: { cursor, siteId },
    signal,
  });
  return {
    entries: data,
    summary: {
      total: readCountHeader(headers, INCOMING_FEED_COUNT_HEADERS.total),
      processed: readCountHeader(headers, INCOMING_FEED_COUNT_HEADERS.processed),
      pending: readCountHeader(headers, INCOMING_FEED_COUNT_HEADERS.pending),
    },
    nextCursor: headers.get(NEXT_CURSOR_HEADER) || null,
  };
}

/**
 * Pages of the server's default size (100). Each poll refetches every loaded page, from the
 * newest, so the cards and the rows stay current.
 */
export const pendingRequestsQuery = (siteId?: string) =>
  infiniteQueryOptions({
    // Under the pending key, so processing an entry refreshes every site's view.
    queryKey: siteId ? [...incomingRequestKeys.pending, siteId] : incomingRequestKeys.pending,
    queryFn: ({ pageParam, signal }) => getPendingRequestsPage(pageParam, siteId, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
    refetchInterval: INCOMING_REQUESTS_POLL_MS,
  });

export function usePendingRequests(siteId?: string) {
  return useInfiniteQuery(pendingRequestsQuery(siteId));
}

/** POST /api/webhook/process-request/{id}; the pending list is refreshed afterwards (spec §7). */
export function useProcessRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ProcessRequestBody }) =>
      request('POST', `/api/webhook/process-request/${encodeURIComponent(id)}`, {
        schema: ProcessRequestResponseSchema,
        body,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: incomingRequestKeys.pending }),
  });
}
