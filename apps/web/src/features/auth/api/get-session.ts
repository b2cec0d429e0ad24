import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';

import { type AuthResponse, AuthResponseSchema } from '@boomgate/contracts/auth';

import { isHttpError, request } from '@/lib/api-client';

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
        return await request('GET', '/api/auth/me', { schema: AuthResponseSchema, signal });
      } catch (error) {
        if (isHttpError(error, 401)) return null;
        throw error;
      }
    },
    retry: false,
  });

export function useSessionQuery() {
  return useQuery(sessionQuery());
}

/**
 * Whether the app may be used. A session still owing its forced password change is not usable:
 * the server refuses everything but the change, and only the login screen can complete it.
 */
export function isUsableSession(session: AuthResponse | null | undefined): session is AuthResponse {
  return !!session && !session.requirePasswordChange;
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
