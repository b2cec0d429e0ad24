import { z } from 'zod';

import { IdSchema, TimestampSchema } from './primitives';

/** Largest push we read from a camera (bytes): the XML plus a plate picture and an overview. */
export const ANPR_PUSH_BODY_LIMIT_BYTES = 12 * 1024 * 1024;

/**
 * The generic JSON shape a camera (or a bridge in front of one) may push to
 * `POST /api/anpr/{cameraToken}`. Hikvision cameras push their own multipart format instead.
 */
export const AnprJsonReadSchema = z.object({
  plateNumber: z.string().trim().min(1).max(40),
  timestamp: TimestampSchema.nullish().transform((value) => value ?? null),
  /** A JPEG/PNG/WebP picture as base64 or a data URL; stored re-encoded without metadata. */
  image: z
    .string()
    .max(11 * 1024 * 1024)
    .nullish()
    .transform((value) => value || null),
  truckNumber: z
    .string()
    .trim()
    .max(60)
    .nullish()
    .transform((value) => value || null),
  transportName: z
    .string()
    .trim()
    .max(120)
    .nullish()
    .transform((value) => value || null),
});
export type AnprJsonRead = z.input<typeof AnprJsonReadSchema>;

export const AnprCameraTokenParamsSchema = z.object({
  cameraToken: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Unknown camera'),
});

export const AnprReadResultSchema = z.object({
  /** The truck-list entry created for this read. */
  id: IdSchema,
  plateNumber: z.string(),
  category: z.enum(['contracted', 'other']),
  /** True when the plate is an approved vehicle that is active and in date. */
  vehicleApproved: z.boolean(),
});
export type AnprReadResult = z.infer<typeof AnprReadResultSchema>;

export const AnprCameraSchema = z.object({
  id: IdSchema,
  name: z.string(),
  createdAt: TimestampSchema,
  lastSeenAt: TimestampSchema.nullable(),
  /** Issue 16: the site the camera watches; its reads are that site's truck-list entries. */
  siteId: IdSchema.nullable(),
  /** The gate it is mounted at, when set (a gate of `siteId`). */
  gateId: IdSchema.nullable(),
});
export type AnprCamera = z.infer<typeof AnprCameraSchema>;
export const AnprCameraListSchema = z.array(AnprCameraSchema);

const CameraNameSchema = z.string().trim().min(1, 'Name the camera').max(80);

/**
 * Issue 16: `siteId` and/or `gateId` place the camera (a gate fixes its site); neither: the
 * tenant's default site, or the caller's only site.
 */
export const CreateAnprCameraBodySchema = z
  .object({
    name: CameraNameSchema,
    siteId: IdSchema.optional(),
    gateId: IdSchema.optional(),
  })
  .strict();
export type CreateAnprCameraBody = z.infer<typeof CreateAnprCameraBodySchema>;

/** Renames or moves a camera; `gateId: null` clears its gate (it stays at its site). */
export const UpdateAnprCameraBodySchema = z
  .object({
    name: CameraNameSchema.optional(),
    siteId: IdSchema.optional(),
    gateId: IdSchema.nullable().optional(),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'Send name, siteId or gateId.');
export type UpdateAnprCameraBody = z.infer<typeof UpdateAnprCameraBodySchema>;

export const CreatedAnprCameraSchema = AnprCameraSchema.extend({
  /** The camera's secret push URL path. Shown once: only a hash of the token is kept. */
  pushUrl: z.string(),
  token: z.string(),
});
export type CreatedAnprCamera = z.infer<typeof CreatedAnprCameraSchema>;

export const AnprCameraIdParamsSchema = z.object({ id: IdSchema });
