import type { ReadingSource } from '@boomgate/contracts/readings';
import {
  boolean,
  index,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

import { tenants } from '@/modules/tenants/tenants.table';

/**
 * Issue 15: one field the guard typed, confirmed or corrected, beside what the engine read. The
 * read value, confidence and source are copied from the capture when the correction is saved, so
 * the pair outlives the capture (no foreign key: a capture may be purged or erased first).
 * Exactly one record holds it: an entry log or a document (`documentType` + `documentId`).
 */
export const readingCorrections = pgTable(
  'reading_corrections',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    id: uuid().notNull(),
    captureId: uuid(),
    readingType: text().notNull(),
    field: text().notNull(),
    kind: text().$type<'confirmed' | 'corrected' | 'typed'>().notNull(),
    /**
     * Wrapped as `{ value }`: a bare JSON string read back is parsed once more by the driver
     * mapping (a digit string would come back a number).
     */
    readValue: jsonb().$type<{ value: unknown }>(),
    readConfidence: real(),
    readSource: text().$type<ReadingSource>(),
    wasUncertain: boolean().notNull(),
    /** Issue 26: an ID or passport number (typed and read) is sealed; its keyed hash beside it. */
    typedValue: text().notNull(),
    typedValueHash: text(),
    correctedBy: uuid(),
    correctedByName: text(),
    correctedAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
    entryLogId: uuid(),
    documentType: text(),
    documentId: uuid(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('reading_corrections_entry_idx').on(t.tenantId, t.entryLogId),
    index('reading_corrections_document_idx').on(t.tenantId, t.documentId),
  ],
);
export type ReadingCorrectionRow = typeof readingCorrections.$inferSelect;
