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
  if (status === 'pending') {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
        <Spinner />
        Checking the photo...
      </p>
    );
  }
  if (status === 'success' && result?.ok) {
    return (
      <p className="flex items-center gap-2 text-sm text-success">
        <CheckCircle2Icon aria-hidden className="size-4" />
        Face found: suitable for facial recognition
      </p>
    );
  }
  const problem =
    status === 'success'
      ? (result?.message ?? 'The face could not be checked.')
      : status === 'error' && isHttpError(error, 422)
        ? getErrorMessage(error, 'No face was found in the photo.')
        : null;
  if (!problem) return null;
  return (
    <p role="alert" className="flex items-start gap-2 text-sm text-amber-700 dark:text-amber-300">
      <TriangleAlertIcon aria-hidden className="mt-0.5 size-4 shrink-0" />
      <span>{problem} A clearer photo makes the face check at the gate more reliable.</span>
    </p>
  );
}

export const CONSENT_LABEL =
  'The driver agrees to their photo being used to verify their identity at the gate';

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
      title: 'Plate Number Auto-Filled',
      description: 'Plate number transferred from Auto Gate',
    });
  }, [initialPlate]);

  const handleValid = (values: PreArrivalValues) => {
    const result = toRegistration(values);
    if ('problem' in result) {
      toast({ variant: 'destructive', ...result.problem });
      return;
    }
    registerVehicle.mutate(result.body, {
      onSuccess: (vehicle) => {
        toast(
          vehicle.pendingApproval
            ? {
                title: 'Vehicle Registered',
                description: `${formatPlate(vehicle.plateNumber)} is pending approval by back office or an admin.`,
              }
            : {
                title: 'Vehicle Registered',
                description: `${formatPlate(vehicle.plateNumber)} is approved for entry.`,
              },
        );
        form.reset(emptyPreArrivalValues());
        navigate(pathAfterRegistration, { replace: true });
      },
      onError: (error) => {
        toast({
          variant: 'destructive',
          title: 'Registration Failed',
          description: getErrorMessage(error, 'Failed to register vehicle'),
        });
      },
    });
  };

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <PageHeader
        title="Pre-Arrival Registration"
        description="Register an approved vehicle and its driver before they arrive."
        actions={
          <Button variant="outline" asChild>
            <Link href={registeredVehiclesHref}>Registered Vehicles</Link>
          </Button>
        }
      />
      <Card>
        <CardHeader>
          <CardTitle>Vehicle and Driver</CardTitle>
          <CardDescription>
            The plate is checked at the auto gate, and the driver&apos;s photo is compared with the
            driver at the gate.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form
            noValidate
            aria-label="Pre-arrival registration"
            className="grid gap-5"
            onSubmit={(event) => void form.handleSubmit(handleValid)(event)}
          >
            <div className="grid gap-4 sm:grid-cols-2">
              <Field id="plateNumber" label="Plate Number">
                <Input
                  id="plateNumber"
                  autoComplete="off"
                  autoCapitalize="characters"
                  spellCheck={false}
                  placeholder="e.g. KP 35 XK GP"
                  className="font-mono uppercase"
                  {...form.register('plateNumber')}
                />
              </Field>
              <Field id="driverName" label="Driver Name">
                <Input id="driverName" autoComplete="off" {...form.register('driverName')} />
              </Field>
              <Field id="driverLicense" label="Driver Licence (optional)">
                <Input id="driverLicense" autoComplete="off" {...form.register('driverLicense')} />
              </Field>
              <Field id="company" label="Company (optional)">
                <Input id="company" autoComplete="organization" {...form.register('company')} />
              </Field>
              <Field id="approvedUntil" label="Approval Date">
                <Input id="approvedUntil" type="date" {...form.register('approvedUntil')} />
              </Field>
            </div>

            <div className="grid gap-2">
              <p className="text-sm font-medium leading-none">Driver Photo</p>
              <div className="flex flex-wrap items-center gap-4 rounded-lg border border-dashed p-4">
                {driverPhoto ? (
                  <img
                    src={driverPhoto}
                    alt="The driver, as captured"
                    className="size-28 rounded-md object-cover"
                  />
                ) : (
                  <div className="flex size-28 items-center justify-center rounded-md bg-muted text-muted-foreground">
                    <CameraIcon aria-hidden className="size-8" />
                  </div>
                )}
                <div className="flex flex-col gap-2">
                  <p className="text-sm text-muted-foreground">
                    A clear, front-facing photo of the driver, used for facial recognition.
                  </p>
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
                      {driverPhoto ? 'Retake Photo' : 'Capture Driver Photo'}
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
                        Remove Photo
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
                      {CONSENT_LABEL}
                    </Label>
                    <p className="flex items-center gap-1 text-xs text-muted-foreground">
                      <ShieldCheckIcon aria-hidden className="size-3.5" />
                      Required by POPIA before a driver photo is stored.
                    </p>
                  </div>
                </div>
              )}
            />

            <Button type="submit" size="lg" disabled={registerVehicle.isPending}>
              {registerVehicle.isPending && <Spinner />}
              Register Vehicle
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
        title="Driver Photo"
        description="Fit the driver's face inside the oval, looking at the camera."
        guide="oval"
        captureLabel="Capture driver photo"
      />
    </div>
  );
}
