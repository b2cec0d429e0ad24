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
  signal?: AbortSignal,
): Promise<TruckListPage> {
  const { data, headers } = await requestWithHeaders('GET', '/api/truck-list', {
    schema: TruckListSchema,
    query: { cursor },
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

/** The server's default page size (100); `gateKeys.truckList` so a granted entry refreshes it. */
export const truckListQuery = () =>
  infiniteQueryOptions({
    queryKey: gateKeys.truckList,
    queryFn: ({ pageParam, signal }) => getTruckListPage(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
  });

export function useTruckList() {
  return useInfiniteQuery(truckListQuery());
}
