import { and, eq, inArray } from 'drizzle-orm';

import type { Tx } from '@/platform/db';
import type { DataSubject, PersonalDataProvider } from '@/platform/personal-data';

import { type WatchlistRepository, watchlistIdNumberFilter } from './watchlist.repository';
import { watchlistEntries } from './watchlist.table';

/**
 * Watchlist entries about a person: those naming the subject's ID number (kind `idNumber`);
 * plates and companies are not personal data about a driver. Export (POPIA s23) lists them,
 * covert ones included and marked: the organization decides what it discloses. Erasure (s24)
 * deletes them: the organization asked to erase the subject, and a watchlist is its own list,
 * never a record it must keep; the erasure's audit row says how many went.
 */
export function createWatchlistPersonalData(
  repository: Pick<WatchlistRepository, 'idNumberKeys' | 'open'>,
): PersonalDataProvider {
  // The number is sealed (issue 26): entries are found by its keyed hash and opened for export.
  const rowsOf = async (tx: Tx, subject: DataSubject) =>
    Promise.all(
      (
        await tx
          .select()
          .from(watchlistEntries)
          .where(
            and(
              eq(watchlistEntries.tenantId, subject.tenantId),
              watchlistIdNumberFilter(
                await repository.idNumberKeys(subject.tenantId, subject.idNumber),
              ),
            ),
          )
          .orderBy(watchlistEntries.createdAt)
      ).map(repository.open),
    );

  return {
    section: 'watchlist',

    async exportSubject(tx, subject) {
      return (await rowsOf(tx, subject)).map((row) => ({
        id: row.id,
        kind: row.kind,
        value: row.value,
        reason: row.reason,
        severity: row.severity,
        covert: row.covert,
        expiresAt: row.expiresAt?.toISOString() ?? null,
        createdAt: row.createdAt.toISOString(),
        createdByName: row.createdByName,
      }));
    },

    async eraseSubject(tx, subject) {
      const ids = (await rowsOf(tx, subject)).map((row) => row.id);
      if (ids.length === 0) return { rows: 0, imageKeys: [] };
      const deleted = await tx
        .delete(watchlistEntries)
        .where(
          and(eq(watchlistEntries.tenantId, subject.tenantId), inArray(watchlistEntries.id, ids)),
        )
        .returning({ id: watchlistEntries.id });
      return { rows: deleted.length, imageKeys: [] };
    },
  };
}
