import { useMutation } from '@tanstack/react-query';

import { AuthResponseSchema, type LoginBody } from '@boomgate/contracts/auth';

import { request } from '@/lib/api-client';

/** POST /api/auth/login. The caller stores the session: a forced password change must come first. */
export function useLogin() {
  return useMutation({
    mutationFn: (body: LoginBody) =>
      request('POST', '/api/auth/login', { schema: AuthResponseSchema, body }),
  });
}
