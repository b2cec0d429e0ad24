import { delay, http, HttpResponse } from 'msw';

import type { ApiError, ErrorCode } from '@boomgate/contracts/api-error';
import type { AuthResponse } from '@boomgate/contracts/auth';

/** An error response in the server's envelope (contracts/api-error). */
export function apiError(status: number, code: ErrorCode, message: string) {
  return HttpResponse.json<ApiError>({ error: { code, message } }, { status });
}

export function signedOut() {
  return http.get('/api/auth/me', () => apiError(401, 'UNAUTHENTICATED', 'Sign in to continue.'));
}

export function signedIn(session: AuthResponse) {
  return http.get<never, never, AuthResponse>('/api/auth/me', () => HttpResponse.json(session));
}

/** GET /api/auth/me that answers only after `ms`, to observe the loading state. */
export function slowSignedOut(ms: number) {
  return http.get('/api/auth/me', async () => {
    await delay(ms);
    return apiError(401, 'UNAUTHENTICATED', 'Sign in to continue.');
  });
}

export function logoutSucceeds() {
  return http.post('/api/auth/logout', () => HttpResponse.json({ ok: true as const }));
}
