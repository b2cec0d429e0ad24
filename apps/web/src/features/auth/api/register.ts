import { useMutation } from '@tanstack/react-query';

import { AuthResponseSchema, type RegisterBody } from '@boomgate/contracts/auth';

import { request } from '@/lib/api-client';

/** POST /api/auth/register: creates the organization and its first user, and signs them in.
 *  The caller stores the session together with its navigation, so both land in one render. */
export function useRegister() {
  return useMutation({
    mutationFn: (body: RegisterBody) =>
      request('POST', '/api/auth/register', { schema: AuthResponseSchema, body }),
  });
}
