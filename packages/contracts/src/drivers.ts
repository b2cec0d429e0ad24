import { z } from 'zod';

import { ApprovedVehicleSchema } from './approved-vehicles';
import { ImagePayloadSchema, ImageUrlSchema } from './images';
import { normalisePhone, PHONE_MESSAGE } from './phone';
import { normalisePlate } from './plates';
import { IdSchema, PageQuerySchema, TimestampSchema } from './primitives';
import { SaIdNumberSchema } from './sa-id-number';

/** How a driver record came to exist. */
export const DRIVER_SOURCES = ['bulk', 'individual', 'self'] as const;
export type DriverSource = (typeof DRIVER_SOURCES)[number];

/** Spreadsheet cells and form inputs arrive as strings; absent and blank mean "not given". */
const optionalInput = z
  .string()
  .nullish()
  .transform((value) => value?.trim() || null);

const requiredText = (label: string, max = 120) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label}: at most ${max} characters.`);

const optionalText = (label: string, max = 120) =>
  optionalInput.pipe(z.string().max(max, `${label}: at most ${max} characters.`).nullable());

/**
 * A calendar date as people type it in South Africa: 2027-03-31, 2027/03/31 or 31/03/2027.
 * Returns YYYY-MM-DD, or null when `text` is not a real date in one of those forms.
 */
export function parseCalendarDate(text: string): string | null {
  const value = text.trim();
  const isoLike = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(value);
  const dayFirst = /^(\d{1,2})[-/](\d{1,2})[-/](\d{4})$/.exec(value);
  const [year, month, day] = isoLike
    ? [isoLike[1], isoLike[2], isoLike[3]]
    : dayFirst
      ? [dayFirst[3], dayFirst[2], dayFirst[1]]
      : [];
  if (!year || !month || !day) return null;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const isReal =
    date.getUTCFullYear() === Number(year) &&
    date.getUTCMonth() === Number(month) - 1 &&
    date.getUTCDate() === Number(day);
  return isReal ? date.toISOString().slice(0, 10) : null;
}

const optionalDate = (label: string) =>
  optionalInput.transform((value, context) => {
    if (value === null) return null;
    const date = parseCalendarDate(value);
    if (date === null) {
      context.addIssue({
        code: 'custom',
        message: `${label}: use a date like 2027-03-31 (or 31/03/2027).`,
      });
      return z.NEVER;
    }
    return date;
  });

/** Optional; given, it must be a South African number. Stored as 0XXXXXXXXX. */
const optionalPhone = optionalInput.transform((value, context) => {
  if (value === null) return null;
  const phone = normalisePhone(value);
  if (phone === null) {
    context.addIssue({ code: 'custom', message: PHONE_MESSAGE });
    return z.NEVER;
  }
  return phone;
});

/** Optional; given, normalised as spec §5 (upper case, letters and digits only). */
const optionalPlate = optionalInput.transform((value, context) => {
  if (value === null) return null;
  const plate = normalisePlate(value);
  if (plate.length < 2 || plate.length > 10 || value.length > 40) {
    context.addIssue({
      code: 'custom',
      message: 'Plate number must have 2 to 10 letters or digits.',
    });
    return z.NEVER;
  }
  return plate;
});

/** Who the driver is. Shared by every way a driver is registered. */
export const DriverFieldsSchema = z.object({
  name: requiredText('Driver name'),
  surname: requiredText('Surname'),
  idNumber: SaIdNumberSchema,
  phone: optionalPhone,
  licenceNumber: optionalText('Licence number', 40).transform(
    (value) => value?.replace(/\s/g, '').toUpperCase() || null,
  ),
  licenceValidTo: optionalDate('Licence valid to'),
  transportCompany: optionalText('Transport company'),
});

/**
 * One driver, optionally with the vehicle they bring: a row of the bulk file and the individual
 * form are the same record. A plate makes an approved vehicle (approvedUntil defaults to three
 * months from today, spec §5).
 */
export const DriverRecordSchema = DriverFieldsSchema.extend({
  plateNumber: optionalPlate,
  approvedUntil: optionalDate('Approved until'),
  // Issue 21: a rig's trailers (the bulk file's "Trailer 1 Plate" … "Trailer 2 Disc Expiry").
  trailer1Plate: optionalPlate,
  trailer1DiscNumber: optionalText('Trailer 1 disc number', 40),
  trailer1DiscExpiry: optionalDate('Trailer 1 disc expiry'),
  trailer2Plate: optionalPlate,
  trailer2DiscNumber: optionalText('Trailer 2 disc number', 40),
  trailer2DiscExpiry: optionalDate('Trailer 2 disc expiry'),
}).superRefine((record, context) => {
  if (record.approvedUntil !== null && record.plateNumber === null) {
    context.addIssue({
      code: 'custom',
      path: ['approvedUntil'],
      message: 'Approved until needs a plate number.',
    });
  }
  for (const n of [1, 2] as const) {
    const plate = record[`trailer${n}Plate`];
    if (plate !== null && record.plateNumber === null)
      context.addIssue({
        code: 'custom',
        path: [`trailer${n}Plate`],
        message: `Trailer ${n} needs the truck's plate number.`,
      });
    if (
      plate === null &&
      (record[`trailer${n}DiscNumber`] !== null || record[`trailer${n}DiscExpiry`] !== null)
    )
      context.addIssue({
        code: 'custom',
        path: [`trailer${n}Plate`],
        message: `Trailer ${n}'s disc needs the trailer's plate.`,
      });
  }
  if (record.trailer1Plate !== null && record.trailer1Plate === record.trailer2Plate)
    context.addIssue({
      code: 'custom',
      path: ['trailer2Plate'],
      message: 'Each trailer has its own plate.',
    });
});

