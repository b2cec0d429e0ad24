import { and, eq, gt, isNull } from 'drizzle-orm';

import type { DbExecutor } from '@/platform/db';

import { type OverridePinRow, overridePinSettings, overridePins } from './override-pins.table';

export type OverridePinsRepository = ReturnType<typeof createOverridePinsRepository>;

export function createOverridePinsRepository() {
  return {
    async findSettings(tx: DbExecutor, tenantId: string) {
      const [row] = await tx
        .select()
        .from(overridePinSettings)
        .where(eq(overridePinSettings.tenantId, tenantId))
        .limit(1);
      return row;
    },

    async saveSettings(
      tx: DbExecutor,
      tenantId: string,
      settings: { enabled: boolean; validityMinutes: number },
      at: Date,
      by: string,
    ): Promise<void> {
      await tx
        .insert(overridePinSettings)
        .values({ tenantId, ...settings, updatedAt: at, updatedBy: by })
        .onConflictDoUpdate({
          target: overridePinSettings.tenantId,
          set: { ...settings, updatedAt: at, updatedBy: by },
        });
    },

    async insertPin(tx: DbExecutor, row: typeof overridePins.$inferInsert): Promise<void> {
      await tx.insert(overridePins).values(row);
    },

    /** Spends the unspent, unexpired PIN with this hash (one statement: two guards cannot both). */
    async spendPin(
      tx: DbExecutor,
      tenantId: string,
      pinHash: string,
      spend: { at: Date; by: string; entryId: string },
    ): Promise<OverridePinRow | undefined> {
      const [row] = await tx
        .update(overridePins)
        .set({ usedAt: spend.at, usedBy: spend.by, entryId: spend.entryId })
        .where(
          and(
            eq(overridePins.tenantId, tenantId),
            eq(overridePins.pinHash, pinHash),
            isNull(overridePins.usedAt),
            gt(overridePins.expiresAt, spend.at),
          ),
        )
        .returning();
      return row;
    },
  };
}
