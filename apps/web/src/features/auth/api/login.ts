import { useMutation } from '@tanstack/react-query';

import { type LoginBody, LoginResponseSchema } from '@boomgate/contracts/auth';

import { request } from '@/lib/api-client';

/**
 * POST /api/auth/login. The caller stores the session: a forced password change must come first,
 * and an account with a second factor answers `{ mfaRequired, methods }` instead (SEC-26).
 */
export function useLogin() {
  return useMutation({
    mutationFn: (body: LoginBody) =>
      request('POST', '/api/auth/login', { schema: LoginResponseSchema, body }),
  });
}
