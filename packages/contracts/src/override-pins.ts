import { z } from 'zod';

import { IdSchema, TimestampSchema } from './primitives';

/**
 * Supervisor override PINs (issue 21): when the organization enables them, a tenant_admin or
 * back_office user issues a one-time PIN (POST /api/overrides/pins), tells it to the guard at the
 * gate, and the guard overrides one refused entry with it and a reason
 * (POST /api/entry-logs/{id}/pin-override). The server keeps only a keyed hash of each PIN; a PIN
 * works once, until it expires; wrong PINs are throttled per guard and per organization.
 */
export const OVERRIDE_PIN_LENGTH = 6;
export const OVERRIDE_PIN_DEFAULT_VALIDITY_MINUTES = 15;
export const OVERRIDE_PIN_MAX_VALIDITY_MINUTES = 24 * 60;

/** GET /api/settings/override-pins. Off until the organization turns it on. */
export const OverridePinSettingsSchema = z.object({
  enabled: z.boolean(),
  /** How long an issued PIN works, in minutes. */
  validityMinutes: z.number().int(),
});
export type OverridePinSettings = z.infer<typeof OverridePinSettingsSchema>;

/** PATCH /api/settings/override-pins: either field or both. */
export const UpdateOverridePinSettingsSchema = z
  .object({
    enabled: z.boolean().optional(),
    validityMinutes: z.number().int().min(1).max(OVERRIDE_PIN_MAX_VALIDITY_MINUTES).optional(),
  })
  .strict()
  .refine((body) => body.enabled !== undefined || body.validityMinutes !== undefined, {
    message: 'Change at least one setting',
  });
export type UpdateOverridePinSettings = z.infer<typeof UpdateOverridePinSettingsSchema>;

/** POST /api/overrides/pins: an optional note of what the PIN is for (kept in the audit log). */
export const IssueOverridePinBodySchema = z
  .object({ note: z.string().trim().max(200).optional() })
  .strict();
export type IssueOverridePinBody = z.infer<typeof IssueOverridePinBodySchema>;

/** The PIN is shown once, in this answer; the server cannot show it again. */
export const IssuedOverridePinSchema = z.object({
  id: IdSchema,
  pin: z.string().regex(/^\d{6}$/),
  expiresAt: TimestampSchema,
});
export type IssuedOverridePin = z.infer<typeof IssuedOverridePinSchema>;

/** POST /api/entry-logs/{id}/pin-override: the guard's override with a supervisor's PIN. */
export const PinOverrideBodySchema = z
  .object({
    pin: z
      .string()
      .trim()
      .regex(/^\d{6}$/, `The PIN is ${OVERRIDE_PIN_LENGTH} digits`),
    reason: z
      .string()
      .trim()
      .min(3, 'Say why the entry is overridden')
      .max(500, 'At most 500 characters'),
  })
  .strict();
export type PinOverrideBody = z.infer<typeof PinOverrideBodySchema>;
