import { useMutation } from '@tanstack/react-query';

import { MfaResetResponseSchema } from '@boomgate/contracts/mfa';

import { request } from '@/lib/api-client';

/** POST /api/users/:id/mfa/reset: removes the user's second factors (a lost phone), audited. */
export function useResetUserMfa() {
  return useMutation({
    mutationFn: (id: string) =>
      request('POST', `/api/users/${encodeURIComponent(id)}/mfa/reset`, {
        schema: MfaResetResponseSchema,
        body: {},
      }),
  });
}
