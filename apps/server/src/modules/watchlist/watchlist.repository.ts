import { and, asc, eq, inArray, or } from 'drizzle-orm';

import { type WatchlistKind, watchlistMatchKey } from '@boomgate/contracts/watchlist';

import { type DbExecutor, takeOne } from '@/platform/db';
import { type ColumnSealer, SA_ID_NUMBER } from '@/platform/sealing';

import { type NewWatchlistRow, type WatchlistRow, watchlistEntries } from './watchlist.table';

export type WatchlistRepository = ReturnType<typeof createWatchlistRepository>;

const byId = (tenantId: string, id: string) =>
  and(eq(watchlistEntries.tenantId, tenantId), eq(watchlistEntries.id, id));

const VALUE = 'watchlist_entries.value';

/**
 * Issue 26: an `idNumber` entry keeps its number sealed (`value`) and its match key as the keyed
 * hash (domain sa_id_number, as drivers.id_number_hash), so the gate's screening still finds it by
 * equality on the index, never by decrypting in SQL. Plates and companies are not sealed. Rows
 * read back are opened: callers see the number and its plain match key as before. An entry stored
 * before sealing is matched by its plain key too, until keys.seal-stored-data has sealed it.
 */
export function createWatchlistRepository(sealer: ColumnSealer) {
  const hashOf = (tenantId: string, matchKey: string) =>
    sealer.index(tenantId, SA_ID_NUMBER, matchKey);

  async function open(row: WatchlistRow): Promise<WatchlistRow> {
    if (row.kind !== 'idNumber') return row;
    const value = await sealer.open(row.tenantId, VALUE, row.value);
    return { ...row, value, matchKey: watchlistMatchKey('idNumber', value) };
  }

  async function sealChanges<T extends Partial<NewWatchlistRow>>(
    tenantId: string,
    kind: WatchlistKind,
    row: T,
  ): Promise<T> {
    if (kind !== 'idNumber' || row.value === undefined) return row;
    return {
      ...row,
      value: await sealer.seal(tenantId, VALUE, row.value),
      matchKey: await hashOf(tenantId, watchlistMatchKey('idNumber', row.value)),
    };
  }

  const kindOrder = (a: WatchlistRow, b: WatchlistRow) =>
    a.kind === b.kind ? 0 : a.kind < b.kind ? -1 : 1;

  return {
    open,

    /** By kind, then match key (ID numbers sorted here, once opened: their stored key is a hash). */
    async list(tx: DbExecutor, tenantId: string): Promise<WatchlistRow[]> {
      const rows = await tx
        .select()
        .from(watchlistEntries)
        .where(eq(watchlistEntries.tenantId, tenantId))
        .orderBy(asc(watchlistEntries.kind), asc(watchlistEntries.matchKey));
      const opened = await Promise.all(rows.map(open));
      return opened.sort(
        (a, b) =>
          kindOrder(a, b) ||
          (a.kind === 'idNumber' ? a.matchKey.localeCompare(b.matchKey, 'en') : 0),
      );
    },

    async insert(tx: DbExecutor, row: NewWatchlistRow): Promise<WatchlistRow> {
      const stored = await sealChanges(row.tenantId, row.kind, row);
      return open(takeOne(await tx.insert(watchlistEntries).values(stored).returning()));
    },

    async find(tx: DbExecutor, tenantId: string, id: string): Promise<WatchlistRow | undefined> {
      const rows = await tx.select().from(watchlistEntries).where(byId(tenantId, id)).limit(1);
      return rows[0] && open(rows[0]);
    },

    async update(
      tx: DbExecutor,
      tenantId: string,
      id: string,
      kind: WatchlistKind,
      changes: Partial<NewWatchlistRow>,
    ): Promise<WatchlistRow | undefined> {
      const rows = await tx
        .update(watchlistEntries)
        .set(await sealChanges(tenantId, kind, changes))
        .where(byId(tenantId, id))
        .returning();
      return rows[0] && open(rows[0]);
    },

    async delete(tx: DbExecutor, tenantId: string, id: string): Promise<WatchlistRow | undefined> {
      const rows = await tx.delete(watchlistEntries).where(byId(tenantId, id)).returning();
      return rows[0] && open(rows[0]);
    },

    /** The stored match keys of an ID number: its hash, and its plain key (rows not yet sealed). */
    async idNumberKeys(tenantId: string, idNumber: string): Promise<string[]> {
      const plain = watchlistMatchKey('idNumber', idNumber);
      return [await hashOf(tenantId, plain), plain];
    },

    /** Every entry (expired too: the caller decides) whose key equals one of the subject's. */
    async candidates(
      tx: DbExecutor,
      tenantId: string,
      keys: readonly { kind: WatchlistKind; matchKey: string }[],
    ): Promise<WatchlistRow[]> {
      if (keys.length === 0) return [];
      const stored: { kind: WatchlistKind; matchKey: string }[] = [];
      for (const key of keys) {
        stored.push(key);
        if (key.kind === 'idNumber')
          stored.push({ kind: key.kind, matchKey: await hashOf(tenantId, key.matchKey) });
      }
      const rows = await tx
        .select()
        .from(watchlistEntries)
        .where(
          and(
            eq(watchlistEntries.tenantId, tenantId),
            or(
              ...stored.map((key) =>
                and(
                  eq(watchlistEntries.kind, key.kind),
                  eq(watchlistEntries.matchKey, key.matchKey),
                ),
              ),
            ),
          ),
        );
      return Promise.all(rows.map(open));
    },
  };
}

export const watchlistIdNumberFilter = (keys: string[]) =>
  and(eq(watchlistEntries.kind, 'idNumber'), inArray(watchlistEntries.matchKey, keys));
