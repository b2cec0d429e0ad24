import type { ReactNode } from 'react';
import { Redirect } from 'wouter';

import { landingPathFor } from '@boomgate/contracts/role-paths';

import { LoadingScreen } from '@/components/ui/spinner';

import { isUsableSession, useSessionQuery } from '../api/get-session';

/** The signed-out screens. A user who is already signed in goes to their landing page instead. */
export function GuestRoute({ children }: { children: ReactNode }) {
  const session = useSessionQuery();

  if (session.isPending) return <LoadingScreen />;
  if (isUsableSession(session.data)) {
    return <Redirect to={landingPathFor(session.data.user.role)} replace />;
  }
  return children;
}
