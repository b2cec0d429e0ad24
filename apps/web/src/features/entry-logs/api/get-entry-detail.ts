import { queryOptions, useQuery } from '@tanstack/react-query';

import { EntryDetailSchema } from '@boomgate/contracts/entry-detail';

import { request } from '@/lib/api-client';

export const entryDetailQuery = (id: string) =>
  queryOptions({
    queryKey: ['entry-logs', 'detail', id] as const,
    queryFn: ({ signal }) =>
      request('GET', `/api/entry-logs/${encodeURIComponent(id)}`, {
        schema: EntryDetailSchema,
        signal,
      }),
  });

/** GET /api/entry-logs/{id}: the entry with its evidence (masked for guards by the server). */
export function useEntryDetail(id: string) {
  return useQuery(entryDetailQuery(id));
}
