import { z } from 'zod';

import { ImagePayloadSchema } from './images';
import { IdSchema } from './primitives';

/** Spec §4/§9: a match needs at least 70. */
export const FACE_MATCH_THRESHOLD = 70;

/**
 * POST /api/face-comparison. image1 is the live face; the reference is either image2 (a photo)
 * or the approved vehicle whose enrolled driver photo to compare with (faster: only the live
 * photo is analysed).
 */
export const FaceComparisonRequestSchema = z
  .object({
    image1: ImagePayloadSchema,
    image2: ImagePayloadSchema.optional(),
    approvedVehicleId: IdSchema.optional(),
  })
  .strict()
  .refine((body) => (body.image2 === undefined) !== (body.approvedVehicleId === undefined), {
    message: 'Send either image2 or approvedVehicleId',
    path: ['image2'],
  });
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
   * The audited comparison. The gate sends it with grant-entry so the server takes the face
   * verdict from its own record instead of the client's word.
   */
  comparisonId: z.string().optional(),
});
export type FaceComparisonResponse = z.infer<typeof FaceComparisonResponseSchema>;
