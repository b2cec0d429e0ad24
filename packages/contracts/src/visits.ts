import { z } from 'zod';

import { normalisePlate } from './plates';
import { IdSchema, PageQuerySchema, TimestampSchema } from './primitives';

/** Issue 16: stays on site — a vehicle's (opened by its granted entry) or a person's on foot. */
export const VisitKindSchema = z.enum(['vehicle', 'person']);
export const ExitSourceSchema = z.enum(['guard', 'anpr', 'webhook']);

const Text = (max: number) => z.string().trim().min(1).max(max);

/**
 * The device's own time of the capture. Accepted for compatibility (clients send it) and not used
 * for any decision: turnaround runs from the times the server received the captures.
 */
export const CapturedAtSchema = TimestampSchema.optional();

/**
 * What the exit's weighbridge ticket and seals disagree on with the entry's, found by the server
 * when the exit is recorded (shown as warnings; the exit is still recorded).
 */
export const ExitMismatchCodeSchema = z.enum([
  'seal_mismatch',
  'ticket_number_mismatch',
  'ticket_vehicle_mismatch',
]);
export const ExitMismatchSchema = z.object({
  code: ExitMismatchCodeSchema,
  /** The entry's value (its weighbridge ticket, or the visit's plate). */
  entry: z.string(),
  /** The exit's value. */
  exit: z.string(),
  message: z.string(),
});
export type ExitMismatch = z.infer<typeof ExitMismatchSchema>;

/** What an exit a person records may carry (by entry, by visit or by plate). */
const exitEvidence = {
  gateId: IdSchema.optional(),
  capturedAt: CapturedAtSchema,
  /** The outbound weighbridge ticket's number. */
  ticketNumber: Text(40).optional(),
  sealNumbers: z.array(Text(40)).max(20).optional(),
  /**
   * The outbound weighbridge ticket saved with POST /api/weighbridge-ticket: its number and seals
   * are the exit's (unless sent above) and are checked against the entry's ticket.
   */
  weighbridgeTicketId: IdSchema.optional(),
  /** The plate capture of the exit (POST /api/ocr): its receipt time is the exit's time. */
  plateImageCaptureId: IdSchema.optional(),
};

/**
 * `POST /api/visits/plate-exit`: a guard at an out-lane scans (or types) the plate of a vehicle
 * leaving; the server closes that plate's open visit at the gate's site (or the site named, or
 * the guard's sites). 404 when the plate is not on site there.
 */
export const RecordPlateExitBodySchema = z
  .object({
    plateNumber: z
      .string()
      .max(40)
      .transform((value) => normalisePlate(value))
      .refine(
        (plate) => plate.length >= 2 && plate.length <= 10,
        'The plate number must have 2 to 10 letters or digits.',
      ),
    siteId: IdSchema.optional(),
    ...exitEvidence,
  })
  .strict();
export type RecordPlateExitBody = z.input<typeof RecordPlateExitBodySchema>;

export const RecordExitBodySchema = z
  .object({
    ...exitEvidence,
    /**
     * Issue 18: recorded while the device was offline and sent later: `capturedAt` (kept between
     * the entry and now) is then the exit's time, since the server received nothing at the time.
     */
    recordedOffline: z.boolean().optional(),
  })
  .strict()
  .nullish()
  .transform((body) => body ?? {});
export type RecordExitBody = z.input<typeof RecordExitBodySchema>;

export const SignInPersonBodySchema = z
  .object({
    siteId: IdSchema.optional(),
    gateId: IdSchema.optional(),
    name: Text(120),
    /** SA ID or passport number. */
    idNumber: Text(30).optional(),
    company: Text(120).optional(),
    capturedAt: CapturedAtSchema,
  })
  .strict();
export type SignInPersonBody = z.input<typeof SignInPersonBodySchema>;

export const VisitSchema = z.object({
  id: IdSchema,
  kind: VisitKindSchema,
  siteId: IdSchema,
  gateId: IdSchema.nullable(),
  entryLogId: IdSchema.nullable(),
  plateNumber: z.string().nullable(),
  personName: z.string().nullable(),
  personIdNumber: z.string().nullable(),
  company: z.string().nullable(),
  enteredAt: TimestampSchema,
  enteredBy: z.object({ id: IdSchema.nullable(), name: z.string().nullable() }),
  /** The plate or person was still on site when this visit began. */
  reEntry: z.boolean(),
  /** On site longer than the site's overstay limit (now, or until the exit). */
  overstay: z.boolean(),
  exitedAt: TimestampSchema.nullable(),
  exitGateId: IdSchema.nullable(),
  exitSource: ExitSourceSchema.nullable(),
  exitedBy: z.object({ id: IdSchema.nullable(), name: z.string().nullable() }).nullable(),
  exitTicketNumber: z.string().nullable(),
  exitSealNumbers: z.array(z.string()).nullable(),
  /** The exit's ticket and seals against the entry's; empty when they agree or were not sent. */
  exitMismatches: z.array(ExitMismatchSchema),
  /** Exit minus entry, from the times the server received them, in whole minutes; null while on site. */
  turnaroundMinutes: z.number().int().nullable(),
});
export type Visit = z.infer<typeof VisitSchema>;
export const VisitListSchema = z.array(VisitSchema);

/** GET /api/on-site: newest first, keyset-paged (`cursor` from X-Next-Cursor). */
export const OnSiteQuerySchema = PageQuerySchema.extend({ siteId: IdSchema.optional() });

/**
 * `POST /api/webhook/incoming/{tenantId}/exit`: a booking system reports a vehicle's exit (signed
 * like the incoming webhook). The visit is found by our entry id, else the plate's open visit.
 */
export const IncomingExitPayloadSchema = z
  .object({
    entryLogId: IdSchema.optional(),
    plateNumber: z
      .string()
      .max(40)
      .optional()
      .transform((value) => (value ? normalisePlate(value) || undefined : undefined)),
    /**
     * Issue 16: the site the vehicle leaves: the plate's open visit there (the entry's visit must
     * be there). Another tenant's or an unknown site is refused (400).
     */
    siteId: IdSchema.optional(),
    gateId: IdSchema.optional(),
    ticketNumber: Text(40).optional(),
    sealNumbers: z.array(Text(40)).max(20).optional(),
    /** The sender's time of the exit: kept out of decisions (the receipt time is the exit's). */
    timestamp: TimestampSchema.optional(),
  })
  .strict()
  .refine(
    (body) => Boolean(body.entryLogId || body.plateNumber),
    'Send entryLogId or plateNumber.',
  );
export type IncomingExitPayload = z.input<typeof IncomingExitPayloadSchema>;
