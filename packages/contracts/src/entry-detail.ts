import { z } from 'zod';

import { CorrectionSchema } from './corrections';
import { EntryLogSchema } from './entry-logs';
import { ImageUrlSchema } from './images';
import { IdSchema, TimestampSchema } from './primitives';
import { ReadingSchema } from './readings';

/**
 * GET /api/entry-logs/{id} (issue 15): one entry with the evidence it was decided on. A security
 * guard sees it masked as the lists are (identity and passport numbers, no face, ID, licence or
 * passport images); back_office and admins see everything.
 */
export const EntryIdParamsSchema = z.object({ id: IdSchema });

/** One image the entry or a document it cites holds, with what the engine read from it. */
export const EntryCaptureSchema = z.object({
  /** The capture's id; null for an image sent inline (no reading was kept for it). */
  captureId: IdSchema.nullable(),
  /** Where it is cited: an entry image field (`plateImage`) or a document (`identityDocument`). */
  citedAs: z.string(),
  /** The OCR type it was read as (`face` included); null when sent inline. */
  type: z.string().nullable(),
  image: ImageUrlSchema.nullable(),
  reading: ReadingSchema.nullable(),
  takenAt: TimestampSchema.nullable(),
});
export type EntryCapture = z.infer<typeof EntryCaptureSchema>;

/** A document the entry cites, with the fields it was saved with. */
export const EntryDocumentSchema = z.object({
  citedAs: z.string(),
  id: IdSchema,
  fields: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
});

export const EntryFaceComparisonSchema = z.object({
  id: IdSchema,
  comparedAt: TimestampSchema,
  /** What the live face was compared with: the enrolled descriptor, the photo on file, image2. */
  reference: z.string(),
  matchScore: z.number(),
  decision: z.string(),
  liveness: z.number().nullable(),
  antispoofPassed: z.boolean().nullable(),
});

export const EntryAuditEventSchema = z.object({
  id: IdSchema,
  occurredAt: TimestampSchema,
  action: z.string(),
  actorUserId: IdSchema.nullable(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
});

export const EntryDetailSchema = z.object({
  entry: EntryLogSchema,
  captures: z.array(EntryCaptureSchema),
  documents: z.array(EntryDocumentSchema),
  corrections: z.array(CorrectionSchema),
  faceComparison: EntryFaceComparisonSchema.nullable(),
  auditTrail: z.array(EntryAuditEventSchema),
});
export type EntryDetail = z.infer<typeof EntryDetailSchema>;
