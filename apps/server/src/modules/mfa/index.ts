/**
 * MFA (SEC-26): second factors — TOTP authenticator apps with one-time recovery codes, and
 * passkeys (WebAuthn) — and the per-tenant policy that requires them. The sign-in's second step
 * itself is the auth module's (it owns sessions' start and the throttle).
 * Owns: mfa_totp, mfa_recovery_codes, mfa_passkeys.
 */
import type { FastifyRequest } from 'fastify';

import { createMfaRepository } from './mfa.repository';
import { mfaRoutes } from './mfa.routes';
import { type MfaServiceDeps, createMfaService } from './mfa.service';
import { relyingPartyResolver } from './relying-party';

export type { MfaService } from './mfa.service';
export type { RelyingParty } from './relying-party';
export { isMfaRequired } from './mfa.service';

export function createMfaModule(
  deps: Omit<MfaServiceDeps, 'repository'> & { publicOrigin: string | undefined },
) {
  const service = createMfaService({ ...deps, repository: createMfaRepository() });
  const resolve = relyingPartyResolver(deps.publicOrigin);
  const relyingParty = (request: FastifyRequest) =>
    resolve({ protocol: request.protocol, host: request.host });
  return {
    service,
    relyingParty,
    routes: mfaRoutes(service, relyingParty),
    openApi: {
      tags: [
        {
          name: 'mfa',
          description:
            "Two-step verification (SEC-26): the caller's authenticator app (TOTP, RFC 6238) with ten one-time recovery codes, and passkeys (WebAuthn). The sign-in's second step is under `auth`: `POST /api/auth/login` answers `{ mfaRequired: true, methods }` for an account with a factor, then `POST /api/auth/mfa/verify` or the passkey authentication pair answers the login body.",
        },
      ],
    },
  };
}
