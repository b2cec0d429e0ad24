import { z } from 'zod';

import { CorrectionListSchema } from './corrections';
import { ClientRefusalReasonSchema, EntryWarningSchema, RefusalReasonSchema } from './entry-checks';
import {
  CaptureIdListSchema,
  ImagePayloadSchema,
  ImageUrlSchema,
  OptionalCaptureIdSchema,
  oneImageSourceEach,
} from './images';
import { PlateNumberSchema } from './plates';
import { IdSchema, PageQuerySchema, TimestampSchema } from './primitives';

export const EntryCategorySchema = z.enum(['visitor', 'contracted']);
export type EntryCategory = z.infer<typeof EntryCategorySchema>;

const Text = (max = 120) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => value || null);
const DocumentId = IdSchema.nullish().transform((value) => value ?? null);
const Image = ImagePayloadSchema.nullish().transform((value) => value ?? null);

/**
 * POST /api/auto-gate/grant-entry. One schema for both shapes of spec §3: the auto gate sends
 * category 'contracted' with plate and face images; the real gate sends the larger payload.
 */
export const GrantEntryBodySchema = z
  .object({
    category: EntryCategorySchema.default('visitor'),
    plateNumber: PlateNumberSchema,
    extractedPlate: Text(40),
    plateImage: Image,
    plateImageCaptureId: OptionalCaptureIdSchema,
    vehicleDiskImage: Image,
    vehicleDiskImageCaptureId: OptionalCaptureIdSchema,
    vehicleLicenceDiscId: DocumentId,
    driverFaceImage: Image,
    driverFaceImageCaptureId: OptionalCaptureIdSchema,
    driverName: Text(),
    driverSurname: Text(),
    driverIdNumber: Text(20),
    driverPhone1: Text(30),
    driverPhone2: Text(30),
    driverPhone3: Text(30),
    identityDocumentId: DocumentId,
    driverLicenseImage: Image,
    driverLicenseImageCaptureId: OptionalCaptureIdSchema,
    driversLicenceId: DocumentId,
    driverPassportNumber: Text(20),
    passportImage: Image,
    passportImageCaptureId: OptionalCaptureIdSchema,
    passportRecordId: DocumentId,
    permitImages: z.array(ImagePayloadSchema).max(5, 'At most 5 permit images').default([]),
    /** Permit images cited as captures (issue 14), kept after those sent in permitImages. */
    permitImagesCaptureIds: CaptureIdListSchema,
    transportName: Text(),
    weighbridgeTicketId: DocumentId,
    /**
     * Issue 21: the plates of the trailers the truck-tractor pulls (at most 2). Each is checked
     * against the approved vehicle's rig (plate and disc) and screened by the watchlist.
     */
    trailerPlates: z.array(PlateNumberSchema).max(2, 'A rig has at most 2 trailers').default([]),
    /**
     * Issue 21: the trailers' licence discs, saved first (POST /api/licence-disc) and cited by id
     * (at most 2). Each disc must belong to a trailer presented (`trailerPlates`) and be in date.
     */
    trailerLicenceDiscIds: z
      .array(IdSchema)
      .max(2, 'A rig has at most 2 trailers')
      .refine((ids) => new Set(ids).size === ids.length, 'Cite each trailer disc once')
      .default([]),
    /**
     * The client's view of the verdicts (spec §3). Never stored as such: the server decides
     * vehicleApproved from the register and faceVerified/matchScore from a comparison it made or
     * holds; a claim its evidence does not back comes back as a warning.
     */
    vehicleApproved: z.boolean().default(false),
    faceVerified: z.boolean().default(false),
    entryGranted: z.boolean().default(true),
    matchScore: z.number().min(0).max(100).nullish(),
    /** Why the screen refused (`entryGranted: false`); guard_refused when not given. */
    refusalReason: ClientRefusalReasonSchema.nullish(),
    /**
     * The face comparison behind the face verdict (from /api/face-comparison): the server takes
     * the verdict and score from its own record, which then backs this entry only. Without it,
     * a `driverFaceImage` is compared by the server itself with the reference on file.
     */
    faceComparisonId: IdSchema.optional(),
    /** Notes from the guard's screen, recorded with the entry as `guard_note` warnings. */
    warnings: z.array(z.string().max(300)).max(20).default([]),
    /** Issue 16: where the entry happened (default: the guard's site, or the default site). */
    siteId: IdSchema.optional(),
    gateId: IdSchema.optional(),
    /** When the camera saw the vehicle (turnaround runs from it); default the entry's time. */
    capturedAt: TimestampSchema.optional(),
    /**
     * Issue 18: decided on the device while the server could not be reached (replayed from its
     * queue). The server decides again; a grant it refuses raises `offline_entry_refused`.
     */
    recordedOffline: z.boolean().default(false),
    /**
     * Issue 15: fields the guard typed, confirmed or corrected on this screen (the plate, driver
     * details), each with the capture it was read from; kept beside the read values.
     */
    corrections: CorrectionListSchema,
  })
  .strict()
  .superRefine(
    oneImageSourceEach([
      'plateImage',
      'vehicleDiskImage',
      'driverFaceImage',
      'driverLicenseImage',
      'passportImage',
    ]),
  )
  .refine((body) => body.permitImages.length + body.permitImagesCaptureIds.length <= 5, {
    message: 'At most 5 permit images',
    path: ['permitImagesCaptureIds'],
  })
  .refine((body) => !(body.entryGranted && body.refusalReason), {
    message: 'A granted entry has no refusal reason',
    path: ['refusalReason'],
  });
