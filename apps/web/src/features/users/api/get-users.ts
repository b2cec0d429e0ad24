import { queryOptions, useQuery } from '@tanstack/react-query';

import { UserListSchema } from '@boomgate/contracts/users';

import { request } from '@/lib/api-client';

export const userKeys = {
  all: ['users'] as const,
  list: () => [...userKeys.all, 'list'] as const,
};

export const usersQuery = () =>
  queryOptions({
    queryKey: userKeys.list(),
    queryFn: ({ signal }) => request('GET', '/api/users', { schema: UserListSchema, signal }),
  });

export function useUsers() {
  return useQuery(usersQuery());
}
