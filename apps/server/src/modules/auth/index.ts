/**
 * Auth: registration (a new tenant and its admin), sign-in with throttling, password changes,
 * sign-out, and the per-route access check every request passes. Owns no table: the sign-in
 * throttle counts in rate_limit_counters (modules/rate-limits).
 */
import type { MfaService } from '@/modules/mfa';
import type { SessionsService } from '@/modules/sessions';

import { createAuthRepository } from './auth.repository';
import { authRoutes, registerAuthentication } from './auth.routes';
import { type AuthServiceDeps, createAuthService } from './auth.service';

export type { AuthService } from './auth.service';

export function createAuthModule(
  deps: Omit<AuthServiceDeps, 'repository' | 'sessions'> & {
    db: Parameters<typeof createAuthRepository>[0];
    sessions: AuthServiceDeps['sessions'] &
      Pick<SessionsService, 'resolveActor' | 'assertRecentlyAuthenticated'>;
    mfa: AuthServiceDeps['mfa'] &
      Pick<MfaService, 'checkCode' | 'passkeyAuthenticationOptions' | 'checkPasskey'>;
    relyingParty: Parameters<typeof authRoutes>[3];
  },
) {
  const service = createAuthService({ ...deps, repository: createAuthRepository(deps.db) });
  return {
    service,
    routes: authRoutes(service, deps.sessions, deps.mfa, deps.relyingParty),
    registerAuthentication: (app: Parameters<typeof registerAuthentication>[0]) =>
      registerAuthentication(app, deps.sessions, service),
  };
}
