import { z } from 'zod';

import { IdSchema, PageQuerySchema, TimestampSchema } from './primitives';

/** Issue 16: stays on site — a vehicle's (opened by its granted entry) or a person's on foot. */
export const VisitKindSchema = z.enum(['vehicle', 'person']);
export const ExitSourceSchema = z.enum(['guard', 'anpr', 'webhook']);

const Text = (max: number) => z.string().trim().min(1).max(max);

/**
 * When the camera or guard saw it (capture time), if not now. Turnaround is the difference of
 * capture times; a time more than five minutes ahead of the server's clock is refused.
 */
export const CapturedAtSchema = TimestampSchema.optional();

export const RecordExitBodySchema = z
  .object({
    gateId: IdSchema.optional(),
    capturedAt: CapturedAtSchema,
    /** The outbound weighbridge ticket's number. */
    ticketNumber: Text(40).optional(),
    sealNumbers: z.array(Text(40)).max(20).optional(),
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
  /** Exit minus entry capture time, in whole minutes; null while on site. */
  turnaroundMinutes: z.number().int().nullable(),
});
export type Visit = z.infer<typeof VisitSchema>;
export const VisitListSchema = z.array(VisitSchema);

/** GET /api/on-site: newest first, keyset-paged (`cursor` from X-Next-Cursor). */
export const OnSiteQuerySchema = PageQuerySchema.extend({ siteId: IdSchema.optional() });
