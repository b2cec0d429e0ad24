import { z } from 'zod';

import {
  ImagePayloadSchema,
  ImageUrlSchema,
  OptionalCaptureIdSchema,
  oneImageSourceEach,
} from './images';
import { InductionValiditySchema } from './induction';
import { PlateNumberSchema } from './plates';
import { IdSchema, TimestampSchema } from './primitives';

const OptionalText = z
  .string()
  .trim()
  .max(120)
  .nullish()
  .transform((value) => value || null);

/** YYYY-MM-DD or a full ISO timestamp; stored as a date (the approval lasts through that day). */
export const ApprovalDateSchema = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })])
  .transform((value) => value.slice(0, 10));

/**
 * Issue 21: a trailer of a rig (a truck-tractor with up to two trailers): its own plate, licence
 * disc number and disc expiry (YYYY-MM-DD, valid through that day).
 */
export const TrailerSchema = z
  .object({
    plateNumber: PlateNumberSchema,
    discNumber: OptionalText,
    discExpiry: z.iso
      .date()
      .nullish()
      .transform((value) => value ?? null),
  })
  .strict();
export type Trailer = z.output<typeof TrailerSchema>;
export const MAX_TRAILERS = 2;
export const TrailersSchema = z
  .array(TrailerSchema)
  .max(MAX_TRAILERS, `A rig has at most ${MAX_TRAILERS} trailers`)
  .refine(
    (trailers) => new Set(trailers.map((trailer) => trailer.plateNumber)).size === trailers.length,
    { message: 'Each trailer has its own plate' },
  );

export const ApprovedVehicleSchema = z.object({
  id: IdSchema,
  plateNumber: z.string(),
  driverName: z.string(),
  driverLicense: z.string().nullable(),
  company: z.string().nullable(),
  driverPhoto: ImageUrlSchema.nullable(),
  approvedUntil: z.iso.date().nullable(),
  /** False when switched off, when approvedUntil has passed or while its registration is pending. */
  isActive: z.boolean(),
  hasFaceEnrolment: z.boolean(),
  createdAt: TimestampSchema,
  /**
   * A security guard's proposal waiting for back_office or an admin (separation of duties):
   * 'registration' (the vehicle is not approved until confirmed) or 'deletion' (it stays as it
   * is until confirmed); null when nothing is pending. Shown as "Pending approval".
   */
  pendingApproval: z.enum(['registration', 'deletion']).nullable(),
  /** Issue 21: the rig's trailers (at most 2); empty for a rigid vehicle. */
  trailers: z
    .array(
      z.object({
        plateNumber: z.string(),
        discNumber: z.string().nullable(),
        discExpiry: z.iso.date().nullable(),
      }),
    )
    .optional(),
});
export type ApprovedVehicle = z.infer<typeof ApprovedVehicleSchema>;
export const ApprovedVehicleListSchema = z.array(ApprovedVehicleSchema);

export const CreateApprovedVehicleBodySchema = z
  .object({
    plateNumber: PlateNumberSchema,
    driverName: z.string().trim().min(1, 'Plate number and driver name are required').max(120),
    driverLicense: OptionalText,
    company: OptionalText,
    driverPhoto: ImagePayloadSchema.nullish(),
    /** The driver photo's capture (POST /api/ocr with type face), instead of sending it again. */
    driverPhotoCaptureId: OptionalCaptureIdSchema,
    approvedUntil: ApprovalDateSchema.nullish(),
    isActive: z.boolean().default(true),
    /** The driver agreed to their photo being used for face verification (POPIA). */
    biometricConsent: z.boolean().optional(),
    /** Issue 21: the trailers of a rig, each with its own plate and disc (at most 2). */
    trailers: TrailersSchema.default([]),
  })
  .strict()
  .superRefine(oneImageSourceEach(['driverPhoto']));
export type CreateApprovedVehicleBody = z.input<typeof CreateApprovedVehicleBodySchema>;

/** GET /api/approved-vehicles/plate/{plate} (spec §7). */
export const PlateLookupSchema = z.object({
  id: IdSchema,
  plateNumber: z.string(),
  isActive: z.boolean(),
  driverPhoto: ImageUrlSchema.nullable(),
  driverName: z.string(),
  company: z.string().nullable(),
  hasFaceEnrolment: z.boolean(),
  /** A security guard's registration waiting for back office or an admin: not approved (isActive false). */
  pendingApproval: z.boolean(),
  /**
   * The safety induction of the driver the vehicle was onboarded for (issue 7), computed on the
   * server like GET /api/induction/status; null when no driver record is linked. A warning for
   * the guard, never a reason to refuse entry. The driver's ID number is not sent.
   */
  induction: InductionValiditySchema.nullable(),
});
export type PlateLookup = z.infer<typeof PlateLookupSchema>;

/** GET /api/verify-vehicle/{plate}: approved only when registered and active. */
export const VerifyVehicleSchema = z.object({
  approved: z.boolean(),
  plateNumber: z.string(),
  reason: z.enum(['approved', 'not_registered', 'inactive', 'expired', 'pending_approval']),
  vehicle: ApprovedVehicleSchema.nullable(),
});
export type VerifyVehicle = z.infer<typeof VerifyVehicleSchema>;

/** POST /api/approved-vehicles/{id}/confirm and /reject: an optional note for the audit trail. */
export const ProposalDecisionBodySchema = z
  .object({ note: z.string().trim().max(500).optional() })
  .strict()
  .default({});
export type ProposalDecisionBody = z.input<typeof ProposalDecisionBodySchema>;

/** What a confirmation or rejection did; `vehicle` is null once the vehicle is gone. */
export const ProposalDecisionSchema = z.object({
  outcome: z.enum(['approved', 'deleted', 'rejected']),
  vehicle: ApprovedVehicleSchema.nullable(),
});
export type ProposalDecision = z.infer<typeof ProposalDecisionSchema>;

/**
 * Issue 21: PUT /api/approved-vehicles/{id}/trailers replaces a vehicle's trailers (an empty list
 * makes it a rigid vehicle again). Each plate is screened against the watchlist as on
 * registration.
 */
export const UpdateTrailersBodySchema = z.object({ trailers: TrailersSchema }).strict();
export type UpdateTrailersBody = z.input<typeof UpdateTrailersBodySchema>;

export const PlateParamsSchema = z.object({ plate: z.string().max(40) });
export const VehicleIdParamsSchema = z.object({ id: IdSchema });
