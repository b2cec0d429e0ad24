import { and, eq, sql } from 'drizzle-orm';

import type { Role } from '@boomgate/contracts/roles';

import type { Db, DbExecutor } from '@/platform/db';

import { sessions } from './sessions.table';

export type ResolvedSessionRow = {
  tenantId: string;
  tenantName: string;
  userId: string;
  username: string;
  fullName: string | null;
  email: string | null;
  role: Role;
  mustChangePassword: boolean;
  /** When this session was started: by a sign-in, a password change or a re-authentication. */
  sessionCreatedAt: Date;
  /** SEC-26: the second factor is still owed ('verify') or must be set up first ('enrol'). */
  mfaPending: MfaPending;
  /** Issue 19: the language the user chose (a code the contract lists), null until chosen. */
  language: string | null;
};

export type MfaPending = 'verify' | 'enrol' | null;

export type SessionsRepository = ReturnType<typeof createSessionsRepository>;

export function createSessionsRepository(db: Db) {
  return {
    async insert(tx: DbExecutor, row: typeof sessions.$inferInsert) {
      await tx.insert(sessions).values(row);
    },

    /** The only cross-tenant read: the SECURITY DEFINER function auth_resolve_session. */
    async resolve(tokenHash: string, now: Date, idleSeconds: number, touchAfterSeconds: number) {
      const result = await db.execute<{
        tenant_id: string;
        tenant_name: string;
        user_id: string;
        username: string;
        full_name: string | null;
        email: string | null;
        role: Role;
        must_change_password: boolean;
        session_created_at: Date | string;
        mfa_pending: string | null;
        language: string | null;
      }>(
        sql`select * from auth_resolve_session(${tokenHash}, ${now.toISOString()}::timestamptz,
              make_interval(secs => ${idleSeconds}), make_interval(secs => ${touchAfterSeconds}))`,
      );
      const row = result.rows[0];
      if (!row) return undefined;
      return {
        tenantId: row.tenant_id,
        tenantName: row.tenant_name,
        userId: row.user_id,
        username: row.username,
        fullName: row.full_name,
        email: row.email,
        role: row.role,
        mustChangePassword: row.must_change_password,
        sessionCreatedAt: new Date(row.session_created_at),
        mfaPending:
          row.mfa_pending === 'verify' || row.mfa_pending === 'enrol' ? row.mfa_pending : null,
        language: row.language ?? null,
      } satisfies ResolvedSessionRow;
    },

    async delete(tx: DbExecutor, tenantId: string, tokenHash: string) {
      await tx
        .delete(sessions)
        .where(and(eq(sessions.tenantId, tenantId), eq(sessions.tokenHash, tokenHash)));
    },

    async update(
      tx: DbExecutor,
      tenantId: string,
      tokenHash: string,
      set: Partial<
        Pick<
          typeof sessions.$inferInsert,
          'mfaPending' | 'webauthnChallenge' | 'webauthnChallengeExpiresAt'
        >
      >,
    ) {
      await tx
        .update(sessions)
        .set(set)
        .where(and(eq(sessions.tenantId, tenantId), eq(sessions.tokenHash, tokenHash)));
    },

    async findChallenge(tx: DbExecutor, tenantId: string, tokenHash: string) {
      const rows = await tx
        .select({
          challenge: sessions.webauthnChallenge,
          expiresAt: sessions.webauthnChallengeExpiresAt,
        })
        .from(sessions)
        .where(and(eq(sessions.tenantId, tenantId), eq(sessions.tokenHash, tokenHash)))
        .for('update');
      return rows[0];
    },

    async deleteAllForUser(tx: DbExecutor, tenantId: string, userId: string) {
      await tx
        .delete(sessions)
        .where(and(eq(sessions.tenantId, tenantId), eq(sessions.userId, userId)));
    },
  };
}
