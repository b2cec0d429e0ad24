import { and, asc, eq, inArray, or } from 'drizzle-orm';

import type { DbExecutor } from '@/platform/db';

import { type ReadingCorrectionRow, readingCorrections } from './corrections.table';

export type CorrectionsRepository = ReturnType<typeof createCorrectionsRepository>;

export function createCorrectionsRepository() {
  return {
    insert: async (tx: DbExecutor, rows: (typeof readingCorrections.$inferInsert)[]) => {
      if (rows.length > 0) await tx.insert(readingCorrections).values(rows);
    },

    /** The corrections saved with an entry or with any of the documents it cites, oldest first. */
    listFor: async (
      tx: DbExecutor,
      tenantId: string,
      { entryLogId, documentIds }: { entryLogId: string; documentIds: readonly string[] },
    ): Promise<ReadingCorrectionRow[]> =>
      tx
        .select()
        .from(readingCorrections)
        .where(
          and(
            eq(readingCorrections.tenantId, tenantId),
            documentIds.length > 0
              ? or(
                  eq(readingCorrections.entryLogId, entryLogId),
                  inArray(readingCorrections.documentId, [...documentIds]),
                )
              : eq(readingCorrections.entryLogId, entryLogId),
          ),
        )
        .orderBy(asc(readingCorrections.correctedAt), asc(readingCorrections.field)),

    /** Issue 15: the corrections saved with these documents (a list of tickets), oldest first. */
    listForDocuments: async (
      tx: DbExecutor,
      tenantId: string,
      documentIds: readonly string[],
    ): Promise<ReadingCorrectionRow[]> =>
      documentIds.length === 0
        ? []
        : tx
            .select()
            .from(readingCorrections)
            .where(
              and(
                eq(readingCorrections.tenantId, tenantId),
                inArray(readingCorrections.documentId, [...documentIds]),
              ),
            )
            .orderBy(asc(readingCorrections.correctedAt), asc(readingCorrections.field)),
  };
}
