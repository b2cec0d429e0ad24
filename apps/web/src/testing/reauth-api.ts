import { http, HttpResponse } from 'msw';

import type { ReauthBody } from '@boomgate/contracts/auth';

import { aSession } from './data';
import { apiError } from './handlers';

/**
 * An in-memory stand-in for SEC-25: sensitive routes answer 401 REAUTH_REQUIRED (`refusal()`)
 * until POST /api/auth/reauth got `password`; a wrong one is 400 with the server's message.
 */
export function createReauthApi(password = 'admin-pass-1') {
  let isRecent = false;
  const attempts: string[] = [];

  const handlers = [
    http.post<never, ReauthBody>('/api/auth/reauth', async ({ request }) => {
      const body = await request.json();
      attempts.push(body.password);
      if (body.password !== password) return apiError(400, 'INVALID', 'Password is incorrect');
      isRecent = true;
      return HttpResponse.json(aSession());
    }),
  ];

  /** The REAUTH_REQUIRED answer while the password has not been confirmed, else undefined. */
  const refusal = () =>
    isRecent
      ? undefined
      : apiError(
          401,
          'REAUTH_REQUIRED',
          'Confirm your password to continue: this needs a sign-in within the last 15 minutes (POST /api/auth/reauth).',
        );

  return { handlers, refusal, attempts };
}