export type GrantEntryBody = z.input<typeof GrantEntryBodySchema>;

/**
 * Issue 21: POST /api/entry-logs/{id}/override — a tenant_admin or back_office user grants one
 * refused entry, with a reason. The entry keeps its refusal; the override is shown beside it.
 */
export const OverrideEntryBodySchema = z
  .object({
    reason: z
      .string()
      .trim()
      .min(3, 'Say why the entry is overridden')
      .max(500, 'At most 500 characters'),
  })
  .strict();
export const EntryLogParamsSchema = z.object({ id: IdSchema });

export const EntryOverrideSchema = z.object({
  reason: z.string(),
  overriddenAt: TimestampSchema,
  overriddenBy: z.object({ id: IdSchema.nullable(), name: z.string().nullable() }),
  /**
   * A guard's override with a supervisor's one-time PIN: the guard who entered it
   * (`overriddenBy` is the supervisor who issued the PIN); absent for a supervisor's own.
   */
  enteredBy: z.object({ id: IdSchema.nullable(), name: z.string().nullable() }).nullish(),
});
export type EntryOverride = z.infer<typeof EntryOverrideSchema>;

export const EntryLogSchema = z.object({
  id: IdSchema,
  timestamp: TimestampSchema,
  category: EntryCategorySchema,
  plateNumber: z.string(),
  extractedPlate: z.string().nullable(),
  vehicleApproved: z.boolean(),
  faceVerified: z.boolean(),
  entryGranted: z.boolean(),
  matchScore: z.number().nullable(),
  refusalReason: RefusalReasonSchema.nullable(),
  driverName: z.string().nullable(),
  driverSurname: z.string().nullable(),
  driverIdNumber: z.string().nullable(),
  driverPhone1: z.string().nullable(),
  driverPhone2: z.string().nullable(),
  driverPhone3: z.string().nullable(),
  driverPassportNumber: z.string().nullable(),
  transportName: z.string().nullable(),
  vehicleLicenceDiscId: IdSchema.nullable(),
  identityDocumentId: IdSchema.nullable(),
  driversLicenceId: IdSchema.nullable(),
  passportRecordId: IdSchema.nullable(),
  weighbridgeTicketId: IdSchema.nullable(),
  plateImage: ImageUrlSchema.nullable(),
  vehicleDiskImage: ImageUrlSchema.nullable(),
  driverFaceImage: ImageUrlSchema.nullable(),
  driverLicenseImage: ImageUrlSchema.nullable(),
  passportImage: ImageUrlSchema.nullable(),
  permitImages: z.array(ImageUrlSchema),
  /** The server's checks of this entry (issue 14), in the order found. */
  warnings: z.array(EntryWarningSchema),
  recordedBy: z.object({ id: IdSchema.nullable(), name: z.string().nullable() }),
  /** Issue 21: the trailers' plates presented with the truck-tractor (a rig). */
  trailerPlates: z.array(z.string()).optional(),
  /** Issue 21: the trailers' licence discs the entry cited. */
  trailerLicenceDiscIds: z.array(IdSchema).optional(),
  /** Issue 21: a supervisor's override of this refused entry (who, why, when); null when none. */
  override: EntryOverrideSchema.nullish(),
  /** Issue 16: the site and gate of the entry (null only for entries of no site). */
  siteId: IdSchema.nullable().optional(),
  gateId: IdSchema.nullable().optional(),
});
export type EntryLog = z.infer<typeof EntryLogSchema>;
export const EntryLogListSchema = z.array(EntryLogSchema);

export const ListEntryLogsQuerySchema = PageQuerySchema.extend({
  /** Issue 16: one site's entries (within the caller's sites). */
  siteId: IdSchema.optional(),
});
/** Issue 16: the dashboard of one site (within the caller's sites). */
export const DashboardQuerySchema = z.object({ siteId: IdSchema.optional() });

export const DashboardSchema = z.object({
  totalEntries: z.number().int(),
  todayEntries: z.number().int(),
  /** Entries whose vehicle the register approved (the recent table's APPROVED badge). */
  approvedEntries: z.number().int(),
  /** Attempts that ended in an entry (`entryGranted`); every attempt counts in totalEntries. */
  grantedEntries: z.number().int(),
  faceVerifiedEntries: z.number().int(),
  /** Percent of attempts granted (grantedEntries ÷ totalEntries), 0–100, one decimal. */
  approvalRate: z.number(),
  /** Percent of entries face-verified, 0–100, one decimal. */
  verificationRate: z.number(),
  registeredVehicles: z.number().int(),
  activeUsers: z.number().int(),
  recentEntries: EntryLogListSchema,
  /** Issue 16: vehicles and people on site now (the On Site card). */
  onSiteNow: z.number().int().optional(),
});
export type Dashboard = z.infer<typeof DashboardSchema>;
