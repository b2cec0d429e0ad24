import type { LanguageCode, Preferences } from '@boomgate/contracts/preferences';
import { LanguageSchema } from '@boomgate/contracts/preferences';
import type {
  AuthResponse,
  ChangePasswordBody,
  LoginBody,
  LoginResponse,
  MfaMethod,
  ReauthBody,
  RegisterBody,
} from '@boomgate/contracts/auth';

import type { AuditService } from '@/modules/audit';
import type { MfaService } from '@/modules/mfa';
import type { RateLimitStore } from '@/modules/rate-limits';
import type { Actor, MfaPending, SessionsService } from '@/modules/sessions';
import type { TenantsRepository } from '@/modules/tenants';
import { type UserRow, type UsersService, toUser } from '@/modules/users';
import type { Clock } from '@/platform/clock';
import type { Database, Tx } from '@/platform/db';
import { AppError } from '@/platform/errors';
import { newId } from '@/platform/ids';
import {
  hashPassword,
  needsRehash,
  verifyAgainstDummy,
  verifyPassword,
} from '@/platform/passwords';

import type { AuthRepository } from './auth.repository';
import {
  type ThrottleAttempt,
  type ThrottleLimits,
  accountThrottleKey,
  createLoginThrottle,
  ipThrottleKey,
} from './login-throttle';

export type AuthServiceDeps = {
  database: Pick<Database, 'withTenant'>;
  repository: AuthRepository;
  tenants: TenantsRepository;
  users: Pick<UsersService, 'insertUser' | 'findById' | 'updateById' | 'assertPasswordPolicy'>;
  sessions: Pick<SessionsService, 'startSession' | 'endSession' | 'endAllSessionsOf'>;
  audit: Pick<AuditService, 'record'>;
  mfa: Pick<MfaService, 'signInState'>;
  clock: Clock;
  throttle: ThrottleLimits;
  /** The shared rate-limit counters (PostgreSQL) the sign-in throttle counts in. */
  counters: RateLimitStore;
};

export type ClientInfo = { ip: string; userAgent?: string };
export type SignedIn<Response = AuthResponse> = {
  response: Response;
  token: string;
  expiresAt: Date;
};

const INVALID_CREDENTIALS = 'Invalid username or password';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type AuthService = ReturnType<typeof createAuthService>;

