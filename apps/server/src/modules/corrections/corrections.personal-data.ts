import { and, eq, inArray, or, sql } from 'drizzle-orm';

import type { Tx } from '@/platform/db';
import type { ColumnSealer } from '@/platform/sealing';
import {
  type DataSubject,
  type PersonalDataProvider,
  entryNamesSubject,
} from '@/platform/personal-data';

import { openValues } from './corrections-sealing';
import { readingCorrections } from './corrections.table';

/**
 * The subject's corrections: those holding one of their numbers (typed or read), those saved
 * with a document their entries cite, and those saved with an entry about them. Runs before
 * the entry logs' provider, which erases the numbers these entries are found by.
 */
function aboutSubject(subject: DataSubject) {
  const numbers = [subject.idNumber, ...subject.passportNumbers];
  const hashes = [subject.numberHashes.idNumber, ...subject.numberHashes.passportNumbers];
  return and(
    eq(readingCorrections.tenantId, subject.tenantId),
    or(
      // Issue 26: a sealed number by its keyed hash; one stored before sealing as it is.
      inArray(readingCorrections.typedValueHash, hashes),
      inArray(readingCorrections.typedValue, numbers),
      inArray(sql`${readingCorrections.readValue} ->> 'value'`, numbers),
      subject.documentIds.length > 0
        ? inArray(readingCorrections.documentId, subject.documentIds)
        : undefined,
      sql`${readingCorrections.entryLogId} in (
        select e.id from entry_logs e
        where e.tenant_id = ${subject.tenantId} and ${entryNamesSubject(subject)})`,
    ),
  );
}

/**
 * Issue 15: what the guard typed about a driver is their personal data like the entry itself.
 * Erasure deletes the corrections (the entry keeps its decision; the typed values go).
 */
export function createCorrectionsPersonalData(
  sealer: Pick<ColumnSealer, 'seal' | 'open' | 'index'>,
): PersonalDataProvider {
  const rowsOf = (tx: Tx, subject: DataSubject) =>
    tx.select().from(readingCorrections).where(aboutSubject(subject));
  return {
    section: 'readingCorrections',
    async exportSubject(tx, subject) {
      const rows = await rowsOf(tx, subject);
      return Promise.all(
        rows.map(async (row) => {
          const { typedValueHash: _hash, ...opened } = await openValues(sealer, row);
          return { ...opened };
        }),
      );
    },
    async eraseSubject(tx, subject) {
      const gone = await tx
        .delete(readingCorrections)
        .where(aboutSubject(subject))
        .returning({ id: readingCorrections.id });
      return { rows: gone.length, imageKeys: [] };
    },
  };
}
