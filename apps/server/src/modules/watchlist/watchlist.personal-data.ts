import { and, eq, inArray } from 'drizzle-orm';

import { watchlistMatchKey } from '@boomgate/contracts/watchlist';

import type { Tx } from '@/platform/db';
import type { DataSubject, PersonalDataProvider } from '@/platform/personal-data';

import { watchlistEntries } from './watchlist.table';

/**
 * Watchlist entries about a person: those naming the subject's ID number (kind `idNumber`);
 * plates and companies are not personal data about a driver. Export (POPIA s23) lists them,
 * covert ones included and marked: the organization decides what it discloses. Erasure (s24)
 * deletes them: the organization asked to erase the subject, and a watchlist is its own list,
 * never a record it must keep; the erasure's audit row says how many went.
 */
const rowsOf = (tx: Tx, subject: DataSubject) =>
  tx
    .select()
    .from(watchlistEntries)
    .where(
      and(
        eq(watchlistEntries.tenantId, subject.tenantId),
        eq(watchlistEntries.kind, 'idNumber'),
        inArray(watchlistEntries.matchKey, [watchlistMatchKey('idNumber', subject.idNumber)]),
      ),
    )
    .orderBy(watchlistEntries.createdAt);

export function createWatchlistPersonalData(): PersonalDataProvider {
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