export function createAuthService({
  database,
  repository,
  tenants,
  users,
  sessions,
  audit,
  mfa,
  clock,
  throttle,
  counters,
}: AuthServiceDeps) {
  const loginThrottle = createLoginThrottle({ store: counters, limits: throttle });

  /**
   * Counts this attempt against the account and the client address before the secret is
   * checked (one statement per key, race-free), or refuses it with 429 while either is locked.
   * Every secret the throttle guards (password at sign-in and reauth) goes through here. A wrong
   * secret needs nothing more (it is already counted); a right one calls `clearThrottle`.
   */
  async function assertNotThrottled(keys: string[]): Promise<ThrottleAttempt> {
    return loginThrottle.begin(keys);
  }

  /** A right secret: the account's failures are forgotten, the address gets its attempt back. */
  async function clearThrottle(states: ThrottleAttempt, accountKey: string) {
    await loginThrottle.succeeded(states, accountKey);
  }

  /**
   * Starts a session for a user who just gave their password (and second factor, when they have
   * one), audited as `action`. `mfaPending: 'enrol'`: a required second factor is not set up yet.
   */
  async function signIn(
    tx: Tx,
    user: UserRow,
    tenant: { id: string; name: string },
    action: string,
    client: ClientInfo,
    {
      mfaPending = null,
      details,
    }: { mfaPending?: MfaPending; details?: Record<string, unknown> } = {},
  ): Promise<SignedIn> {
    const session = await sessions.startSession(tx, {
      tenantId: tenant.id,
      userId: user.id,
      ...client,
      mfaPending,
    });
    await audit.record(tx, {
      tenantId: tenant.id,
      actorUserId: user.id,
      action,
      ip: client.ip,
      ...(details ? { details } : {}),
    });
    return {
      response: {
        user: { ...toUser(user), language: languageOf(user) },
        tenant: { id: tenant.id, name: tenant.name },
        requirePasswordChange: user.mustChangePassword,
        ...(mfaPending === 'enrol' ? { requireMfaEnrolment: true } : {}),
      },
      ...session,
    };
  }

  /**
   * The signed-in user proves a secret again (a second factor, or the password for SEC-25), counted
   * in the sign-in throttle. Right: this session is replaced by a fresh one. Wrong: the failure is
   * audited and thrown after the transaction, so the throttle and the audit row are kept.
   */
  async function restartSessionAfterSecret<Proof>(
    actor: Actor,
    client: ClientInfo,
    {
      check,
      failedAction,
      failure,
      signedInAction,
      options,
    }: {
      check: (tx: Tx, user: UserRow) => Promise<Proof | null>;
      failedAction: string;
      failure: () => AppError;
      signedInAction: string;
      options: (proof: Proof) => Parameters<typeof signIn>[5];
    },
  ): Promise<SignedIn> {
    const accountKey = accountThrottleKey(actor.username);
    const ipKey = ipThrottleKey(client.ip);
    const states = await assertNotThrottled([accountKey, ipKey]);
    const signedIn = await database.withTenant(actor.tenantId, async (tx) => {
      const user = await users.findById(tx, actor.tenantId, actor.userId);
      const proof = user ? await check(tx, user) : null;
      if (!user || proof === null) {
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: failedAction,
          ip: client.ip,
        });
        return null;
      }
      await sessions.endSession(tx, actor);
      const tenant = { id: actor.tenantId, name: actor.tenantName };
      return signIn(tx, user, tenant, signedInAction, client, options(proof));
    });
    if (!signedIn) throw failure();
    // After the commit: a transaction never waits for a second pooled connection.
    await clearThrottle(states, accountKey);
    return signedIn;
  }

  return {
    /** Creates the organization and its first tenant_admin, and signs them in. */
    async register(body: RegisterBody, client: ClientInfo): Promise<SignedIn> {
      users.assertPasswordPolicy(body.password);
      const tenantId = newId();
      return database.withTenant(tenantId, async (tx) => {
        const tenant = await tenants.insert(tx, { id: tenantId, name: body.organizationName });
        const user = await users.insertUser(tx, {
          tenantId,
          username: body.username,
          password: body.password,
          fullName: body.fullName,
          email: body.email ?? null,
          role: 'tenant_admin',
        });
        const session = await sessions.startSession(tx, { tenantId, userId: user.id, ...client });
        await audit.record(tx, {
          tenantId,
          actorUserId: user.id,
          action: 'tenant.registered',
          ip: client.ip,
        });
        return {
          response: {
            user: { ...toUser(user), language: languageOf(user) },
            tenant: { id: tenant.id, name: tenant.name },
          },
          ...session,
        };
      });
    },

    /**
     * The password step. A user with a second factor gets `{ mfaRequired, methods }` and a session
     * that can only complete the second step; the account's failure count is cleared only once
     * that step succeeds, so a known password cannot reset the count between code guesses.
     */
    async login(body: LoginBody, client: ClientInfo): Promise<SignedIn<LoginResponse>> {
      const accountKey = accountThrottleKey(body.username);
      const ipKey = ipThrottleKey(client.ip);
      const states = await assertNotThrottled([accountKey, ipKey]);

      const candidate = await repository.findLoginCandidate(body.username);
      const isPasswordRight = candidate
        ? await verifyPassword(candidate.passwordHash, body.password)
        : await verifyAgainstDummy(body.password);

      if (!candidate || !isPasswordRight) {
        if (candidate) {
          await database.withTenant(candidate.tenantId, (tx) =>
            audit.record(tx, {
              tenantId: candidate.tenantId,
              actorUserId: candidate.userId,
              action: 'auth.login_failed',
              ip: client.ip,
            }),
          );
        }
        throw new AppError('UNAUTHENTICATED', INVALID_CREDENTIALS);
      }
      await loginThrottle.refund(states);
      if (!candidate.isActive) {
        throw new AppError(
          'FORBIDDEN',
          'This account has been deactivated. Contact your administrator.',
        );
      }

      const signedIn = await database.withTenant(candidate.tenantId, async (tx) => {
        const user = await users.findById(tx, candidate.tenantId, candidate.userId);
        const tenant = await tenants.find(tx, candidate.tenantId);
        if (!user || !tenant) throw new AppError('UNAUTHENTICATED', INVALID_CREDENTIALS);
        if (needsRehash(user.passwordHash)) {
          await users.updateById(tx, user.tenantId, user.id, {
            passwordHash: await hashPassword(body.password),
          });
        }
        const { methods, required } = await mfa.signInState(tx, user, tenant);
        if (methods.length > 0) {
          const session = await sessions.startSession(tx, {
            tenantId: tenant.id,
            userId: user.id,
            ...client,
            mfaPending: 'verify',
          });
          await audit.record(tx, {
            tenantId: tenant.id,
            actorUserId: user.id,
            action: 'auth.login_second_factor_pending',
            ip: client.ip,
          });
          return { response: { mfaRequired: true as const, methods }, ...session };
        }
        return signIn(tx, user, tenant, 'auth.login', client, {
          mfaPending: required ? 'enrol' : null,
        });
      });
      // After the commit, on its own connection: a transaction never waits for a second pooled
      // connection (ten sign-ins at once would otherwise hold the pool while waiting for it).
      if (!('mfaRequired' in signedIn.response)) await loginThrottle.clear(accountKey);
      return signedIn;
    },

    /**
     * SEC-26, the second sign-in step: `check` verifies the code or passkey inside the tenant's
     * transaction. Right: the pending session is replaced by a complete one. Wrong: it counts in
     * the same throttle as a wrong password, and is audited.
     */
    async completeSecondFactor(
      actor: Actor,
      client: ClientInfo,
      check: (tx: Tx) => Promise<MfaMethod | null>,
    ): Promise<SignedIn> {
      return restartSessionAfterSecret(actor, client, {
        check,
        failedAction: 'auth.second_factor_failed',
        failure: () => new AppError('UNAUTHENTICATED', 'Invalid verification code'),
        signedInAction: 'auth.login',
        options: (method) => ({ details: { secondFactor: method } }),
      });
    },

    /**
     * SEC-25: the signed-in user gives their password again. Right: this session is replaced by a
     * fresh one, which is what "recently authenticated" is measured from. Wrong: it counts towards
     * the same throttle as a failed sign-in, and is audited.
     */
    async reauthenticate(actor: Actor, body: ReauthBody, client: ClientInfo): Promise<SignedIn> {
      return restartSessionAfterSecret(actor, client, {
        check: async (_tx, user) =>
          (await verifyPassword(user.passwordHash, body.password)) ? true : null,
        failedAction: 'auth.reauth_failed',
        failure: () => new AppError('INVALID', 'Password is incorrect'),
        signedInAction: 'auth.reauthenticated',
        options: () => ({ mfaPending: actor.mfaPending }),
      });
    },

    /** Verifies the current password, ends every session of the user and starts a fresh one. */
    async changePassword(
      actor: Actor,
      body: ChangePasswordBody,
      client: ClientInfo,
    ): Promise<SignedIn> {
      users.assertPasswordPolicy(body.newPassword);
      return database.withTenant(actor.tenantId, async (tx) => {
        const user = await users.findById(tx, actor.tenantId, actor.userId);
        if (!user || !(await verifyPassword(user.passwordHash, body.currentPassword))) {
          throw new AppError('INVALID', 'Current password is incorrect');
        }
        if (body.newPassword === body.currentPassword) {
          throw new AppError('INVALID', 'New password must be different from the current password');
        }
        const now = clock.now();
        const updated = await users.updateById(tx, actor.tenantId, actor.userId, {
          passwordHash: await hashPassword(body.newPassword),
          mustChangePassword: false,
          passwordChangedAt: now,
          updatedAt: now,
        });
        if (!updated) throw new AppError('NOT_FOUND', 'User not found.');
        await sessions.endAllSessionsOf(tx, actor.tenantId, actor.userId);
        const tenant = { id: actor.tenantId, name: actor.tenantName };
        // A session limited to enrolment stays limited: the new password is not a second factor.
        return signIn(tx, updated, tenant, 'auth.password_changed', client, {
          mfaPending: actor.mfaPending,
        });
      });
    },

    async logout(actor: Actor, client: ClientInfo) {
      await database.withTenant(actor.tenantId, async (tx) => {
        await sessions.endSession(tx, actor);
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'auth.logout',
          ip: client.ip,
        });
      });
    },

    /**
     * SEC-11: a super_admin works on another organization only by naming it on the request, with a
     * reason. The request then runs as that tenant (RLS still applies; nothing bypasses it) and an
     * audit row in the target tenant records who, from which organization, what and why.
     */
    async actForTenant(
      actor: Actor,
      target: { tenantId: string; reason: string; method: string; route: string },
      client: ClientInfo,
    ): Promise<Actor> {
      if (actor.role !== 'super_admin') {
        throw new AppError('FORBIDDEN', 'Only a Super Admin can act for another organization.');
      }
      const reason = target.reason.trim();
      if (reason.length === 0 || reason.length > 200) {
        throw new AppError(
          'INVALID',
          'Say why (X-Boomgate-Reason, at most 200 characters) when acting for another organization.',
        );
      }
      if (!UUID.test(target.tenantId)) throw new AppError('NOT_FOUND', 'Organization not found.');
      if (target.tenantId === actor.tenantId) return actor;
      const tenant = await database.withTenant(target.tenantId, async (tx) => {
        const row = await tenants.find(tx, target.tenantId);
        if (row) {
          await audit.record(tx, {
            tenantId: target.tenantId,
            actorUserId: actor.userId,
            action: 'super_admin.acted_for_tenant',
            targetType: 'tenant',
            targetId: target.tenantId,
            ip: client.ip,
            details: {
              homeTenantId: actor.tenantId,
              username: actor.username,
              method: target.method,
              route: target.route,
              reason,
            },
          });
        }
        return row;
      });
      if (!tenant) throw new AppError('NOT_FOUND', 'Organization not found.');
      return { ...actor, tenantId: tenant.id, tenantName: tenant.name };
    },

    me(actor: Actor): AuthResponse {
      return {
        user: {
          id: actor.userId,
          username: actor.username,
          fullName: actor.fullName,
          email: actor.email,
          role: actor.role,
          isActive: true,
          language: languageOf(actor),
        },
        tenant: { id: actor.tenantId, name: actor.tenantName },
        requirePasswordChange: actor.mustChangePassword,
        ...(actor.mfaPending === 'enrol' ? { requireMfaEnrolment: true } : {}),
      };
    },

    /** The signed-in user's own language (issue 19), kept on the account and audited. */
    async setLanguage(actor: Actor, language: LanguageCode, ip: string): Promise<Preferences> {
      return database.withTenant(actor.tenantId, async (tx) => {
        const before = await users.findById(tx, actor.tenantId, actor.userId);
        if (!before) throw new AppError('NOT_FOUND', 'User not found.');
        await users.updateById(tx, actor.tenantId, actor.userId, { language });
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'user.language_changed',
          targetType: 'user',
          targetId: actor.userId,
          ip,
          details: { from: languageOf(before), to: language },
        });
        return { language };
      });
    },
  };
}

/** A stored language the contract no longer lists reads as "not chosen". */
function languageOf(user: Pick<UserRow, 'language'>): LanguageCode | null {
  const parsed = LanguageSchema.safeParse(user.language);
  return parsed.success ? parsed.data : null;
}
