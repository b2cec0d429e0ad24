import { z } from 'zod';

import { IdSchema, TimestampSchema } from './primitives';

/** Issue 16: a tenant's sites (mines, depots), their gates and the gates' lanes. */
export const DEFAULT_SITE_TIMEZONE = 'Africa/Johannesburg';
/** A visit longer than this (minutes) is an overstay unless the site says otherwise. */
export const DEFAULT_OVERSTAY_MINUTES = 12 * 60;

export const LANE_DIRECTIONS = ['in', 'out', 'both'] as const;
export const LaneDirectionSchema = z.enum(LANE_DIRECTIONS);
export type LaneDirection = z.infer<typeof LaneDirectionSchema>;

const NameSchema = z.string().trim().min(1, 'Name is required').max(100);

export const GateLaneSchema = z.object({
  name: NameSchema,
  direction: LaneDirectionSchema,
  /**
   * Issue 17: a fixed ANPR camera's reads on this lane decide on the server and open the barrier
   * without a guard (`POST /api/anpr/reads`). Absent: false (a guard decides).
   */
  automatic: z.boolean().optional(),
});
export type GateLane = z.infer<typeof GateLaneSchema>;

/** IANA zone names the server's runtime knows (Intl), e.g. Africa/Johannesburg. */
export const TimezoneSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, 'Unknown time zone');

export const OverstayMinutesSchema = z
  .number()
  .int()
  .min(1)
  .max(60 * 24 * 30);

export const SiteSchema = z.object({
  id: IdSchema,
  name: z.string(),
  timezone: z.string(),
  overstayMinutes: z.number().int(),
  isDefault: z.boolean(),
  isActive: z.boolean(),
  createdAt: TimestampSchema,
});
export type Site = z.infer<typeof SiteSchema>;
export const SiteListSchema = z.array(SiteSchema);

export const CreateSiteSchema = z.object({
  name: NameSchema,
  timezone: TimezoneSchema.optional(),
  overstayMinutes: OverstayMinutesSchema.optional(),
});
export type CreateSite = z.infer<typeof CreateSiteSchema>;

export const UpdateSiteSchema = z
  .object({
    name: NameSchema,
    timezone: TimezoneSchema,
    overstayMinutes: OverstayMinutesSchema,
    isActive: z.boolean(),
  })
  .partial();
export type UpdateSite = z.infer<typeof UpdateSiteSchema>;

const LanesSchema = z
  .array(GateLaneSchema)
  .max(20)
  .refine(
    (lanes) => new Set(lanes.map((lane) => lane.name.toLowerCase())).size === lanes.length,
    'Lane names must differ within a gate',
  );

export const GateSchema = z.object({
  id: IdSchema,
  siteId: IdSchema,
  name: z.string(),
  lanes: z.array(GateLaneSchema),
  isActive: z.boolean(),
  createdAt: TimestampSchema,
});
export type Gate = z.infer<typeof GateSchema>;
export const GateListSchema = z.array(GateSchema);

export const CreateGateSchema = z.object({
  name: NameSchema,
  lanes: LanesSchema.optional(),
});
export type CreateGate = z.infer<typeof CreateGateSchema>;

export const UpdateGateSchema = z
  .object({ name: NameSchema, lanes: LanesSchema, isActive: z.boolean() })
  .partial();
export type UpdateGate = z.infer<typeof UpdateGateSchema>;

export const SiteIdParamsSchema = z.object({ siteId: IdSchema });
