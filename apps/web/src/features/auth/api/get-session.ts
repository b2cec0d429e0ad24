import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';

import type { AuthResponse } from '@boomgate/contracts/auth';

import { isHttpError, requestBlob } from '@/lib/api-client';
import { recallSession, rememberSession } from '@/lib/offline/session-memory';

export const authKeys = {
  all: ['auth'] as const,
  session: () => [...authKeys.all, 'session'] as const,
};

/**
 * GET /api/auth/me. A 401 means "signed out" and resolves to null, so the app can tell a missing
 * session from a failing server. Never retried (spec §4), even if the client default changes.
 */
export const sessionQuery = () =>
  queryOptions({
    queryKey: authKeys.session(),
    queryFn: async ({ signal }): Promise<AuthResponse | null> => {
      try {
        // The contract (and zod with it) downloads beside the request rather than with the app's
        // first code, which then starts the request sooner; the answer is still parsed with it.
        const contract = import('@boomgate/contracts/auth');
        contract.catch(() => undefined); // awaited below unless the request failed first
        const body = await (await requestBlob('GET', '/api/auth/me', { signal })).text();
        const { AuthResponseSchema } = await contract;
        const session = AuthResponseSchema.parse(JSON.parse(body));
        rememberSession(session);
        return session;
      } catch (error) {
        if (isHttpError(error, 401)) {
          rememberSession(null);
          return null;
        }
        // Issue 18: no answer at all (the server or the network is down) opens the app for the
        // last confirmed session, so the guard can keep recording offline.
        if (error instanceof TypeError) {
          const { AuthResponseSchema } = await import('@boomgate/contracts/auth');
          const remembered = AuthResponseSchema.safeParse(recallSession());
          if (remembered.success) return remembered.data;
        }
        throw error;
      }
    },
    retry: false,
  });

export function useSessionQuery() {
  return useQuery(sessionQuery());
}

/**
 * Whether the app may be used. A session still owing its forced password change, or limited to
 * setting up a required second factor, is not usable: the server refuses everything but that,
 * and only the login screen can complete it.
 */
export function isUsableSession(session: AuthResponse | null | undefined): session is AuthResponse {
  return !!session && !session.requirePasswordChange && !session.requireMfaEnrolment;
}

/** The signed-in user and tenant. Only for components rendered inside <ProtectedRoute>. */
export function useSession(): AuthResponse {
  const { data } = useSessionQuery();
  if (!isUsableSession(data)) throw new Error('useSession must be used inside <ProtectedRoute>');
  return data;
}

export function setSession(queryClient: QueryClient, session: AuthResponse | null) {
  queryClient.setQueryData(authKeys.session(), session);
}

/** The cached GET /api/auth/me answer: undefined until it arrived, null when signed out. */
export function getSession(queryClient: QueryClient): AuthResponse | null | undefined {
  return queryClient.getQueryData<AuthResponse | null>(authKeys.session());
}
