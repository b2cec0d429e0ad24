import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { tenants } from '@/modules/tenants/tenants.table';

/**
 * Every face comparison the server made (POST /api/face-comparison, or grant-entry comparing the
 * face sent with an entry): the evidence behind an entry's face verdict. The live photo is cited
 * as a capture (`live_capture_id`, one citation, so the photo is kept while the comparison cites
 * it) and released after the tenant's biometric period or on the driver's erasure; a face sent
 * inline to grant-entry is the entry's own image. The reference is the vehicle's enrolled driver.
 * The audit keeps its `face.compared` event; this row is what grant-entry reads. One comparison
 * backs at most one entry (`used_by_entry_id`, unique per tenant).
 */
export const faceComparisons = pgTable(
  'face_comparisons',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    id: uuid().notNull(),
    comparedAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
    /** The user whose request made the comparison. */
    comparedBy: uuid(),
    /** The approved vehicle whose enrolled driver was the reference (null: two photos sent). */
    approvedVehicleId: uuid(),
    /** The driver record linked to that vehicle, when there is one. */
    driverId: uuid(),
    /** What the live face was compared with: the enrolled descriptor, the photo on file, or image2. */
    reference: text().notNull(),
    /** Calibrated 0–100, rounded to one decimal as answered. */
    matchScore: real().notNull(),
    decision: text().notNull(),
    /** Passive anti-spoofing score of the live photo (0–1), null when not measured. */
    liveness: real(),
    antispoofGating: boolean().notNull(),
    antispoofThreshold: real().notNull(),
    antispoofPassed: boolean(),
    /** The entry this comparison backs; set once, when an entry cites or makes it. */
    usedByEntryId: uuid(),
    /** The capture of the live face (cited); null when none, or once released (retention, erasure). */
    liveCaptureId: uuid(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('face_comparisons_one_entry_each').on(t.tenantId, t.usedByEntryId),
    index('face_comparisons_tenant_compared_idx').on(t.tenantId, t.comparedAt),
    check(
      'face_comparisons_decision_known',
      sql`${t.decision} in ('match', 'no_match', 'spoof_suspected')`,
    ),
    check(
      'face_comparisons_reference_known',
      sql`${t.reference} in ('descriptor', 'photo', 'image')`,
    ),
  ],
);

export type FaceComparisonRow = typeof faceComparisons.$inferSelect;
export type NewFaceComparisonRow = typeof faceComparisons.$inferInsert;
