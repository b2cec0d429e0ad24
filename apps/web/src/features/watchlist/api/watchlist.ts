import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { NoContentSchema } from '@boomgate/contracts/primitives';
import {
  type CreateWatchlistEntry,
  WatchlistEntrySchema,
  WatchlistSchema,
} from '@boomgate/contracts/watchlist';

import { request } from '@/lib/api-client';

export const watchlistKeys = { all: ['watchlist'] as const };

export const watchlistQuery = () =>
  queryOptions({
    queryKey: watchlistKeys.all,
    queryFn: ({ signal }) => request('GET', '/api/watchlist', { schema: WatchlistSchema, signal }),
  });

export function useWatchlist() {
  return useQuery(watchlistQuery());
}

export function useAddToWatchlist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateWatchlistEntry) =>
      request('POST', '/api/watchlist', { schema: WatchlistEntrySchema, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: watchlistKeys.all }),
  });
}

export function useRemoveFromWatchlist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      request('DELETE', `/api/watchlist/${encodeURIComponent(id)}`, { schema: NoContentSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: watchlistKeys.all }),
  });
}
