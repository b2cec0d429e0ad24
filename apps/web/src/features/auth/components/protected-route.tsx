import type { ReactNode } from 'react';
import { Redirect } from 'wouter';

import { LoadingScreen } from '@/components/ui/spinner';
import { paths } from '@/config/paths';

import { isUsableSession, useSessionQuery } from '../api/get-session';

/**
 * Renders its children only for a signed-in user: 'Loading...' while GET /api/auth/me is in
 * flight, and a redirect to /login when there is no session (or the check failed).
 */
export function ProtectedRoute({ children }: { children: ReactNode }) {
  const session = useSessionQuery();

  if (session.isPending) return <LoadingScreen />;
  if (!isUsableSession(session.data)) return <Redirect to={paths.login} replace />;
  return children;
}
