import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import {
  MfaCodeBodySchema,
  MfaResetResponseSchema,
  MfaStatusSchema,
  PasskeyParamsSchema,
  PasskeyRegistrationBodySchema,
  PasskeyRegistrationOptionsSchema,
  PasskeySchema,
  RecoveryCodesResponseSchema,
  TotpSetupResponseSchema,
} from '@boomgate/contracts/mfa';
import { EmptyBodySchema, NoContentSchema } from '@boomgate/contracts/primitives';
import { UserIdParamsSchema } from '@boomgate/contracts/users';

import { ALL_ROLES, REAUTHENTICATION_MINUTES, rolesAccess } from '@/platform/access';

import type { MfaService } from './mfa.service';
import type { RelyingParty } from './relying-party';

// Enrolment is reachable while a required factor is still to be set up (SEC-26), and always
// concerns the caller's own account (never sent acting for another organization).
const ENROLMENT = rolesAccess(ALL_ROLES, { ownAccount: true, allowPendingMfaEnrolment: true });
// Adding a factor also needs a recent password (SEC-25): a session left open on a shared gate
// tablet must not let someone bind their own authenticator or passkey to the account.
const ADDITION = rolesAccess(ALL_ROLES, {
  ownAccount: true,
  allowPendingMfaEnrolment: true,
  recentAuthentication: true,
});
const REMOVAL = rolesAccess(ALL_ROLES, { ownAccount: true, recentAuthentication: true });

/** The signed-in user's own second factors, and an admin's reset of another user's. */
export function mfaRoutes(
  service: MfaService,
  relyingParty: (request: FastifyRequest) => RelyingParty,
): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/auth/mfa',
      {
        config: ENROLMENT,
        schema: {
          tags: ['mfa'],
          operationId: 'getMfaStatus',
          description: "The caller's second factors and whether the organization requires one.",
          response: { 200: MfaStatusSchema },
        },
      },
      async (request) => service.status(request.actor),
    );

    app.post(
      '/auth/mfa/totp/setup',
      {
        config: ADDITION,
        schema: {
          tags: ['mfa'],
          operationId: 'setupTotp',
          description: `A new authenticator secret (base32) and its otpauth:// URL for the QR code. Not in force until confirmed; 409 when an authenticator is already on. Needs a sign-in within ${REAUTHENTICATION_MINUTES} minutes (401 REAUTH_REQUIRED).`,
          body: EmptyBodySchema,
          response: { 200: TotpSetupResponseSchema },
        },
      },
      async (request) => service.setupTotp(request.actor),
    );

    app.post(
      '/auth/mfa/totp/confirm',
      {
        config: ADDITION,
        schema: {
          tags: ['mfa'],
          operationId: 'confirmTotp',
          description:
            'A current code from the new secret turns the authenticator on. Answers the ten recovery codes, this once only.',
          body: MfaCodeBodySchema,
          response: { 200: RecoveryCodesResponseSchema },
        },
      },
      async (request) => service.confirmTotp(request.actor, request.body.code, request.ip),
    );

    app.delete(
      '/auth/mfa/totp',
      {
        config: REMOVAL,
        schema: {
          tags: ['mfa'],
          operationId: 'removeTotp',
          description: `Removes the authenticator app and the recovery codes. Needs a sign-in within ${REAUTHENTICATION_MINUTES} minutes (401 REAUTH_REQUIRED).`,
          response: { 204: NoContentSchema },
        },
      },
      async (request, reply) => {
        await service.removeTotp(request.actor, request.ip);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/auth/mfa/passkeys/registration/options',
      {
        config: ADDITION,
        schema: {
          tags: ['mfa'],
          operationId: 'passkeyRegistrationOptions',
          description:
            'Options for navigator.credentials.create(); the challenge is kept on the session.',
          body: EmptyBodySchema,
          response: { 200: PasskeyRegistrationOptionsSchema },
        },
      },
      async (request) => service.passkeyRegistrationOptions(request.actor, relyingParty(request)),
    );

    app.post(
      '/auth/mfa/passkeys/registration/verify',
      {
        config: ADDITION,
        schema: {
          tags: ['mfa'],
          operationId: 'passkeyRegistrationVerify',
          description:
            "The authenticator's attestation for the session's challenge; saves the passkey.",
          body: PasskeyRegistrationBodySchema,
          response: { 201: PasskeySchema },
        },
      },
      async (request, reply) => {
        const passkey = await service.verifyPasskeyRegistration(
          request.actor,
          request.body,
          relyingParty(request),
          request.ip,
        );
        return reply.code(201).send(passkey);
      },
    );

    app.delete(
      '/auth/mfa/passkeys/:id',
      {
        config: REMOVAL,
        schema: {
          tags: ['mfa'],
          operationId: 'removePasskey',
          description: `Removes one of the caller's passkeys. Needs a sign-in within ${REAUTHENTICATION_MINUTES} minutes (401 REAUTH_REQUIRED).`,
          params: PasskeyParamsSchema,
          response: { 204: NoContentSchema },
        },
      },
      async (request, reply) => {
        await service.removePasskey(request.actor, request.params.id, request.ip);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/users/:id/mfa/reset',
      {
        config: rolesAccess(['super_admin', 'tenant_admin']),
        schema: {
          tags: ['users'],
          operationId: 'resetUserMfa',
          description:
            'Removes every second factor of another user of the organization (a lost phone) and ends their sessions; audited (mfa.reset_by_admin). If MFA is required, they set one up at their next sign-in.',
          params: UserIdParamsSchema,
          body: EmptyBodySchema,
          response: { 200: MfaResetResponseSchema },
        },
      },
      async (request) => service.resetFor(request.actor, request.params.id, request.ip),
    );
  };
}
