import { REAUTHENTICATION_MINUTES } from '@/platform/access';
import type { Clock } from '@/platform/clock';
import type { DbExecutor } from '@/platform/db';
import { AppError } from '@/platform/errors';
import { newToken } from '@/platform/ids';

import { hashSessionToken, isWellFormedToken } from './session-token';
import type { MfaPending, ResolvedSessionRow, SessionsRepository } from './sessions.repository';

export type SessionPolicy = { idleTimeoutMinutes: number; absoluteTimeoutHours: number };

/** A signed-in user as every route sees them, resolved from the session on each request. */
export type Actor = ResolvedSessionRow & { sessionTokenHash: string };

/** A WebAuthn ceremony must finish within this long of its options. */
const CHALLENGE_TTL_MS = 5 * 60_000;
/** A session that owes its second factor (SEC-26) lasts this long, not the full absolute timeout. */
export const SECOND_STEP_TTL_MS = 10 * 60_000;

// last_seen_at is written at most once a minute, so a busy client does not write on every call.
const TOUCH_AFTER_SECONDS = 60;

export type SessionsService = ReturnType<typeof createSessionsService>;

export function createSessionsService({
  repository,
  clock,
  secret,
  policy,
}: {
  repository: SessionsRepository;
  clock: Clock;
  secret: string;
  policy: SessionPolicy;
}) {
  /**
   * The password was given within `minutes`: every sign-in, password change and re-authentication
   * starts a new session, so the session's start is the last time it was.
   */
  const isRecentlyAuthenticated = (actor: Pick<Actor, 'sessionCreatedAt'>, minutes: number) =>
    clock.now().getTime() - actor.sessionCreatedAt.getTime() <= minutes * 60_000;

  return {
    /** Issues a fresh random token (never reuses one) and stores its HMAC. */
    async startSession(
      tx: DbExecutor,
      session: {
        tenantId: string;
        userId: string;
        ip?: string;
        userAgent?: string;
        /** SEC-26: what the session still owes before it is a complete sign-in. */
        mfaPending?: MfaPending;
      },
    ): Promise<{ token: string; expiresAt: Date }> {
      const token = newToken();
      const now = clock.now();
      const lifetimeMs =
        session.mfaPending === 'verify'
          ? SECOND_STEP_TTL_MS
          : policy.absoluteTimeoutHours * 3_600_000;
      const expiresAt = new Date(now.getTime() + lifetimeMs);
      await repository.insert(tx, {
        tenantId: session.tenantId,
        userId: session.userId,
        tokenHash: hashSessionToken(token, secret),
        createdAt: now,
        lastSeenAt: now,
        expiresAt,
        ip: session.ip ?? null,
        userAgent: session.userAgent?.slice(0, 300) ?? null,
        mfaPending: session.mfaPending ?? null,
      });
      return { token, expiresAt };
    },

    async resolveActor(token: string): Promise<Actor | undefined> {
      if (!isWellFormedToken(token)) return undefined;
      const tokenHash = hashSessionToken(token, secret);
      const row = await repository.resolve(
        tokenHash,
        clock.now(),
        policy.idleTimeoutMinutes * 60,
        TOUCH_AFTER_SECONDS,
      );
      return row && { ...row, sessionTokenHash: tokenHash };
    },

    isRecentlyAuthenticated,

    /**
     * SEC-25: throws 401 REAUTH_REQUIRED unless the password was given in the last
     * REAUTHENTICATION_MINUTES. Routes declared `recentAuthentication` get it from the access check;
     * a service calls it when only some requests need it (an admin changing a password or email).
     */
    assertRecentlyAuthenticated(actor: Pick<Actor, 'sessionCreatedAt'>) {
      if (isRecentlyAuthenticated(actor, REAUTHENTICATION_MINUTES)) return;
      throw new AppError(
        'REAUTH_REQUIRED',
        `Confirm your password to continue: this needs a sign-in within the last ${REAUTHENTICATION_MINUTES} minutes (POST /api/auth/reauth).`,
      );
    },

    /** The session has given its second factor or set one up: it becomes a complete sign-in. */
    completeMfa: (tx: DbExecutor, actor: Pick<Actor, 'tenantId' | 'sessionTokenHash'>) =>
      repository.update(tx, actor.tenantId, actor.sessionTokenHash, { mfaPending: null }),

    /** Remembers the WebAuthn challenge just issued to this session (one at a time). */
    storeChallenge: (
      tx: DbExecutor,
      actor: Pick<Actor, 'tenantId' | 'sessionTokenHash'>,
      challenge: string,
    ) =>
      repository.update(tx, actor.tenantId, actor.sessionTokenHash, {
        webauthnChallenge: challenge,
        webauthnChallengeExpiresAt: new Date(clock.now().getTime() + CHALLENGE_TTL_MS),
      }),

    /** The session's pending WebAuthn challenge, cleared as it is read: each is used once. */
    async takeChallenge(
      tx: DbExecutor,
      actor: Pick<Actor, 'tenantId' | 'sessionTokenHash'>,
    ): Promise<string | undefined> {
      const row = await repository.findChallenge(tx, actor.tenantId, actor.sessionTokenHash);
      if (!row?.challenge) return undefined;
      await repository.update(tx, actor.tenantId, actor.sessionTokenHash, {
        webauthnChallenge: null,
        webauthnChallengeExpiresAt: null,
      });
      return row.expiresAt && row.expiresAt > clock.now() ? row.challenge : undefined;
    },

    endSession: (tx: DbExecutor, actor: Pick<Actor, 'tenantId' | 'sessionTokenHash'>) =>
      repository.delete(tx, actor.tenantId, actor.sessionTokenHash),

    /** Deactivation and password changes end every session the user has, on every device. */
    endAllSessionsOf: (tx: DbExecutor, tenantId: string, userId: string) =>
      repository.deleteAllForUser(tx, tenantId, userId),
  };
}
