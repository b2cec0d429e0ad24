import { desc, eq } from 'drizzle-orm';

import type { DbExecutor } from '@/platform/db';

import { truckListEntries } from './truck-list.table';

export type TruckListRepository = ReturnType<typeof createTruckListRepository>;

export function createTruckListRepository() {
  return {
    list: (tx: DbExecutor, tenantId: string, limit: number) =>
      tx
        .select()
        .from(truckListEntries)
        .where(eq(truckListEntries.tenantId, tenantId))
        .orderBy(desc(truckListEntries.timestamp))
        .limit(limit),
    insert: async (tx: DbExecutor, row: typeof truckListEntries.$inferInsert) => {
      await tx.insert(truckListEntries).values(row);
    },
  };
}
