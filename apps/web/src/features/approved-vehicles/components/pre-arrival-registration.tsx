import { useMutation } from '@tanstack/react-query';
import {
  CameraIcon,
  CheckCircle2Icon,
  ShieldCheckIcon,
  Trash2Icon,
  TriangleAlertIcon,
} from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';

import type { OcrResponse } from '@boomgate/contracts/ocr';
import { Link, useLocation } from 'wouter';

import { CameraCaptureDialog } from '@/components/camera/camera-capture-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage, isHttpError } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { readDocument } from '@/lib/api/ocr';
import { formatPlate } from '@/lib/plates';

import { useRegisterVehicle } from '../api/approved-vehicles';

import { emptyPreArrivalValues, type PreArrivalValues, toRegistration } from './pre-arrival-values';

/** What the face engine thought of the driver photo. */
function PhotoCheck({
  status,
  result,
  error,
}: {
  status: 'idle' | 'pending' | 'success' | 'error';
  result: OcrResponse | undefined;
  error: Error | null;
}) {
  const { t } = useTranslation('vehicles');
  if (status === 'pending') {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
        <Spinner />
        {t('preArrival.checkingPhoto')}
      </p>
    );
  }
  if (status === 'success' && result?.ok) {
    return (
      <p className="flex items-center gap-2 text-sm text-success">
        <CheckCircle2Icon aria-hidden className="size-4" />
        {t('preArrival.faceFound')}
      </p>
    );
  }
  const problem =
    status === 'success'
      ? (result?.message ?? t('preArrival.faceNotChecked'))
      : status === 'error' && isHttpError(error, 422)
        ? getErrorMessage(error, t('preArrival.noFace'))
        : null;
  if (!problem) return null;
  return (
    <p role="alert" className="flex items-start gap-2 text-sm text-amber-700 dark:text-amber-300">
      <TriangleAlertIcon aria-hidden className="mt-0.5 size-4 shrink-0" />
      <span>{t('preArrival.photoProblem', { problem })}</span>
    </p>
  );
}

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
  const [isCameraOpen, setIsCameraOpen] = useState(false);
  const form = useForm<PreArrivalValues>({
    defaultValues: emptyPreArrivalValues(initialPlate ?? ''),
  });
  const driverPhoto = useWatch({ control: form.control, name: 'driverPhoto' });
  // The face engine looks at the photo as soon as it is taken, so a poor one is retaken now,
  // not discovered at the gate. Advice only: registration does not wait for it.
  const photoCheck = useMutation({ mutationFn: (image: string) => readDocument(image, 'face') });

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
      const { key, detail } = result.problem;
      toast({
        variant: 'destructive',
        title: t(`preArrival.problems.${key}.title`),
        description: detail || t(`preArrival.problems.${key}.description`),
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

            <div className="grid gap-2">
              <p className="text-sm font-medium leading-none">{t('preArrival.driverPhoto')}</p>
              <div className="flex flex-wrap items-center gap-4 rounded-lg border border-dashed p-4">
                {driverPhoto ? (
                  <img
                    src={driverPhoto}
                    alt={t('preArrival.driverPhotoAlt')}
                    className="size-28 rounded-md object-cover"
                  />
                ) : (
                  <div className="flex size-28 items-center justify-center rounded-md bg-muted text-muted-foreground">
                    <CameraIcon aria-hidden className="size-8" />
                  </div>
                )}
                <div className="flex flex-col gap-2">
                  <p className="text-sm text-muted-foreground">{t('preArrival.photoHint')}</p>
                  {driverPhoto && (
                    <PhotoCheck
                      status={photoCheck.status}
                      result={photoCheck.data}
                      error={photoCheck.error}
                    />
                  )}
                  <div className="flex flex-wrap gap-2">
                    <Button type="button" variant="outline" onClick={() => setIsCameraOpen(true)}>
                      <CameraIcon aria-hidden />
                      {driverPhoto ? t('preArrival.retakePhoto') : t('preArrival.capturePhoto')}
                    </Button>
                    {driverPhoto && (
                      <Button
                        type="button"
                        variant="ghost"
                        onClick={() => {
                          form.setValue('driverPhoto', null);
                          photoCheck.reset();
                        }}
                      >
                        <Trash2Icon aria-hidden />
                        {t('preArrival.removePhoto')}
                      </Button>
                    )}
                  </div>
                </div>
              </div>
            </div>

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

      <CameraCaptureDialog
        open={isCameraOpen}
        onClose={() => setIsCameraOpen(false)}
        onCapture={(image) => {
          form.setValue('driverPhoto', image);
          setIsCameraOpen(false);
          photoCheck.mutate(image);
        }}
        title={t('preArrival.driverPhoto')}
        description={t('preArrival.cameraDescription')}
        guide="oval"
        captureLabel={t('preArrival.cameraCapture')}
      />
    </div>
  );
}
