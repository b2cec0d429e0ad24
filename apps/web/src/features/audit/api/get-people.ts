import { queryOptions, useQuery } from '@tanstack/react-query';

import { UserListSchema } from '@boomgate/contracts/users';

import { request } from '@/lib/api-client';

/**
 * The organization's people, for the viewer's Person filter. Same key as User Management's list
 * (features stay independent; the cache is shared).
 */
export function usePeople() {
  return useQuery(
    queryOptions({
      queryKey: ['users', 'list'] as const,
      queryFn: ({ signal }) => request('GET', '/api/users', { schema: UserListSchema, signal }),
    }),
  );
}
