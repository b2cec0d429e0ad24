import { useMutation, useQueryClient } from '@tanstack/react-query';

import { UserSchema } from '@boomgate/contracts/users';

import { request } from '@/lib/api-client';

import { userKeys } from './get-users';

/** PATCH /api/users/:id/deactivate, sent without a body. */
export function useDeactivateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      request('PATCH', `/api/users/${encodeURIComponent(id)}/deactivate`, { schema: UserSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
