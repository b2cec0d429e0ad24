import { useMutation } from '@tanstack/react-query';
import { CameraIcon, CheckCircle2Icon, Trash2Icon, TriangleAlertIcon } from 'lucide-react';
import { useState } from 'react';

import type { OcrResponse } from '@boomgate/contracts/ocr';

import { CameraCaptureDialog } from '@/components/camera/camera-capture-dialog';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { getErrorMessage, isHttpError } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { readDocument } from '@/lib/api/ocr';

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
 * Pre-Arrival Registration's driver photo: taken with the camera (an oval guide) and looked at by
 * the face engine as soon as it is taken, so a poor one is retaken now, not discovered at the
 * gate. Advice only: registration does not wait for it.
 */
export function DriverPhotoField({
  photo,
  onChange,
}: {
  photo: string | null;
  onChange: (photo: string | null) => void;
}) {
  const { t } = useTranslation('vehicles');
  const [isCameraOpen, setIsCameraOpen] = useState(false);
  const photoCheck = useMutation({ mutationFn: (image: string) => readDocument(image, 'face') });

  return (
    <>
      <div className="grid gap-2">
        <p className="text-sm font-medium leading-none">{t('preArrival.driverPhoto')}</p>
        <div className="flex flex-wrap items-center gap-4 rounded-lg border border-dashed p-4">
          {photo ? (
            <img
              src={photo}
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
            {photo && (
              <PhotoCheck
                status={photoCheck.status}
                result={photoCheck.data}
                error={photoCheck.error}
              />
            )}
            <div className="flex flex-wrap gap-2">
              <Button type="button" variant="outline" onClick={() => setIsCameraOpen(true)}>
                <CameraIcon aria-hidden />
                {photo ? t('preArrival.retakePhoto') : t('preArrival.capturePhoto')}
              </Button>
              {photo && (
                <Button
                  type="button"
                  variant="ghost"
                  onClick={() => {
                    onChange(null);
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

      <CameraCaptureDialog
        open={isCameraOpen}
        onClose={() => setIsCameraOpen(false)}
        onCapture={(image) => {
          onChange(image);
          setIsCameraOpen(false);
          photoCheck.mutate(image);
        }}
        title={t('preArrival.driverPhoto')}
        description={t('preArrival.cameraDescription')}
        guide="oval"
        captureLabel={t('preArrival.cameraCapture')}
      />
    </>
  );
}
