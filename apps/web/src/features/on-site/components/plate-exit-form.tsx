import { CameraIcon, LogOutIcon } from 'lucide-react';
import { useState } from 'react';

import type { Visit } from '@boomgate/contracts/visits';

import { CameraCaptureDialog } from '@/components/camera/camera-capture-dialog';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { getErrorMessage } from '@/lib/api-client';
import { plateFromOcr, readDocument } from '@/lib/api/ocr';
import { useTranslation } from '@/lib/i18n';
import { formatPlate, normalisePlate } from '@/lib/plates';

import { useRecordPlateExit } from '../api/plate-exit';

/**
 * Issue 16: the exit of a vehicle by its plate, at an out-lane. The guard scans the plate (the
 * server reads it and keeps the capture, whose receipt time is the exit's) or types it; the
 * server closes the plate's visit at the site and says when the plate is not on site.
 */
export function PlateExitForm({
  siteId,
  onExited,
}: {
  siteId: string | undefined;
  onExited: (visit: Visit) => void;
}) {
  const { t } = useTranslation('onSite');
  const exit = useRecordPlateExit();
  const [plate, setPlate] = useState('');
  const [captureId, setCaptureId] = useState<string | undefined>();
  const [isCameraOpen, setIsCameraOpen] = useState(false);
  const [isReading, setIsReading] = useState(false);
  const [readError, setReadError] = useState<string | null>(null);

  const handleCapture = async (image: string) => {
    setIsCameraOpen(false);
    setIsReading(true);
    setReadError(null);
    try {
      const read = await readDocument(image, 'plate');
      const found = plateFromOcr(read);
      if (!found) {
        setReadError(t('plateExit.noPlate'));
        return;
      }
      setPlate(found);
      setCaptureId(read.captureId);
    } catch (error) {
      setReadError(getErrorMessage(error, t('plateExit.readFailed')));
    } finally {
      setIsReading(false);
    }
  };

  const plateNumber = normalisePlate(plate);
  return (
    <form
      className="grid gap-3 sm:grid-cols-[1fr_auto_auto] sm:items-end"
      onSubmit={(event) => {
        event.preventDefault();
        exit.mutate(
          {
            plateNumber,
            ...(siteId && { siteId }),
            ...(captureId && { plateImageCaptureId: captureId }),
          },
          {
            onSuccess: (visit) => {
              setPlate('');
              setCaptureId(undefined);
              onExited(visit);
            },
          },
        );
      }}
    >
      <div className="grid gap-1">
        <Label htmlFor="exit-plate">{t('plateExit.plate')}</Label>
        <Input
          id="exit-plate"
          className="font-mono uppercase"
          maxLength={20}
          value={plate}
          onChange={(event) => {
            setPlate(event.target.value);
            // A typed plate is not the scanned one: the capture no longer speaks for it.
            setCaptureId(undefined);
          }}
        />
      </div>
      <Button
        type="button"
        variant="outline"
        disabled={isReading}
        onClick={() => setIsCameraOpen(true)}
      >
        {isReading ? <Spinner /> : <CameraIcon aria-hidden />}
        {t('plateExit.scan')}
      </Button>
      <Button type="submit" disabled={exit.isPending || plateNumber.length < 2}>
        <LogOutIcon aria-hidden />
        {t('recordExit')}
      </Button>
      {readError ? (
        <p role="alert" className="text-sm text-destructive sm:col-span-3">
          {readError}
        </p>
      ) : null}
      {exit.isError ? (
        <p role="alert" className="text-sm text-destructive sm:col-span-3">
          {getErrorMessage(exit.error, t('recordExitFailed'))}
        </p>
      ) : null}
      {exit.isSuccess && exit.data.plateNumber ? (
        <p role="status" className="text-sm text-muted-foreground sm:col-span-3">
          {t('plateExit.done', { plate: formatPlate(exit.data.plateNumber) })}
        </p>
      ) : null}
      <CameraCaptureDialog
        open={isCameraOpen}
        onClose={() => setIsCameraOpen(false)}
        onCapture={(image) => void handleCapture(image)}
        title={t('plateExit.cameraTitle')}
        description={t('plateExit.cameraDescription')}
        guide="wide"
        rememberAs="plate-exit"
        captureLabel={t('plateExit.capture')}
      />
    </form>
  );
}
