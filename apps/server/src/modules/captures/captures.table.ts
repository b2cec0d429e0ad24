import type { Reading } from '@boomgate/contracts/readings';
import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

import { tenants } from '@/modules/tenants/tenants.table';

/**
 * One image uploaded once (issue 14): POST /api/ocr stores it here, records cite it by id. The
 * capture owns its object in storage; records that cite it keep its key. `citations` counts the
 * record fields holding that key: a record's retention or erasure releases its citations, and a
 * capture whose last citation is released, or that was never cited within 24 h, is deleted with
 * its object.
 */
export const captures = pgTable(
  'captures',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    id: uuid().notNull(),
    createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
    createdBy: uuid(),
    /** The OCR type it was read as (`face` included). */
    type: text().notNull(),
    imageKey: text().notNull(),
    /** The typed reading (contracts `ReadingSchema`), null when nothing was read. */
    reading: jsonb().$type<Reading>(),
    /**
     * Issue 26: the keyed hashes of the ID and passport numbers in the reading, whose values are
     * sealed (captures-sealing.ts): how the data subject's captures are found.
     */
    numberHashes: text().array(),
    citations: integer().notNull().default(0),
    citedAt: timestamp({ withTimezone: true, precision: 3 }),
    /** An uncited capture is gone after this (created + 24 h). */
    expiresAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('captures_tenant_image_key_idx').on(t.tenantId, t.imageKey),
    // The retention job reads uncited captures by expiry.
    index('captures_uncited_expiry_idx')
      .on(t.expiresAt)
      .where(sql`citations = 0`),
  ],
);
export type CaptureRow = typeof captures.$inferSelect;
