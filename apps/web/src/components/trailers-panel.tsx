import { CameraIcon, ContainerIcon, PlusIcon, XIcon } from 'lucide-react';
import { type FormEvent, useState } from 'react';

import { MAX_TRAILERS } from '@boomgate/contracts/approved-vehicles';
import { PlateNumberSchema } from '@boomgate/contracts/plates';

import { CameraCaptureDialog } from '@/components/camera/camera-capture-dialog';
import { PlateField } from '@/components/plate-field';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { contractMessage, useTranslation } from '@/lib/i18n';
import { formatPlate } from '@/lib/plates';

/** A trailer as captured: its plate, and its licence disc as saved when it was scanned. */
export type TrailerData = {
  plateNumber: string;
  disc: {
    recordId: string;
    reading: { discNumber: string | null; dateOfExpiry: string | null };
  } | null;
};

/** A trailer's licence disc read and saved; null when it failed (the reader said why). */
export type TrailerDiscReader<T extends TrailerData = TrailerData> = (
  image: string,
) => Promise<{ disc: NonNullable<T['disc']>; plateNumber: string | null } | null>;

/**
 * Issue 21: the trailers of a rig (Real Gate, the incoming feed). The user scans each trailer's
 * licence disc when the screen can read one (`readDisc`; its "Licence no." is the trailer's plate,
 * confirmed or typed) or types a plate; the entry cites them (`trailerPlates`,
 * `trailerLicenceDiscIds`) and the server checks the rig and the discs when it decides.
 */
export function TrailersPanel<T extends TrailerData>({
  trailers,
  registered = [],
  canEdit,
  readDisc,
  onAdd,
  onRemove,
}: {
  trailers: T[];
  /** The trailers registered with the approved vehicle (its rig), as a hint for the guard. */
  registered?: string[];
  canEdit: boolean;
  /** Reads a trailer's disc; without it the panel takes typed plates only. */
  readDisc?: TrailerDiscReader<T>;
  /** Whether the trailer was recorded (a duplicate plate is refused). */
  onAdd: (trailer: { plateNumber: string; disc: T['disc'] }) => boolean;
  onRemove: (index: number) => void;
}) {
  const { t } = useTranslation('common');
  const [isCameraOpen, setCameraOpen] = useState(false);
  const [isReading, setReading] = useState(false);
  const [disc, setDisc] = useState<T['disc']>(null);
  const [plate, setPlate] = useState('');
  const [error, setError] = useState<string | undefined>();
  const canAdd = canEdit && trailers.length < MAX_TRAILERS;

  const handleCapture = async (image: string) => {
    if (!readDisc) return;
    setCameraOpen(false);
    setReading(true);
    try {
      const read = await readDisc(image);
      if (!read) return;
      setDisc(read.disc);
      setPlate(read.plateNumber ? formatPlate(read.plateNumber) : '');
      setError(read.plateNumber ? undefined : t('trailers.plateNotRead'));
    } finally {
      setReading(false);
    }
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = PlateNumberSchema.safeParse(plate);
    if (!parsed.success) {
      setError(contractMessage(parsed.error.issues[0]?.message) ?? t('trailers.enterPlate'));
      return;
    }
    if (!onAdd({ plateNumber: parsed.data, disc })) {
      setError(t('trailers.duplicate'));
      return;
    }
    setDisc(null);
    setPlate('');
    setError(undefined);
  };

  if (!canEdit && trailers.length === 0) return null;
  return (
    <Card data-testid="trailers-panel">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <ContainerIcon aria-hidden className="size-5" />
          {t('trailers.title')}
        </CardTitle>
        <CardDescription>{t('trailers.description', { max: MAX_TRAILERS })}</CardDescription>
        {registered.length > 0 && (
          <p className="text-sm font-medium" data-testid="registered-trailers">
            {t('trailers.registered', {
              plates: registered.map((plate) => formatPlate(plate)).join(', '),
            })}
          </p>
        )}
      </CardHeader>
      <CardContent className="grid gap-3">
        {trailers.length > 0 && (
          <ul className="grid gap-2" aria-label={t('trailers.title')}>
            {trailers.map((trailer, index) => (
              <li
                key={trailer.plateNumber}
                className="flex flex-wrap items-center gap-x-4 gap-y-1 rounded-md border p-2 text-sm"
              >
                <span className="font-mono text-base font-semibold">
                  {formatPlate(trailer.plateNumber)}
                </span>
                <span className="text-muted-foreground">
                  {trailer.disc
                    ? t('trailers.discRead', {
                        disc: trailer.disc.reading.discNumber ?? '-',
                        expiry: trailer.disc.reading.dateOfExpiry ?? '-',
                      })
                    : t('trailers.noDisc')}
                </span>
                {canEdit && (
                  <Button
                    variant="ghost"
                    size="icon"
                    className="ml-auto max-md:size-11"
                    aria-label={t('trailers.remove', { plate: formatPlate(trailer.plateNumber) })}
                    onClick={() => onRemove(index)}
                  >
                    <XIcon aria-hidden />
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
        {canAdd && (
          <form
            className="flex flex-wrap items-end gap-2"
            aria-label={t('trailers.add')}
            noValidate
            onSubmit={handleSubmit}
          >
            {readDisc && (
              <Button
                type="button"
                variant="outline"
                onClick={() => setCameraOpen(true)}
                disabled={isReading}
              >
                {isReading ? <Spinner /> : <CameraIcon aria-hidden />}
                {t('trailers.scanDisc')}
              </Button>
            )}
            <PlateField
              label={t('trailers.plate')}
              value={plate}
              onChange={setPlate}
              error={error}
              className="min-w-40 flex-1"
            />
            <Button type="submit" disabled={isReading}>
              <PlusIcon aria-hidden />
              {t('trailers.add')}
            </Button>
            {disc && (
              <p className="w-full text-sm text-muted-foreground" data-testid="trailer-disc-read">
                {t('trailers.discRead', {
                  disc: disc.reading.discNumber ?? '-',
                  expiry: disc.reading.dateOfExpiry ?? '-',
                })}
              </p>
            )}
          </form>
        )}
      </CardContent>
      <CameraCaptureDialog
        open={isCameraOpen && Boolean(readDisc)}
        onClose={() => setCameraOpen(false)}
        onCapture={(image) => void handleCapture(image)}
        title={t('trailers.cameraTitle')}
        description={t('trailers.cameraDescription')}
        guide="card"
        captureLabel={t('trailers.captureLabel')}
      />
    </Card>
  );
}
