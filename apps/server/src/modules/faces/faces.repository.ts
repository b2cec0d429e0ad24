import { and, eq, isNull } from 'drizzle-orm';

import { type DbExecutor, takeOne } from '@/platform/db';

import { type FaceComparisonRow, type NewFaceComparisonRow, faceComparisons } from './faces.table';

export type FacesRepository = ReturnType<typeof createFacesRepository>;

export function createFacesRepository() {
  return {
    async insert(tx: DbExecutor, row: NewFaceComparisonRow): Promise<FaceComparisonRow> {
      return takeOne(await tx.insert(faceComparisons).values(row).returning());
    },

    async find(tx: DbExecutor, tenantId: string, id: string) {
      const rows = await tx
        .select()
        .from(faceComparisons)
        .where(and(eq(faceComparisons.tenantId, tenantId), eq(faceComparisons.id, id)))
        .limit(1);
      return rows[0];
    },

    /** The comparison an entry's face verdict came from (issue 15: the entry detail). */
    async findForEntry(tx: DbExecutor, tenantId: string, entryId: string) {
      const rows = await tx
        .select()
        .from(faceComparisons)
        .where(
          and(eq(faceComparisons.tenantId, tenantId), eq(faceComparisons.usedByEntryId, entryId)),
        )
        .limit(1);
      return rows[0];
    },

    /**
     * Marks the comparison as backing the entry, only if no entry has it yet. A concurrent second
     * citation waits on the row lock, then finds it taken and updates nothing.
     */
    async claim(tx: DbExecutor, tenantId: string, id: string, entryId: string) {
      const rows = await tx
        .update(faceComparisons)
        .set({ usedByEntryId: entryId })
        .where(
          and(
            eq(faceComparisons.tenantId, tenantId),
            eq(faceComparisons.id, id),
            isNull(faceComparisons.usedByEntryId),
          ),
        )
        .returning();
      return rows[0];
    },
  };
}
