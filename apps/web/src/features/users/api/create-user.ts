import { useMutation, useQueryClient } from '@tanstack/react-query';

import { type CreateUserBody, UserSchema } from '@boomgate/contracts/users';

import { request } from '@/lib/api-client';

import { userKeys } from './get-users';

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateUserBody) =>
      request('POST', '/api/users', { schema: UserSchema, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
