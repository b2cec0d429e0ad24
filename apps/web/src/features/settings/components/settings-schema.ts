import { z } from 'zod';

import { type TenantSettings, TenantSettingsSchema } from '@boomgate/contracts/settings';

import { i18next } from '@/lib/i18n';

/** Number inputs give strings: blank means "server default" for retention, a number otherwise. */
const optionalDays = z
  .string()
  .trim()
  .transform((value) => (value === '' ? null : Number(value)));
export const SettingsFormSchema = z
  .object({
    biometricRetentionDays: optionalDays,
    documentRetentionDays: optionalDays,
    inductionValidityDays: z.string().trim().transform(Number),
    antispoofGating: z.boolean(),
    // Shown as a percentage; the API takes 0–1. Its messages are looked up when a value fails,
    // so they follow the chosen language.
    antispoofThreshold: z
      .string()
      .trim()
      .transform(Number)
      .pipe(
        z
          .number()
          .int({ error: () => i18next.t('settings:face.wholePercent') })
          .min(5, { error: () => i18next.t('settings:face.atLeast') })
          .max(99, { error: () => i18next.t('settings:face.atMost') }),
      )
      .transform((percent) => percent / 100),
    separationOfDuties: z.boolean(),
    maxApprovalValidityMonths: z.string().trim().transform(Number),
    requireMfaForAdmins: z.boolean(),
    requireMfaForEveryone: z.boolean(),
    // Issue 18: a checkbox, "offline decisions may grant"; unticked is record_only.
    offlineDecisions: z
      .boolean()
      .transform((mayGrant): TenantSettings['offlineDecisions'] =>
        mayGrant ? 'grant' : 'record_only',
      ),
  })
  .pipe(TenantSettingsSchema);
export type SettingsFormInput = z.input<typeof SettingsFormSchema>;

export const toForm = (settings: TenantSettings): SettingsFormInput => ({
  biometricRetentionDays: settings.biometricRetentionDays?.toString() ?? '',
  documentRetentionDays: settings.documentRetentionDays?.toString() ?? '',
  inductionValidityDays: settings.inductionValidityDays.toString(),
  antispoofGating: settings.antispoofGating,
  antispoofThreshold: Math.round(settings.antispoofThreshold * 100).toString(),
  separationOfDuties: settings.separationOfDuties,
  maxApprovalValidityMonths: settings.maxApprovalValidityMonths.toString(),
  requireMfaForAdmins: settings.requireMfaForAdmins,
  requireMfaForEveryone: settings.requireMfaForEveryone,
  offlineDecisions: settings.offlineDecisions === 'grant',
});