/** Issue 21: the record's trailers, as an approved vehicle holds them. */
export function trailersOf(record: DriverRecord) {
  return ([1, 2] as const).flatMap((n) => {
    const plateNumber = record[`trailer${n}Plate`];
    return plateNumber === null
      ? []
      : [
          {
            plateNumber,
            discNumber: record[`trailer${n}DiscNumber`],
            discExpiry: record[`trailer${n}DiscExpiry`],
          },
        ];
  });
}
export type DriverRecordInput = z.input<typeof DriverRecordSchema>;
export type DriverRecord = z.output<typeof DriverRecordSchema>;
export type DriverRecordField = keyof DriverRecordInput;

/** POST /api/drivers: one driver (and vehicle) from the individual tab. */
export const CreateDriverBodySchema = DriverRecordSchema;

export const DriverSchema = z.object({
  id: IdSchema,
  name: z.string(),
  surname: z.string(),
  idNumber: z.string(),
  phone: z.string().nullable(),
  licenceNumber: z.string().nullable(),
  licenceValidTo: z.iso.date().nullable(),
  transportCompany: z.string().nullable(),
  /** The selfie (self onboarding), served by the audited image route. */
  photo: ImageUrlSchema.nullable(),
  licenceImage: ImageUrlSchema.nullable(),
  livenessConfidence: z.number().nullable(),
  source: z.enum(DRIVER_SOURCES),
  createdAt: TimestampSchema,
});
export type Driver = z.infer<typeof DriverSchema>;
export const DriverListSchema = z.array(DriverSchema);
/**
 * GET /api/drivers: a page, newest first (issue 26: only the page's ID numbers are opened). The
 * next page's cursor is in the X-Next-Cursor header; absent on the last page.
 */
export const ListDriversQuerySchema = PageQuerySchema;

export const CreatedDriverSchema = z.object({
  driver: DriverSchema,
  vehicle: ApprovedVehicleSchema.nullable(),
});
export type CreatedDriver = z.infer<typeof CreatedDriverSchema>;

/**
 * One capture of the liveness check: the camera frame the browser judged for a prompt, as a JPEG
 * data URL at most 640 px on the long side (tens of KB; the limit leaves room for any camera).
 */
export const LIVENESS_FRAME_MAX_CHARS = 2_000_000;
const LivenessFramePayloadSchema = z
  .string()
  .min(1, 'Each liveness capture is required')
  .max(LIVENESS_FRAME_MAX_CHARS, 'A liveness capture must be smaller than 1.5MB.');

/** The four prompts' captures (look at the camera, blink, turn left, turn right). */
export const LivenessFramesSchema = z
  .object({
    look: LivenessFramePayloadSchema,
    blink: LivenessFramePayloadSchema,
    turn_left: LivenessFramePayloadSchema,
    turn_right: LivenessFramePayloadSchema,
  })
  .strict();
export type LivenessFrames = z.infer<typeof LivenessFramesSchema>;

/** POST /api/onboarding/self: the four steps of spec §4 in one request. */
export const SelfOnboardingBodySchema = DriverFieldsSchema.extend({
  licencePhoto: ImagePayloadSchema,
  selfie: ImagePayloadSchema,
  /**
   * The frames the liveness check judged. The server finds the face in each, checks it is the
   * selfie's person, and judges blink and turns itself; its verdict is what is stored.
   */
  livenessFrames: LivenessFramesSchema,
  /**
   * What the browser's check claims (0–1, or a percentage). Accepted for older clients and
   * ignored: the stored confidence is the server's.
   */
  livenessConfidence: z.number().min(0).max(100).optional(),
  /** The driver agreed to their selfie being kept for identity checks (POPIA). */
  biometricConsent: z.literal(true, {
    error: 'Agree to your selfie being kept for identity checks before you finish.',
  }),
}).strict();
export type SelfOnboardingBody = z.input<typeof SelfOnboardingBodySchema>;

export const SelfOnboardedSchema = z.object({
  driver: DriverSchema,
  /** A signed reference to the driver's record, for the optional QR code. */
  reference: z.string(),
});
export type SelfOnboarded = z.infer<typeof SelfOnboardedSchema>;

/** POST /api/drivers/verify-reference: what a scanned QR code holds. */
export const VerifyDriverReferenceBodySchema = z
  .object({ reference: z.string().trim().min(1, 'Scan or enter a reference.').max(300) })
  .strict();

export const VerifiedDriverSchema = z.object({
  driver: DriverSchema,
  /** True when the licence's valid-to date has passed (site calendar). */
  licenceExpired: z.boolean(),
});
export type VerifiedDriver = z.infer<typeof VerifiedDriverSchema>;

export const DriverIdParamsSchema = z.object({ id: IdSchema });
