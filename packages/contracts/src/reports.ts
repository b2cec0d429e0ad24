import { z } from 'zod';

import { IdSchema } from './primitives';

/** The longest range one report covers: a year, leap day included. */
export const REPORT_MAX_DAYS = 366;

const DAY_MS = 86_400_000;
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/**
 * Issue 23: a report over site days `from` to `to` (both inclusive, in the site's timezone).
 * Calendar dates only, years 2000 to 2099, at most a year: anything else is a 400, never a scan.
 */
export const ReportSummaryQuerySchema = z
  .object({
    from: z.iso.date(),
    to: z.iso.date(),
    siteId: IdSchema.optional(),
  })
  .refine((query) => query.from >= '2000-01-01' && query.to <= '2099-12-31', {
    message: 'Dates must fall between 2000-01-01 and 2099-12-31.',
    path: ['from'],
  })
  .refine((query) => query.from <= query.to, {
    message: 'The range must start on or before its last day.',
    path: ['to'],
  })
  .refine((query) => daysBetween(query.from, query.to) < REPORT_MAX_DAYS, {
    message: `A report covers at most ${REPORT_MAX_DAYS} days.`,
    path: ['to'],
  });
export type ReportSummaryQuery = z.infer<typeof ReportSummaryQuerySchema>;

const CountsSchema = z.object({
  entries: z.number().int(),
  granted: z.number().int(),
  refused: z.number().int(),
  arrivals: z.number().int(),
  departures: z.number().int(),
});

/** A share 0..1, or null when there was nothing to divide (no entries). */
const RateSchema = z.number().min(0).max(1).nullable();

const TurnaroundSchema = z.object({
  /** Closed visits that began in the range. */
  visits: z.number().int(),
  medianMinutes: z.number().nullable(),
  p90Minutes: z.number().nullable(),
});

/**
 * Weighbridge figures: granted entries that cited a weighbridge ticket (loads), the net mass of
 * those whose ticket shows one (weighed), and the overload check of the ticket's gross mass against
 * the GVM on the licence disc, for single vehicles whose ticket and disc both show a mass.
 */
const WeighbridgeFiguresSchema = z.object({
  loads: z.number().int(),
  weighed: z.number().int(),
  netMassKg: z.number().int(),
  overloadChecked: z.number().int(),
  overloaded: z.number().int(),
  /** Overloaded of the checked loads; null when none could be checked. */
  overloadRate: RateSchema,
});

export const ReportSummarySchema = z.object({
  from: z.iso.date(),
  to: z.iso.date(),
  siteId: IdSchema.nullable(),
  timeZone: z.string(),
  totals: CountsSchema.extend({
    approved: z.number().int(),
    faceVerified: z.number().int(),
    corrected: z.number().int(),
  }),
  rates: z.object({
    approval: RateSchema,
    faceVerification: RateSchema,
    manualCorrection: RateSchema,
  }),
  /** Every day of the range, in order (zeros included), in the site's timezone. */
  days: z.array(CountsSchema.extend({ day: z.iso.date() })),
  /** The 24 hours of the site's day (0 = midnight to 1 am), summed over the range's days. */
  hours: z.array(CountsSchema.extend({ hour: z.number().int().min(0).max(23) })),
  /** Vehicles and people on site at the end of each hour of the range's last day. */
  onSite: z.array(z.object({ hour: z.number().int().min(0).max(23), count: z.number().int() })),
  refusalReasons: z.array(z.object({ reason: z.string(), count: z.number().int() })),
  turnaround: TurnaroundSchema.extend({
    /**
     * The same visits per band of minutes on site (`fromMinutes` inclusive, `toMinutes`
     * exclusive; null: no upper bound), every band in order, zeros included.
     */
    distribution: z.array(
      z.object({
        fromMinutes: z.number().int(),
        toMinutes: z.number().int().nullable(),
        visits: z.number().int(),
      }),
    ),
    /** The 20 transporters with most closed visits, most first. */
    byTransporter: z.array(TurnaroundSchema.extend({ transporter: z.string() })),
  }),
  weighbridge: WeighbridgeFiguresSchema.extend({
    /** The 50 transporters with most loads, most first ('' when the entry and ticket name none). */
    byTransporter: z.array(WeighbridgeFiguresSchema.extend({ transporter: z.string() })),
  }),
  /** Gates by entries attempted there, most first. */
  busiestGates: z.array(
    z.object({
      gateId: IdSchema.nullable(),
      gateName: z.string().nullable(),
      entries: z.number().int(),
    }),
  ),
});
export type ReportSummary = z.infer<typeof ReportSummarySchema>;

/** Issue 23: how often a tenant's summary is e-mailed ('off': never). */
export const REPORT_FREQUENCIES = ['off', 'daily', 'weekly'] as const;
export const REPORT_SCHEDULE_MAX_RECIPIENTS = 20;
/** The scheduled e-mail's attachment: an XLSX workbook or a PDF document. */
export const REPORT_FORMATS = ['xlsx', 'pdf'] as const;

/**
 * The scheduled report e-mail: daily (the previous SAST day, sent at 06:00 SAST) or weekly (the
 * previous Monday to Sunday, sent on Monday at 06:00 SAST), to its recipients as an XLSX
 * attachment, through the same SMTP channel as alerts.
 */
export const ReportScheduleSchema = z.object({
  frequency: z.enum(REPORT_FREQUENCIES),
  format: z.enum(REPORT_FORMATS),
  recipients: z.array(z.string()),
  /** The site whose report it is, in that site's timezone; null: every site, in SAST. */
  siteId: IdSchema.nullable(),
  /** When the next e-mail is due; null when off. */
  nextSendAt: z.iso.datetime({ offset: true }).nullable(),
});
export type ReportSchedule = z.infer<typeof ReportScheduleSchema>;

export const UpdateReportScheduleSchema = z
  .object({
    frequency: z.enum(REPORT_FREQUENCIES),
    format: z.enum(REPORT_FORMATS).default('xlsx'),
    recipients: z
      .array(z.email('Enter a valid e-mail address').max(254))
      .max(REPORT_SCHEDULE_MAX_RECIPIENTS),
    /** A site of the tenant (its report, in its timezone); null: every site; omitted: unchanged. */
    siteId: IdSchema.nullable().optional(),
  })
  .refine((body) => body.frequency === 'off' || body.recipients.length > 0, {
    message: 'Add at least one recipient.',
    path: ['recipients'],
  });
export type UpdateReportSchedule = z.input<typeof UpdateReportScheduleSchema>;
