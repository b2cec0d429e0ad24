import { useMutation, useQueryClient } from '@tanstack/react-query';

import { type UpdateUserBody, UserSchema } from '@boomgate/contracts/users';

import { request } from '@/lib/api-client';

import { userKeys } from './get-users';

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateUserBody }) =>
      request('PATCH', `/api/users/${encodeURIComponent(id)}`, { schema: UserSchema, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
