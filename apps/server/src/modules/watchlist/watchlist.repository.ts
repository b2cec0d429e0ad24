import { and, asc, eq, or } from 'drizzle-orm';

import type { WatchlistKind } from '@boomgate/contracts/watchlist';

import { type DbExecutor, takeOne } from '@/platform/db';

import { type NewWatchlistRow, type WatchlistRow, watchlistEntries } from './watchlist.table';

export type WatchlistRepository = ReturnType<typeof createWatchlistRepository>;

const byId = (tenantId: string, id: string) =>
  and(eq(watchlistEntries.tenantId, tenantId), eq(watchlistEntries.id, id));

export function createWatchlistRepository() {
  return {
    list: (tx: DbExecutor, tenantId: string) =>
      tx
        .select()
        .from(watchlistEntries)
        .where(eq(watchlistEntries.tenantId, tenantId))
        .orderBy(asc(watchlistEntries.kind), asc(watchlistEntries.matchKey)),

    async insert(tx: DbExecutor, row: NewWatchlistRow): Promise<WatchlistRow> {
      return takeOne(await tx.insert(watchlistEntries).values(row).returning());
    },

    async find(tx: DbExecutor, tenantId: string, id: string): Promise<WatchlistRow | undefined> {
      const rows = await tx.select().from(watchlistEntries).where(byId(tenantId, id)).limit(1);
      return rows[0];
    },

    async update(
      tx: DbExecutor,
      tenantId: string,
      id: string,
      changes: Partial<NewWatchlistRow>,
    ): Promise<WatchlistRow | undefined> {
      const rows = await tx
        .update(watchlistEntries)
        .set(changes)
        .where(byId(tenantId, id))
        .returning();
      return rows[0];
    },

    async delete(tx: DbExecutor, tenantId: string, id: string): Promise<WatchlistRow | undefined> {
      const rows = await tx.delete(watchlistEntries).where(byId(tenantId, id)).returning();
      return rows[0];
    },

    /** Every entry (expired too: the caller decides) whose key equals one of the subject's. */
    candidates(
      tx: DbExecutor,
      tenantId: string,
      keys: readonly { kind: WatchlistKind; matchKey: string }[],
    ): Promise<WatchlistRow[]> {
      if (keys.length === 0) return Promise.resolve([]);
      return tx
        .select()
        .from(watchlistEntries)
        .where(
          and(
            eq(watchlistEntries.tenantId, tenantId),
            or(
              ...keys.map((key) =>
                and(
                  eq(watchlistEntries.kind, key.kind),
                  eq(watchlistEntries.matchKey, key.matchKey),
                ),
              ),
            ),
          ),
        );
    },
  };
}
