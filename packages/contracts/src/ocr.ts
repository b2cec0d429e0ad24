import { z } from 'zod';

import { CaptureIdSchema, ImagePayloadSchema } from './images';
import { ReadingSchema } from './readings';

/** Spec §3: the document types the camera reads. `face` checks a face capture's quality. */
export const OCR_TYPES = [
  'plate',
  'disk',
  'license',
  'id',
  'passport',
  'weighbridge',
  'face',
] as const;
export const OcrTypeSchema = z.enum(OCR_TYPES, {
  message: `type must be one of: ${OCR_TYPES.join(', ')}`,
});
export type OcrType = z.infer<typeof OcrTypeSchema>;

export const OcrRequestSchema = z
  .object({ image: ImagePayloadSchema, type: OcrTypeSchema })
  .strict();
export type OcrRequest = z.infer<typeof OcrRequestSchema>;

export const ReadSourceSchema = z.enum(['barcode', 'mrz', 'ocr', 'ai', 'face']);

/**
 * POST /api/ocr. `extractedText` is the fields as JSON text (spec §7); `fields` the same as an
 * object. `ok` is false when nothing usable was read (the image itself was fine): the client shows
 * its "No Data Found" / "Cannot Read Plate" message and offers a retake.
 */
export const OcrResponseSchema = z.object({
  ok: z.boolean(),
  type: OcrTypeSchema,
  extractedText: z.string(),
  text: z.string(),
  plateNumber: z.string().optional(),
  /** Spec §5 display form, e.g. 'KP 35 XK GP'. */
  displayPlate: z.string().optional(),
  fields: z.record(z.string(), z.unknown()),
  source: ReadSourceSchema.nullable(),
  /** 0–1. */
  confidence: z.number(),
  alternatives: z.array(z.object({ value: z.string(), confidence: z.number() })).optional(),
  /** Why nothing was read, or what to do better (a sentence for the guard). */
  message: z.string().optional(),
  warnings: z.array(z.string()).optional(),
  /**
   * The image, stored once as a capture (issue 14): cite it as `<imageField>CaptureId` on the
   * document, face or entry route instead of sending the image again. Expires after 24 hours
   * unless cited.
   */
  captureId: CaptureIdSchema,
  /** The typed reading (fields with confidence and source, `uncertain`); null for faces and failed reads. */
  reading: ReadingSchema.nullable(),
});
export type OcrResponse = z.infer<typeof OcrResponseSchema>;
