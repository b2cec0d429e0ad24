import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';

import type { TenantSettings } from '@boomgate/contracts/settings';

import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';

import { useUpdateSettings } from '../api/settings';

import { type SettingsFormInput, SettingsFormSchema, toForm } from './settings-schema';

/** The organization's settings as a form: administrators edit, back office reads. */
export function SettingsEditor({
  settings,
  canEdit,
}: {
  settings: TenantSettings;
  canEdit: boolean;
}) {
  const { t } = useTranslation('settings');
  const { t: tOffline } = useTranslation('offline');
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
        toast({ title: t('saved'), description: t('savedDetail') });
      },
      onError: (error) => {
        toast({
          variant: 'destructive',
          title: t('saveFailed'),
          description: getErrorMessage(error, t('saveFailedDetail')),
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
          <CardTitle>{t('face.title')}</CardTitle>
          <CardDescription>{t('face.description')}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {checkboxSetting('antispoofGating', 'settings-antispoof-gating', t('face.gating'))}
          <Field
            id="settings-antispoof-threshold"
            label={t('face.threshold')}
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
          <CardTitle>{t('approvals.title')}</CardTitle>
          <CardDescription>{t('approvals.description')}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {checkboxSetting(
            'separationOfDuties',
            'settings-separation-of-duties',
            t('approvals.separation'),
          )}
          <Field
            id="settings-max-approval-validity"
            label={t('approvals.maxValidity')}
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
          <CardTitle>{tOffline('settings.title')}</CardTitle>
          <CardDescription>{tOffline('settings.description')}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {checkboxSetting(
            'offlineDecisions',
            'settings-offline-decisions',
            tOffline('settings.mayGrant'),
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>{t('mfa.title')}</CardTitle>
          <CardDescription>{t('mfa.description')}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {checkboxSetting('requireMfaForAdmins', 'settings-mfa-admins', t('mfa.admins'))}
          {checkboxSetting('requireMfaForEveryone', 'settings-mfa-everyone', t('mfa.everyone'))}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>{t('induction.title')}</CardTitle>
          <CardDescription>{t('induction.description')}</CardDescription>
        </CardHeader>
        <CardContent>
          <Field
            id="settings-induction-validity"
            label={t('induction.validity')}
            error={errors.inductionValidityDays?.message}
          >
            {daysInput('settings-induction-validity', 'inductionValidityDays')}
          </Field>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>{t('retention.title')}</CardTitle>
          <CardDescription>{t('retention.description')}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <Field
            id="settings-biometric-retention"
            label={t('retention.biometric')}
            error={errors.biometricRetentionDays?.message}
          >
            {daysInput(
              'settings-biometric-retention',
              'biometricRetentionDays',
              t('retention.serverDefault'),
            )}
          </Field>
          <Field
            id="settings-document-retention"
            label={t('retention.documents')}
            error={errors.documentRetentionDays?.message}
          >
            {daysInput(
              'settings-document-retention',
              'documentRetentionDays',
              t('retention.serverDefault'),
            )}
          </Field>
        </CardContent>
      </Card>

      {canEdit ? (
        <div className="flex justify-end">
          <Button type="submit" disabled={update.isPending || !form.formState.isDirty}>
            {update.isPending && <Spinner aria-hidden />}
            {t('save')}
          </Button>
        </div>
      ) : (
        <Alert>
          <AlertDescription>{t('readOnly')}</AlertDescription>
        </Alert>
      )}
    </form>
  );
}
