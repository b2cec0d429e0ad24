import { z } from 'zod';

/** Days; null means "the server default" (BIOMETRIC_RETENTION_DAYS / DOCUMENT_RETENTION_DAYS). */
const RetentionDays = z
  .number({ error: 'Enter a number of days' })
  .int('Enter a whole number of days')
  .min(1, 'At least 1 day')
  .max(3650, 'At most 3650 days')
  .nullable();

/** GET /api/settings: the organization's own settings (tenant_admin, back_office, super_admin). */
export const TenantSettingsSchema = z.object({
  biometricRetentionDays: RetentionDays,
  documentRetentionDays: RetentionDays,
  inductionValidityDays: z
    .number({ error: 'Enter a number of days' })
    .int('Enter a whole number of days')
    .min(1, 'At least 1 day')
    .max(3650, 'At most 3650 days'),
  /** Refuse a live face whose anti-spoofing score is below the threshold (off by default). */
  antispoofGating: z.boolean(),
  /** 0–1, the anti-spoofing model's "real" probability. */
  antispoofThreshold: z
    .number({ error: 'Enter a number between 0 and 1' })
    .min(0.05, 'At least 0.05')
    .max(0.99, 'At most 0.99'),
  /**
   * Separation of duties (on by default): a security_guard's new approved vehicle or deletion is
   * a proposal that back_office or an admin confirms (POST /api/approved-vehicles/{id}/confirm or
   * /reject), and a proposed vehicle needs a driver photo.
   */
  separationOfDuties: z.boolean(),
  /** The longest approval a security_guard may register, in months from today (default 12). */
  maxApprovalValidityMonths: z
    .number({ error: 'Enter a number of months' })
    .int('Enter a whole number of months')
    .min(1, 'At least 1 month')
    .max(120, 'At most 120 months'),
  /** SEC-26: tenant_admin accounts sign in with a second factor (super_admin always does). */
  requireMfaForAdmins: z.boolean(),
  /** SEC-26: every account of the organization signs in with a second factor. */
  requireMfaForEveryone: z.boolean(),
  /**
   * Issue 18: what a decision taken offline (device's cached list, server unreachable) may do.
   * `grant` (default): an approved vehicle is admitted offline, flagged for the server's check;
   * `record_only`: the device only records, and an offline grant arrives as a refusal
   * (`offline_grant_not_allowed`) with an `offline_entry_refused` alert.
   */
  offlineDecisions: z.enum(['grant', 'record_only']),
});
export type TenantSettings = z.infer<typeof TenantSettingsSchema>;

/** PATCH /api/settings (tenant_admin, super_admin): any subset. */
export const UpdateTenantSettingsSchema = TenantSettingsSchema.partial()
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, { message: 'Nothing to change' });
export type UpdateTenantSettings = z.infer<typeof UpdateTenantSettingsSchema>;
