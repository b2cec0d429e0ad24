import { and, count, eq, isNull, lt, or } from 'drizzle-orm';

import type { DbExecutor } from '@/platform/db';

import { type MfaPasskeyRow, mfaPasskeys, mfaRecoveryCodes, mfaTotp } from './mfa.table';

type UserKey = { tenantId: string; userId: string };

const totpOf = ({ tenantId, userId }: UserKey) =>
  and(eq(mfaTotp.tenantId, tenantId), eq(mfaTotp.userId, userId));
const codesOf = ({ tenantId, userId }: UserKey) =>
  and(eq(mfaRecoveryCodes.tenantId, tenantId), eq(mfaRecoveryCodes.userId, userId));
const passkeysOf = ({ tenantId, userId }: UserKey) =>
  and(eq(mfaPasskeys.tenantId, tenantId), eq(mfaPasskeys.userId, userId));

export type MfaRepository = ReturnType<typeof createMfaRepository>;

/** Runs inside the tenant's transaction (RLS). */
export function createMfaRepository() {
  return {
    async findTotp(tx: DbExecutor, user: UserKey) {
      const rows = await tx.select().from(mfaTotp).where(totpOf(user)).limit(1);
      return rows[0];
    },

    /** A new unconfirmed secret replaces an unconfirmed one; a confirmed one is never replaced. */
    async saveUnconfirmedTotp(tx: DbExecutor, user: UserKey, secretSealed: string, now: Date) {
      const rows = await tx
        .insert(mfaTotp)
        .values({ ...user, secretSealed, createdAt: now })
        .onConflictDoUpdate({
          target: [mfaTotp.tenantId, mfaTotp.userId],
          set: { secretSealed, createdAt: now, lastUsedStep: null },
          setWhere: isNull(mfaTotp.confirmedAt),
        })
        .returning();
      return rows.length > 0;
    },

    async confirmTotp(tx: DbExecutor, user: UserKey, step: number, now: Date) {
      await tx
        .update(mfaTotp)
        .set({ confirmedAt: now, lastUsedStep: step })
        .where(and(totpOf(user), isNull(mfaTotp.confirmedAt)));
    },

    /**
     * Records that a code of `step` was used, only if no code of this or a later step was: one
     * statement, so two requests with the same code cannot both pass.
     */
    async useTotpStep(tx: DbExecutor, user: UserKey, step: number): Promise<boolean> {
      const rows = await tx
        .update(mfaTotp)
        .set({ lastUsedStep: step })
        .where(and(totpOf(user), or(isNull(mfaTotp.lastUsedStep), lt(mfaTotp.lastUsedStep, step))))
        .returning({ userId: mfaTotp.userId });
      return rows.length > 0;
    },

    deleteTotp: (tx: DbExecutor, user: UserKey) => tx.delete(mfaTotp).where(totpOf(user)),

    async replaceRecoveryCodes(tx: DbExecutor, user: UserKey, hashes: string[], now: Date) {
      await tx.delete(mfaRecoveryCodes).where(codesOf(user));
      await tx
        .insert(mfaRecoveryCodes)
        .values(hashes.map((codeHash) => ({ ...user, codeHash, createdAt: now })));
    },

    /** Marks the code used if it is the user's and unused: true once, then never again. */
    async useRecoveryCode(tx: DbExecutor, user: UserKey, codeHash: string, now: Date) {
      const rows = await tx
        .update(mfaRecoveryCodes)
        .set({ usedAt: now })
        .where(
          and(
            codesOf(user),
            eq(mfaRecoveryCodes.codeHash, codeHash),
            isNull(mfaRecoveryCodes.usedAt),
          ),
        )
        .returning({ userId: mfaRecoveryCodes.userId });
      return rows.length > 0;
    },

    async countUnusedRecoveryCodes(tx: DbExecutor, user: UserKey): Promise<number> {
      const [row] = await tx
        .select({ n: count() })
        .from(mfaRecoveryCodes)
        .where(and(codesOf(user), isNull(mfaRecoveryCodes.usedAt)));
      return row?.n ?? 0;
    },

    deleteRecoveryCodes: (tx: DbExecutor, user: UserKey) =>
      tx.delete(mfaRecoveryCodes).where(codesOf(user)),

    listPasskeys: (tx: DbExecutor, user: UserKey): Promise<MfaPasskeyRow[]> =>
      tx.select().from(mfaPasskeys).where(passkeysOf(user)).orderBy(mfaPasskeys.createdAt),

    async insertPasskey(tx: DbExecutor, row: typeof mfaPasskeys.$inferInsert) {
      const rows = await tx.insert(mfaPasskeys).values(row).returning();
      return rows[0];
    },

    async recordPasskeyUse(
      tx: DbExecutor,
      tenantId: string,
      id: string,
      counter: number,
      now: Date,
    ) {
      await tx
        .update(mfaPasskeys)
        .set({ counter, lastUsedAt: now })
        .where(and(eq(mfaPasskeys.tenantId, tenantId), eq(mfaPasskeys.id, id)));
    },

    async deletePasskey(tx: DbExecutor, user: UserKey, id: string): Promise<boolean> {
      const rows = await tx
        .delete(mfaPasskeys)
        .where(and(passkeysOf(user), eq(mfaPasskeys.id, id)))
        .returning({ id: mfaPasskeys.id });
      return rows.length > 0;
    },

    deletePasskeys: (tx: DbExecutor, user: UserKey) =>
      tx.delete(mfaPasskeys).where(passkeysOf(user)),
  };
}
