import { ShieldCheckIcon } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Link, useLocation } from 'wouter';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { contractMessage, useTranslation } from '@/lib/i18n';
import { formatPlate } from '@/lib/plates';

import { useRegisterVehicle } from '../api/approved-vehicles';

import { DriverPhotoField } from './driver-photo-field';
import { emptyPreArrivalValues, type PreArrivalValues, toRegistration } from './pre-arrival-values';
import { TrailersEditor } from './trailers-editor';

/**
 * Spec §2 Pre-Arrival Registration. `initialPlate` comes from Auto Gate (`?plate=`) and is
 * announced once. `registeredVehiclesHref` links to the list of registered vehicles.
 */
export function PreArrivalRegistration({
  initialPlate,
  pathAfterRegistration,
  registeredVehiclesHref,
}: {
  initialPlate: string | null;
  /** Where to stay after a registration (drops the `?plate=` that prefilled the form). */
  pathAfterRegistration: string;
  registeredVehiclesHref: string;
}) {
  const { t } = useTranslation('vehicles');
  const [, navigate] = useLocation();
  const registerVehicle = useRegisterVehicle();
  const form = useForm<PreArrivalValues>({
    defaultValues: emptyPreArrivalValues(initialPlate ?? ''),
  });
  const driverPhoto = useWatch({ control: form.control, name: 'driverPhoto' });

  const announcedPlate = useRef(false);
  useEffect(() => {
    if (!initialPlate || announcedPlate.current) return;
    announcedPlate.current = true;
    toast({
      title: t('preArrival.autoFilled'),
      description: t('preArrival.autoFilledDescription'),
    });
  }, [initialPlate, t]);

  const handleValid = (values: PreArrivalValues) => {
    const result = toRegistration(values);
    if ('problem' in result) {
      const { key, detail, trailer } = result.problem;
      toast({
        variant: 'destructive',
        title: t(`preArrival.problems.${key}.title`),
        description:
          (detail && contractMessage(detail)) ||
          t(`preArrival.problems.${key}.description`, { n: trailer }),
      });
      return;
    }
    registerVehicle.mutate(result.body, {
      onSuccess: (vehicle) => {
        toast(
          vehicle.pendingApproval
            ? {
                title: t('preArrival.registered'),
                description: t('preArrival.registeredPending', {
                  plate: formatPlate(vehicle.plateNumber),
                }),
              }
            : {
                title: t('preArrival.registered'),
                description: t('preArrival.registeredApproved', {
                  plate: formatPlate(vehicle.plateNumber),
                }),
              },
        );
        form.reset(emptyPreArrivalValues());
        navigate(pathAfterRegistration, { replace: true });
      },
      onError: (error) => {
        toast({
          variant: 'destructive',
          title: t('preArrival.failed'),
          description: getErrorMessage(error, t('preArrival.failedFallback')),
        });
      },
    });
  };

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <PageHeader
        title={t('preArrival.title')}
        description={t('preArrival.description')}
        actions={
          <Button variant="outline" asChild>
            <Link href={registeredVehiclesHref}>{t('preArrival.registeredVehicles')}</Link>
          </Button>
        }
      />
      <Card>
        <CardHeader>
          <CardTitle>{t('preArrival.cardTitle')}</CardTitle>
          <CardDescription>{t('preArrival.cardDescription')}</CardDescription>
        </CardHeader>
        <CardContent>
          <form
            noValidate
            aria-label={t('preArrival.formLabel')}
            className="grid gap-5"
            onSubmit={(event) => void form.handleSubmit(handleValid)(event)}
          >
            <div className="grid gap-4 sm:grid-cols-2">
              <Field id="plateNumber" label={t('preArrival.plateNumber')}>
                <Input
                  id="plateNumber"
                  autoComplete="off"
                  autoCapitalize="characters"
                  spellCheck={false}
                  placeholder={t('preArrival.platePlaceholder')}
                  className="font-mono uppercase"
                  {...form.register('plateNumber')}
                />
              </Field>
              <Field id="driverName" label={t('preArrival.driverName')}>
                <Input id="driverName" autoComplete="off" {...form.register('driverName')} />
              </Field>
              <Field id="driverLicense" label={t('preArrival.driverLicence')}>
                <Input id="driverLicense" autoComplete="off" {...form.register('driverLicense')} />
              </Field>
              <Field id="company" label={t('preArrival.company')}>
                <Input id="company" autoComplete="organization" {...form.register('company')} />
              </Field>
              <Field id="approvedUntil" label={t('preArrival.approvalDate')}>
                <Input id="approvedUntil" type="date" {...form.register('approvedUntil')} />
              </Field>
            </div>

            <DriverPhotoField
              photo={driverPhoto}
              onChange={(image) => form.setValue('driverPhoto', image)}
            />

            <Controller
              control={form.control}
              name="trailers"
              render={({ field }) => (
                <TrailersEditor value={field.value} onChange={field.onChange} />
              )}
            />

            <Controller
              control={form.control}
              name="biometricConsent"
              render={({ field }) => (
                <div className="flex items-start gap-3 rounded-lg bg-muted/60 p-4">
                  <Checkbox
                    id="biometricConsent"
                    checked={field.value}
                    onCheckedChange={(checked) => field.onChange(checked === true)}
                    onBlur={field.onBlur}
                    className="mt-0.5"
                  />
                  <div className="grid gap-1">
                    <Label htmlFor="biometricConsent" className="leading-snug">
                      {t('preArrival.consent')}
                    </Label>
                    <p className="flex items-center gap-1 text-xs text-muted-foreground">
                      <ShieldCheckIcon aria-hidden className="size-3.5" />
                      {t('preArrival.consentHint')}
                    </p>
                  </div>
                </div>
              )}
            />

            <Button type="submit" size="lg" disabled={registerVehicle.isPending}>
              {registerVehicle.isPending && <Spinner />}
              {t('preArrival.register')}
            </Button>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
