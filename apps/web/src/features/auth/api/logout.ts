import { useMutation, useQueryClient } from '@tanstack/react-query';

import { LogoutResponseSchema } from '@boomgate/contracts/auth';

import { request } from '@/lib/api-client';

import { authKeys, setSession } from './get-session';

/**
 * POST /api/auth/logout. On success every cached query is dropped (spec §4) and the session is
 * set to "signed out" in place, so mounted observers see it without another request.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => request('POST', '/api/auth/logout', { schema: LogoutResponseSchema }),
    onSuccess: () => {
      queryClient.removeQueries({
        predicate: (query) => query.queryKey[0] !== authKeys.all[0],
      });
      setSession(queryClient, null);
    },
  });
}
