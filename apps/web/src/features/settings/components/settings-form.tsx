import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';

import { type TenantSettings, TenantSettingsSchema } from '@boomgate/contracts/settings';

import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PageHeader } from '@/components/ui/page-header';
import { LoadingScreen, Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';

import { useSettings, useUpdateSettings } from '../api/settings';
import { GuardDevices } from './guard-devices';

/** Number inputs give strings: blank means "server default" for retention, a number otherwise. */
const optionalDays = z
  .string()
  .trim()
  .transform((value) => (value === '' ? null : Number(value)));
const SettingsFormSchema = z
  .object({
    biometricRetentionDays: optionalDays,
    documentRetentionDays: optionalDays,
    inductionValidityDays: z.string().trim().transform(Number),
    antispoofGating: z.boolean(),
    // Shown as a percentage; the API takes 0–1.
    antispoofThreshold: z
      .string()
      .trim()
      .transform(Number)
      .pipe(z.number().int('Enter a whole percentage').min(5, 'At least 5%').max(99, 'At most 99%'))
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
type SettingsFormInput = z.input<typeof SettingsFormSchema>;

const toForm = (settings: TenantSettings): SettingsFormInput => ({
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

function SettingsEditor({ settings, canEdit }: { settings: TenantSettings; canEdit: boolean }) {
  const { t } = useTranslation('offline');
  const update = useUpdateSettings();
  const form = useForm<SettingsFormInput, unknown, TenantSettings>({
    resolver: zodResolver(SettingsFormSchema),
    defaultValues: toForm(settings),
  });
  const { errors } = form.formState;
  const isGating = useWatch({ control: form.control, name: 'antispoofGating' });

  const handleValid = (body: TenantSettings) => {
    update.mutate(body, {
      onSuccess: (saved) => {
        form.reset(toForm(saved));
        toast({ title: 'Settings Saved', description: 'The new settings apply from now on.' });
      },
      onError: (error) => {
        toast({
          variant: 'destructive',
          title: 'Save Failed',
          description: getErrorMessage(error, 'Failed to save settings'),
        });
      },
    });
  };

  const daysInput = (
    id: string,
    name: 'biometricRetentionDays' | 'documentRetentionDays' | 'inductionValidityDays',
    placeholder?: string,
  ) => (
    <Input
      id={id}
      type="number"
      inputMode="numeric"
      min={1}
      max={3650}
      placeholder={placeholder}
      disabled={!canEdit}
      aria-invalid={errors[name] ? true : undefined}
      aria-describedby={errors[name] ? `${id}-error` : undefined}
      {...form.register(name)}
    />
  );

  /** One on/off setting: a checkbox bound to the form, with its label. */
  const checkboxSetting = (
    name:
      | 'antispoofGating'
      | 'separationOfDuties'
      | 'requireMfaForAdmins'
      | 'requireMfaForEveryone'
      | 'offlineDecisions',
    id: string,
    label: string,
  ) => (
    <div className="flex items-center gap-3">
      <Controller
        control={form.control}
        name={name}
        render={({ field }) => (
          <Checkbox
            id={id}
            checked={field.value}
            disabled={!canEdit}
            onCheckedChange={(checked) => field.onChange(checked === true)}
            onBlur={field.onBlur}
          />
        )}
      />
      <Label htmlFor={id}>{label}</Label>
    </div>
  );

  return (
    <form
      noValidate
      className="grid gap-6"
      onSubmit={(event) => void form.handleSubmit(handleValid)(event)}
    >
      <Card>
        <CardHeader>
          <CardTitle>Face verification</CardTitle>
          <CardDescription>
            Every live face gets an anti-spoofing score (a photo of a photo or a screen scores low).
            It is always recorded and shown to the guard; it refuses entry only if you turn the gate
            on.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {checkboxSetting(
            'antispoofGating',
            'settings-antispoof-gating',
            'Refuse faces that look like a photo or a screen',
          )}
          <Field
            id="settings-antispoof-threshold"
            label="Minimum liveness score (%)"
            error={errors.antispoofThreshold?.message}
          >
            <Input
              id="settings-antispoof-threshold"
              type="number"
              inputMode="numeric"
              min={5}
              max={99}
              disabled={!canEdit || !isGating}
              aria-invalid={errors.antispoofThreshold ? true : undefined}
              {...form.register('antispoofThreshold')}
            />
          </Field>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Vehicle approvals</CardTitle>
          <CardDescription>
            Separation of duties: a vehicle a security guard registers or deletes waits for back
            office or an administrator to confirm it, and needs a driver photo.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {checkboxSetting(
            'separationOfDuties',
            'settings-separation-of-duties',
            "Security guards' approvals and deletions need confirmation",
          )}
          <Field
            id="settings-max-approval-validity"
            label="Longest approval by a security guard (months)"
            error={errors.maxApprovalValidityMonths?.message}
          >
            <Input
              id="settings-max-approval-validity"
              type="number"
              inputMode="numeric"
              min={1}
              max={120}
              disabled={!canEdit}
              aria-invalid={errors.maxApprovalValidityMonths ? true : undefined}
              {...form.register('maxApprovalValidityMonths')}
            />
          </Field>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>{t('settings.title')}</CardTitle>
          <CardDescription>{t('settings.description')}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {checkboxSetting(
            'offlineDecisions',
            'settings-offline-decisions',
            t('settings.mayGrant'),
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Two-step verification</CardTitle>
          <CardDescription>
            Ask for a code from an authenticator app or a passkey after the password. Super Admin
            accounts always need one. Someone without one is asked to set it up at their next
            sign-in.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {checkboxSetting(
            'requireMfaForAdmins',
            'settings-mfa-admins',
            'Require two-step verification for admins',
          )}
          {checkboxSetting(
            'requireMfaForEveryone',
            'settings-mfa-everyone',
            'Require two-step verification for everyone',
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Safety induction</CardTitle>
          <CardDescription>
            How long a passed induction stays valid before the driver must take it again.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Field
            id="settings-induction-validity"
            label="Induction valid for (days)"
            error={errors.inductionValidityDays?.message}
          >
            {daysInput('settings-induction-validity', 'inductionValidityDays')}
          </Field>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Data retention (POPIA)</CardTitle>
          <CardDescription>
            Driver photos, face data and document images are deleted after these periods. Leave
            blank to use the server default.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <Field
            id="settings-biometric-retention"
            label="Driver photos and face data (days)"
            error={errors.biometricRetentionDays?.message}
          >
            {daysInput('settings-biometric-retention', 'biometricRetentionDays', 'Server default')}
          </Field>
          <Field
            id="settings-document-retention"
            label="Document images (days)"
            error={errors.documentRetentionDays?.message}
          >
            {daysInput('settings-document-retention', 'documentRetentionDays', 'Server default')}
          </Field>
        </CardContent>
      </Card>

      {canEdit ? (
        <div className="flex justify-end">
          <Button type="submit" disabled={update.isPending || !form.formState.isDirty}>
            {update.isPending && <Spinner aria-hidden />}
            Save Settings
          </Button>
        </div>
      ) : (
        <Alert>
          <AlertDescription>Only administrators change these settings.</AlertDescription>
        </Alert>
      )}
    </form>
  );
}

/** /settings: the organization's settings (administrators edit, back office reads). */
export function SettingsPage({ canEdit }: { canEdit: boolean }) {
  const settings = useSettings();
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <PageHeader
        title="Settings"
        description="Face verification, safety induction and data retention for your organization"
      />
      {settings.isPending ? (
        <LoadingScreen />
      ) : settings.isError ? (
        <Alert variant="destructive">
          <AlertDescription>
            {getErrorMessage(settings.error, 'Failed to load settings')}
          </AlertDescription>
        </Alert>
      ) : (
        <SettingsEditor settings={settings.data} canEdit={canEdit} />
      )}
      {canEdit && <GuardDevices />}
    </div>
  );
}
