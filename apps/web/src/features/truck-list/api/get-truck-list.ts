import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';

import { NEXT_CURSOR_HEADER, readCountHeader } from '@boomgate/contracts/primitives';
import {
  TRUCK_LIST_COUNT_HEADERS,
  type TruckListEntry,
  TruckListSchema,
  type TruckListSummary,
} from '@boomgate/contracts/truck-list';

import { requestWithHeaders } from '@/lib/api-client';
import { gateKeys } from '@/lib/api/query-keys';

/** One page of GET /api/truck-list (newest first) with the spec §2 cards over every read. */
export type TruckListPage = {
  entries: TruckListEntry[];
  summary: TruckListSummary;
  nextCursor: string | null;
};

async function getTruckListPage(
  cursor: string | undefined,
  siteId: string | undefined,
  signal?: AbortSignal,
): Promise<TruckListPage> {
  const { data, headers } = await requestWithHeaders('GET', '/api/truck-list', {
    schema: TruckListSchema,
    query: { cursor, siteId },
    signal,
  });
  return {
    entries: data,
    summary: {
      total: readCountHeader(headers, TRUCK_LIST_COUNT_HEADERS.total),
      withOrderNumber: readCountHeader(headers, TRUCK_LIST_COUNT_HEADERS.withOrderNumber),
      todaysArrivals: readCountHeader(headers, TRUCK_LIST_COUNT_HEADERS.todaysArrivals),
    },
    nextCursor: headers.get(NEXT_CURSOR_HEADER) || null,
  };
}

/**
 * The server's default page size (100); under `gateKeys.truckList` so a granted entry refreshes
 * it. Issue 16: `siteId` narrows it to one site's reads.
 */
export const truckListQuery = (siteId?: string) =>
  infiniteQueryOptions({
    queryKey: siteId ? [...gateKeys.truckList, siteId] : gateKeys.truckList,
    queryFn: ({ pageParam, signal }) => getTruckListPage(pageParam, siteId, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
  });

export function useTruckList(siteId?: string) {
  return useInfiniteQuery(truckListQuery(siteId));
}
