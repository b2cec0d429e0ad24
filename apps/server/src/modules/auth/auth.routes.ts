import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import {
  AuthResponseSchema,
  ChangePasswordBodySchema,
  LoginBodySchema,
  LoginResponseSchema,
  LogoutResponseSchema,
  ReauthBodySchema,
  RegisterBodySchema,
  isMfaChallenge,
} from '@boomgate/contracts/auth';
import {
  MfaCodeBodySchema,
  PasskeyAuthenticationBodySchema,
  PasskeyAuthenticationOptionsSchema,
} from '@boomgate/contracts/mfa';
import { PreferencesBodySchema, PreferencesSchema } from '@boomgate/contracts/preferences';
import { EmptyBodySchema } from '@boomgate/contracts/primitives';

import type { MfaService, RelyingParty } from '@/modules/mfa';
import type { Actor, SessionsService } from '@/modules/sessions';
import {
  ACT_FOR_TENANT_HEADER,
  ACT_REASON_HEADER,
  ALL_ROLES,
  REAUTHENTICATION_MINUTES,
  publicAccess,
  rolesAccess,
} from '@/platform/access';
import { AppError, STATUS_BY_CODE } from '@/platform/errors';
import { sendError } from '@/platform/http';

import type { AuthService, ClientInfo, SignedIn } from './auth.service';

// `__Host-` binds the cookie to this exact origin over TLS; browsers reject it on plain HTTP,
// so local http://localhost uses the plain name. Both are HttpOnly and SameSite=Lax.
const SECURE_COOKIE = '__Host-bg_session';
const PLAIN_COOKIE = 'bg_session';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user. Set on every route that declares roles; absent on public routes. */
    actor: Actor;
  }
}

const targetTenant = (request: FastifyRequest) => request.headers[ACT_FOR_TENANT_HEADER];

const clientOf = (request: FastifyRequest): ClientInfo => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});

function readSessionToken(request: FastifyRequest): string | undefined {
  return request.cookies[SECURE_COOKIE] ?? request.cookies[PLAIN_COOKIE];
}

function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  { token, expiresAt }: Pick<SignedIn, 'token' | 'expiresAt'>,
) {
  const isSecure = request.protocol === 'https';
  void reply.setCookie(isSecure ? SECURE_COOKIE : PLAIN_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isSecure,
    expires: expiresAt,
  });
}

function clearSessionCookies(reply: FastifyReply) {
  void reply.clearCookie(PLAIN_COOKIE, { path: '/' });
  void reply.clearCookie(SECURE_COOKIE, { path: '/', secure: true });
}

/**
 * Enforces each route's declared access before the body is even parsed: no session → 401,
 * wrong role → 403, admin-set password still unchanged → 403 except on the routes that fix it.
 * SEC-26: a session owing its second factor reaches only the second-step routes (401 elsewhere);
 * one limited to enrolment only the enrolment routes (403 elsewhere, like the password change).
 */
export function registerAuthentication(
  app: FastifyInstance,
  sessions: Pick<SessionsService, 'resolveActor' | 'assertRecentlyAuthenticated'>,
  service: Pick<AuthService, 'actForTenant'>,
) {
  app.decorateRequest('actor', null as unknown as Actor);
  app.addHook('onRequest', async (request, reply) => {
    const access = request.routeOptions.config.access;
    if (!access || 'public' in access) return;
    const token = readSessionToken(request);
    const actor = token ? await sessions.resolveActor(token) : undefined;
    if (!actor)
      return sendError(reply, new AppError('UNAUTHENTICATED', 'Please sign in to continue.'));
    if (!access.roles.includes(actor.role)) {
      request.log.info(
        { userId: actor.userId, tenantId: actor.tenantId, url: request.url },
        'access denied by role',
      );
      return sendError(reply, new AppError('FORBIDDEN', 'You do not have permission to do this.'));
    }
    if (actor.mfaPending === 'verify') {
      if (!access.secondFactor) {
        return sendError(
          reply,
          new AppError('UNAUTHENTICATED', 'Enter your verification code to finish signing in.'),
        );
      }
      if (targetTenant(request) !== undefined) {
        return sendError(
          reply,
          new AppError('FORBIDDEN', 'This request concerns your own account, not an organization.'),
        );
      }
      request.actor = actor;
      return;
    }
    if (access.secondFactor) {
      return sendError(
        reply,
        new AppError('CONFLICT', 'You are already signed in: no verification code is needed.'),
      );
    }
    if (actor.mfaPending === 'enrol' && !access.allowPendingMfaEnrolment) {
      return sendError(
        reply,
        new AppError('FORBIDDEN', 'Please set up two-step verification to continue.'),
      );
    }
    if (actor.mustChangePassword && !access.allowPendingPasswordChange) {
      return sendError(
        reply,
        new AppError('FORBIDDEN', 'Please change your password to continue.'),
      );
    }
    if (access.recentAuthentication) {
      try {
        sessions.assertRecentlyAuthenticated(actor);
      } catch (error) {
        if (error instanceof AppError) return sendError(reply, error);
        throw error;
      }
    }
    if (targetTenant(request) === undefined) {
      request.actor = actor;
      return;
    }
    // The account's own routes (me, change-password) always concern the caller's own tenant.
    if (access.allowPendingPasswordChange || access.ownAccount || access.allowPendingMfaEnrolment) {
      return sendError(
        reply,
        new AppError('FORBIDDEN', 'This request concerns your own account, not an organization.'),
      );
    }
    try {
      request.actor = await service.actForTenant(
        actor,
        {
          tenantId: String(targetTenant(request)),
          reason: String(request.headers[ACT_REASON_HEADER] ?? ''),
          method: request.method,
          route: request.routeOptions.url ?? request.url,
        },
        clientOf(request),
      );
    } catch (error) {
      if (error instanceof AppError) return sendError(reply, error);
      throw error;
    }
    if (request.actor.tenantId !== actor.tenantId) {
      request.log.info(
        {
          event: 'auth.acted_for_tenant',
          userId: actor.userId,
          homeTenantId: actor.tenantId,
          tenantId: request.actor.tenantId,
        },
        'super admin acting for another organization',
      );
    }
  });
}

