import { useMutation } from '@tanstack/react-query';

import { AuthResponseSchema, type ChangePasswordBody } from '@boomgate/contracts/auth';

import { request } from '@/lib/api-client';

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordBody) =>
      request('POST', '/api/auth/change-password', { schema: AuthResponseSchema, body }),
  });
}
