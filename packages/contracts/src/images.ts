import { z } from 'zod';

import { IdSchema } from './primitives';

/**
 * An image sent by the browser: a data URL (`data:image/jpeg;base64,…`, what the camera capture
 * produces) or bare base64. Size and type are checked on the server from the bytes themselves.
 */
export const ImagePayloadSchema = z
  .string()
  .min(1, 'Image is required')
  .max(14_100_000, 'Please upload an image smaller than 10MB.');

/** Images come back as URLs of the authorised image route, never as inline data. */
export const ImageUrlSchema = z.string();

/**
 * A capture (issue 14) cited instead of sending the image again: the id POST /api/ocr answered
 * with. Every image field `x` has a sibling `xCaptureId` (a list `xs`: `xsCaptureIds`).
 */
export const CaptureIdSchema = IdSchema;
export const OptionalCaptureIdSchema = CaptureIdSchema.nullish().transform(
  (value) => value ?? null,
);
export const CaptureIdListSchema = z
  .array(CaptureIdSchema)
  .max(5, 'At most 5 captures')
  .default([]);

/**
 * A request sends an image or cites its capture, not both: 400 naming the field otherwise.
 * `fields` are image field names; the capture field is the name plus `CaptureId`.
 */
export function oneImageSourceEach(fields: readonly string[]) {
  return (body: Record<string, unknown>, ctx: z.RefinementCtx) => {
    for (const field of fields) {
      const image = body[field];
      const capture = body[`${field}CaptureId`];
      if (image != null && image !== '' && capture != null)
        ctx.addIssue({
          code: 'custom',
          message: `Send either ${field} or ${field}CaptureId, not both`,
          path: [`${field}CaptureId`],
        });
    }
  };
}