export function authRoutes(
  service: AuthService,
  sessions: Pick<SessionsService, 'resolveActor'>,
  mfa: Pick<MfaService, 'checkCode' | 'passkeyAuthenticationOptions' | 'checkPasskey'>,
  relyingParty: (request: FastifyRequest) => RelyingParty,
): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/auth/register',
      {
        config: publicAccess(),
        schema: {
          tags: ['auth'],
          operationId: 'register',
          body: RegisterBodySchema,
          response: { 201: AuthResponseSchema },
        },
      },
      async (request, reply) => {
        const signedIn = await service.register(request.body, clientOf(request));
        setSessionCookie(request, reply, signedIn);
        return reply.code(201).send(signedIn.response);
      },
    );

    app.post(
      '/auth/login',
      {
        config: publicAccess(),
        schema: {
          tags: ['auth'],
          operationId: 'login',
          description:
            'The password step. For an account with a second factor: `{ mfaRequired: true, methods }` and a session that can only complete the second step (POST /api/auth/mfa/verify or the passkey pair); every other route answers it 401.',
          body: LoginBodySchema,
          response: { 200: LoginResponseSchema },
        },
      },
      async (request, reply) => {
        try {
          const signedIn = await service.login(request.body, clientOf(request));
          const { response } = signedIn;
          if (isMfaChallenge(response)) {
            request.log.info(
              { event: 'auth.login_second_factor_pending', methods: response.methods },
              'password accepted; second factor owed',
            );
          } else {
            request.log.info(
              { event: 'auth.login', tenantId: response.tenant.id, userId: response.user.id },
              'signed in',
            );
          }
          setSessionCookie(request, reply, signedIn);
          return response;
        } catch (error) {
          if (error instanceof AppError) {
            request.log.info(
              { event: 'auth.login_failed', status: STATUS_BY_CODE[error.code] },
              'sign-in refused',
            );
          }
          throw error;
        }
      },
    );

    // SEC-26, the second step. Failures count in the sign-in throttle; success replaces the
    // pending session with a complete one (a new cookie) and answers the login body.
    const completeSecondFactor = async (
      request: FastifyRequest,
      reply: FastifyReply,
      check: Parameters<AuthService['completeSecondFactor']>[2],
    ) => {
      try {
        const signedIn = await service.completeSecondFactor(
          request.actor,
          clientOf(request),
          check,
        );
        request.log.info(
          { event: 'auth.login', tenantId: request.actor.tenantId, userId: request.actor.userId },
          'signed in with a second factor',
        );
        setSessionCookie(request, reply, signedIn);
        return signedIn.response;
      } catch (error) {
        if (error instanceof AppError) {
          request.log.info(
            { event: 'auth.second_factor_failed', status: STATUS_BY_CODE[error.code] },
            'second factor refused',
          );
        }
        throw error;
      }
    };

    app.post(
      '/auth/mfa/verify',
      {
        config: rolesAccess(ALL_ROLES, { secondFactor: true }),
        schema: {
          tags: ['auth'],
          operationId: 'verifySecondFactor',
          description:
            'The second sign-in step with a code: six digits from the authenticator app (a time step already used is refused) or a recovery code (each works once). Answers the login body; wrong codes count in the sign-in throttle.',
          body: MfaCodeBodySchema,
          response: { 200: AuthResponseSchema },
        },
      },
      async (request, reply) =>
        completeSecondFactor(request, reply, (tx) =>
          mfa.checkCode(tx, request.actor, request.body.code),
        ),
    );

    app.post(
      '/auth/mfa/passkeys/authentication/options',
      {
        config: rolesAccess(ALL_ROLES, { secondFactor: true }),
        schema: {
          tags: ['auth'],
          operationId: 'passkeyAuthenticationOptions',
          description:
            'The second sign-in step with a passkey: options for navigator.credentials.get().',
          body: EmptyBodySchema,
          response: { 200: PasskeyAuthenticationOptionsSchema },
        },
      },
      async (request) => mfa.passkeyAuthenticationOptions(request.actor, relyingParty(request)),
    );

    app.post(
      '/auth/mfa/passkeys/authentication/verify',
      {
        config: rolesAccess(ALL_ROLES, { secondFactor: true }),
        schema: {
          tags: ['auth'],
          operationId: 'passkeyAuthenticationVerify',
          description:
            "The passkey's signature over the session's challenge. Answers the login body; failures count in the sign-in throttle.",
          body: PasskeyAuthenticationBodySchema,
          response: { 200: AuthResponseSchema },
        },
      },
      async (request, reply) =>
        completeSecondFactor(request, reply, (tx) =>
          mfa.checkPasskey(tx, request.actor, request.body, relyingParty(request)),
        ),
    );

    app.get(
      '/auth/me',
      {
        config: rolesAccess(ALL_ROLES, {
          allowPendingPasswordChange: true,
          allowPendingMfaEnrolment: true,
        }),
        schema: {
          tags: ['auth'],
          operationId: 'getCurrentUser',
          response: { 200: AuthResponseSchema },
        },
      },
      async (request) => service.me(request.actor),
    );

    app.patch(
      '/auth/preferences',
      {
        config: rolesAccess(ALL_ROLES, { ownAccount: true }),
        schema: {
          tags: ['auth'],
          operationId: 'updatePreferences',
          description:
            "The signed-in user's own preferences: the app's language, which GET /api/auth/me then returns as `user.language` on every device (issue 19). Audited `user.language_changed`.",
          body: PreferencesBodySchema,
          response: { 200: PreferencesSchema },
        },
      },
      async (request) => service.setLanguage(request.actor, request.body.language, request.ip),
    );

    app.post(
      '/auth/reauth',
      {
        config: rolesAccess(ALL_ROLES, { ownAccount: true, allowPendingMfaEnrolment: true }),
        schema: {
          tags: ['auth'],
          operationId: 'reauthenticate',
          description: `Confirms the signed-in user's password and starts a fresh session (a new cookie). Routes that answer 401 REAUTH_REQUIRED accept the new session for ${REAUTHENTICATION_MINUTES} minutes. Failures count towards the sign-in throttle.`,
          body: ReauthBodySchema,
          response: { 200: AuthResponseSchema },
        },
      },
      async (request, reply) => {
        const signedIn = await service.reauthenticate(
          request.actor,
          request.body,
          clientOf(request),
        );
        setSessionCookie(request, reply, signedIn);
        return signedIn.response;
      },
    );

    app.post(
      '/auth/change-password',
      {
        config: rolesAccess(ALL_ROLES, {
          allowPendingPasswordChange: true,
          allowPendingMfaEnrolment: true,
        }),
        schema: {
          tags: ['auth'],
          operationId: 'changePassword',
          body: ChangePasswordBodySchema,
          response: { 200: AuthResponseSchema },
        },
      },
      async (request, reply) => {
        const signedIn = await service.changePassword(
          request.actor,
          request.body,
          clientOf(request),
        );
        setSessionCookie(request, reply, signedIn);
        return signedIn.response;
      },
    );

    // Public so that signing out always succeeds and always clears the cookie, even if the
    // session has already expired.
    app.post(
      '/auth/logout',
      {
        config: publicAccess(),
        schema: {
          tags: ['auth'],
          operationId: 'logout',
          body: EmptyBodySchema,
          response: { 200: LogoutResponseSchema },
        },
      },
      async (request, reply) => {
        const token = readSessionToken(request);
        const actor = token ? await sessions.resolveActor(token) : undefined;
        if (actor) await service.logout(actor, clientOf(request));
        clearSessionCookies(reply);
        void reply.header('clear-site-data', '"cookies"');
        return { ok: true as const };
      },
    );
  };
}
