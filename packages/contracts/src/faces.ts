import { z } from 'zod';

import { CaptureIdSchema, ImagePayloadSchema } from './images';
import { IdSchema } from './primitives';

/** Spec §4/§9: a match needs at least 70. The one definition the server and the web use. */
export const FACE_MATCH_THRESHOLD = 70;

/** The one comparison with the threshold: 70.0 is a match, 69.9 is not. */
export const isFaceMatch = (matchScore: number): boolean => matchScore >= FACE_MATCH_THRESHOLD;

/**
 * POST /api/face-comparison. image1 is the live face; the reference is either image2 (a photo)
 * or the approved vehicle whose enrolled driver photo to compare with (faster: only the live
 * photo is analysed). Either photo may be cited as a capture instead (image1CaptureId,
 * image2CaptureId: POST /api/ocr's captureId).
 */
export const FaceComparisonRequestSchema = z
  .object({
    image1: ImagePayloadSchema.optional(),
    image1CaptureId: CaptureIdSchema.optional(),
    image2: ImagePayloadSchema.optional(),
    image2CaptureId: CaptureIdSchema.optional(),
    approvedVehicleId: IdSchema.optional(),
  })
  .strict()
  .refine((body) => (body.image1 === undefined) !== (body.image1CaptureId === undefined), {
    message: 'Send either image1 or image1CaptureId',
    path: ['image1'],
  })
  .refine(
    (body) =>
      [body.image2, body.image2CaptureId, body.approvedVehicleId].filter(
        (value) => value !== undefined,
      ).length === 1,
    {
      message: 'Send either image2 or approvedVehicleId (image2CaptureId in place of image2)',
      path: ['image2'],
    },
  );
export type FaceComparisonRequest = z.infer<typeof FaceComparisonRequestSchema>;

export const FaceBoxSchema = z.object({
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
});

export const FaceComparisonResponseSchema = z.object({
  /** 0–100, calibrated: see docs/vision/accuracy.md. */
  matchScore: z.number(),
  threshold: z.number(),
  /**
   * 'spoof_suspected' only when the organization gates on anti-spoofing (settings) and the live
   * photo scored below its threshold: the face is then not verified, whatever the match score.
   */
  decision: z.enum(['match', 'no_match', 'spoof_suspected']),
  faces: z.object({ live: FaceBoxSchema, reference: FaceBoxSchema.nullable() }),
  /** Passive anti-spoofing score of the live photo, 0–1 (1 = real), when measured. */
  liveness: z.number().nullable().optional(),
  /** How the anti-spoofing score was used: recorded only, or gating with this threshold. */
  antispoof: z
    .object({ gating: z.boolean(), threshold: z.number(), passed: z.boolean().nullable() })
    .optional(),
  /**
   * The comparison's record (face_comparisons). The gate cites it in grant-entry
   * (`faceComparisonId`) so the server takes the face verdict from its own record; one
   * comparison backs one entry.
   */
  comparisonId: z.string().optional(),
  /**
   * The live photo's capture: image1 sent inline is stored once as a capture (or the cited
   * image1CaptureId is echoed). grant-entry cites it as `driverFaceImageCaptureId` instead of
   * sending the face again.
   */
  image1CaptureId: z.string().optional(),
});
export type FaceComparisonResponse = z.infer<typeof FaceComparisonResponseSchema>;
