import { z } from 'zod';

import { CaptureIdSchema } from './images';
import { IdSchema, TimestampSchema } from './primitives';
import { READING_SCHEMAS, ReadingSourceSchema, type ReadingType } from './readings';

/**
 * Corrections with provenance (issue 15): what the guard typed for one field of a reading, kept
 * beside what the engine read. The screens send them with the save (a document, grant-entry); the
 * server takes the read value, its confidence and source from the capture it holds, never from
 * the client, and records who typed the value and when. The reading itself is never changed.
 */

export const READING_TYPES = Object.keys(READING_SCHEMAS) as [ReadingType, ...ReadingType[]];
export const ReadingTypeSchema = z.enum(READING_TYPES);

/** The fields a reading of `type` can hold (the typed reading's `fields` keys). */
export function readingFieldNames(type: ReadingType): string[] {
  return Object.keys(READING_SCHEMAS[type].shape.fields.shape);
}

/**
 * One field the guard typed, confirmed or corrected. `captureId` is the capture the value was read
 * from (POST /api/ocr's captureId); null when the read failed and the value was entered manually.
 */
export const CorrectionInputSchema = z
  .object({
    captureId: CaptureIdSchema.nullish().transform((value) => value ?? null),
    readingType: ReadingTypeSchema,
    field: z.string().min(1).max(60),
    typedValue: z.string().trim().max(2_000),
  })
  .strict()
  .refine((input) => readingFieldNames(input.readingType).includes(input.field), {
    message: 'Not a field of this reading type',
    path: ['field'],
  });
export type CorrectionInput = z.input<typeof CorrectionInputSchema>;

/** Sent with a save: at most one per field a screen shows. */
export const CorrectionListSchema = z.array(CorrectionInputSchema).max(60).default([]);

/**
 * What the guard did: `confirmed` the read value as it was, `corrected` it to another, or `typed`
 * a value where nothing was read.
 */
export const CorrectionKindSchema = z.enum(['confirmed', 'corrected', 'typed']);
export type CorrectionKind = z.infer<typeof CorrectionKindSchema>;

export const CorrectionSchema = z.object({
  id: IdSchema,
  captureId: IdSchema.nullable(),
  readingType: ReadingTypeSchema,
  field: z.string(),
  kind: CorrectionKindSchema,
  /** What the engine read (null when nothing was), with its confidence and source. */
  readValue: z.unknown().nullable(),
  readConfidence: z.number().nullable(),
  readSource: ReadingSourceSchema.nullable(),
  /** Whether the reading listed the field as `uncertain`. */
  wasUncertain: z.boolean(),
  typedValue: z.string(),
  correctedBy: z.object({ id: IdSchema.nullable(), name: z.string().nullable() }),
  correctedAt: TimestampSchema,
  /** The record the value was saved with. */
  entryLogId: IdSchema.nullable(),
  documentType: z.string().nullable(),
  documentId: IdSchema.nullable(),
});
export type Correction = z.infer<typeof CorrectionSchema>;
