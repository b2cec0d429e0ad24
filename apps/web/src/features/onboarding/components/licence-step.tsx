import { AlertTriangleIcon, CameraIcon, IdCardIcon, InfoIcon } from 'lucide-react';
import { useState } from 'react';

import { CameraCaptureDialog } from '@/components/camera/camera-capture-dialog';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { Trans, useTranslation } from '@/lib/i18n';

import { useReadLicence } from '../api/read-licence';

import {
  acceptLicenceValues,
  type FieldConflict,
  isExpired,
  type LicenceReading,
  licenceReadingFromOcr,
  prefillFromLicence,
} from './licence-reading';
import type { PersonalInfo } from './personal-info';

export type LicenceDetails = {
  photo: string | null;
  /** What the last read of `photo` gave; null when nothing was read (or not yet). */
  reading: LicenceReading | null;
  licenceNumber: string;
  validTo: string;
};

export const EMPTY_LICENCE: LicenceDetails = {
  photo: null,
  reading: null,
  licenceNumber: '',
  validTo: '',
};

type ReadState = 'idle' | 'reading' | 'read' | 'nothing' | 'failed';

/**
 * Step 2 of self onboarding: a photo of the driver's licence, read by the server to prefill the
 * driver's name, ID number, licence number and expiry. Reading is a help, not a gate: the step
 * continues with a photo whether or not anything was read (spec §4: Continue needs the photo).
 */
export function LicenceStep({
  info,
  licence,
  onInfoChange,
  onLicenceChange,
  onBack,
  onContinue,
}: {
  info: PersonalInfo;
  licence: LicenceDetails;
  onInfoChange: (info: PersonalInfo) => void;
  onLicenceChange: (licence: LicenceDetails) => void;
  onBack: () => void;
  onContinue: () => void;
}) {
  const [isCameraOpen, setIsCameraOpen] = useState(false);
  const [readState, setReadState] = useState<ReadState>(licence.reading ? 'read' : 'idle');
  const [conflicts, setConflicts] = useState<FieldConflict[]>([]);
  const readLicence = useReadLicence();
  const { t } = useTranslation('onboarding');

  const handleCapture = (photo: string) => {
    setIsCameraOpen(false);
    setConflicts([]);
    setReadState('reading');
    onLicenceChange({ ...licence, photo, reading: null });
    readLicence.mutate(photo, {
      onSuccess: (response) => {
        const reading = licenceReadingFromOcr(response);
        if (!reading) {
          setReadState('nothing');
          onLicenceChange({ ...licence, photo, reading: null });
          toast({
            variant: 'destructive',
            title: t('licence.noDataTitle'),
            description: response.message ?? t('licence.noDataDescription'),
          });
          return;
        }
        const prefilled = prefillFromLicence(info, reading);
        onInfoChange(prefilled.info);
        setConflicts(prefilled.conflicts);
        setReadState('read');
        onLicenceChange({
          photo,
          reading,
          licenceNumber: reading.licenceNumber ?? licence.licenceNumber,
          validTo: reading.validTo ?? licence.validTo,
        });
      },
      onError: (error) => {
        setReadState('failed');
        toast({
          variant: 'destructive',
          title: t('licence.ocrFailedTitle'),
          description: getErrorMessage(error, t('licence.ocrFailedDescription')),
        });
      },
    });
  };

  const reading = licence.reading;
  const isReading = readState === 'reading';

  return (
    <div className="grid gap-5">
      <div className="flex flex-wrap items-center gap-4 rounded-lg border border-dashed p-4">
        {licence.photo ? (
          <img
            src={licence.photo}
            alt={t('licence.photoAlt')}
            className="h-28 w-44 rounded-md object-cover"
          />
        ) : (
          <div className="flex h-28 w-44 items-center justify-center rounded-md bg-muted text-muted-foreground">
            <IdCardIcon aria-hidden className="size-10" />
          </div>
        )}
        <div className="flex flex-1 flex-col gap-2">
          <p className="text-sm text-muted-foreground">{t('licence.instructions')}</p>
          <div>
            <Button
              type="button"
              variant="outline"
              onClick={() => setIsCameraOpen(true)}
              disabled={isReading}
            >
              <CameraIcon aria-hidden />
              {licence.photo ? t('licence.retake') : t('licence.capture')}
            </Button>
          </div>
        </div>
      </div>

      {isReading && (
        <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner />
          {t('licence.reading')}
        </p>
      )}

      {readState === 'read' && reading && <LicenceReadingSummary reading={reading} />}

      {conflicts.length > 0 && (
        <Alert variant="warning">
          <AlertTriangleIcon aria-hidden />
          <AlertTitle>{t('licence.conflictTitle')}</AlertTitle>
          <AlertDescription>
            <ul className="list-disc pl-4">
              {conflicts.map((conflict) => (
                <li key={conflict.field}>
                  <Trans
                    t={t}
                    i18nKey="licence.conflict"
                    values={{
                      field: t(`licence.fields.${conflict.field}`),
                      entered: conflict.entered,
                      read: conflict.read,
                    }}
                    components={{ strong: <strong /> }}
                  />
                </li>
              ))}
            </ul>
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => {
                onInfoChange(acceptLicenceValues(info, conflicts));
                setConflicts([]);
              }}
            >
              {t('licence.useLicenceDetails')}
            </Button>
          </AlertDescription>
        </Alert>
      )}

      {(readState === 'nothing' || readState === 'failed') && (
        <Alert>
          <InfoIcon aria-hidden />
          <AlertTitle>{t('licence.nothingReadTitle')}</AlertTitle>
          <AlertDescription>
            <p>{t('licence.nothingReadDescription')}</p>
          </AlertDescription>
        </Alert>
      )}

      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="licenceNumber" label={t('licence.licenceNumber')}>
          <Input
            id="licenceNumber"
            autoComplete="off"
            spellCheck={false}
            className="font-mono uppercase"
            maxLength={40}
            disabled={isReading}
            value={licence.licenceNumber}
            onChange={(event) =>
              onLicenceChange({ ...licence, licenceNumber: event.currentTarget.value })
            }
          />
        </Field>
        <Field id="licenceValidTo" label={t('licence.validTo')}>
          <Input
            id="licenceValidTo"
            autoComplete="off"
            placeholder="YYYY-MM-DD"
            maxLength={40}
            disabled={isReading}
            value={licence.validTo}
            onChange={(event) =>
              onLicenceChange({ ...licence, validTo: event.currentTarget.value })
            }
          />
        </Field>
      </div>
      {isExpired(licence.validTo) && (
        <Alert variant="warning">
          <AlertTriangleIcon aria-hidden />
          <AlertTitle>{t('licence.expiredTitle')}</AlertTitle>
          <AlertDescription>
            <p>{t('licence.expiredDescription', { date: licence.validTo })}</p>
          </AlertDescription>
        </Alert>
      )}

      <div className="flex justify-between gap-3 border-t pt-5">
        <Button type="button" variant="outline" onClick={onBack}>
          {t('self.previous')}
        </Button>
        <Button type="button" onClick={onContinue} disabled={!licence.photo || isReading}>
          {t('self.continue')}
        </Button>
      </div>
      <CameraCaptureDialog
        open={isCameraOpen}
        onClose={() => setIsCameraOpen(false)}
        onCapture={handleCapture}
        title={t('licence.cameraTitle')}
        description={t('licence.cameraDescription')}
        guide="card"
        captureLabel={t('licence.cameraCapture')}
      />
    </div>
  );
}

function LicenceReadingSummary({ reading }: { reading: LicenceReading }) {
  const { t } = useTranslation('onboarding');
  const rows: [string, string | null][] = [
    [
      t('licence.nameOnCard'),
      reading.nameOnCard ?? ([reading.name, reading.surname].filter(Boolean).join(' ') || null),
    ],
    [t('licence.idNumberRow'), reading.idNumber],
    [t('licence.licenceNumberRow'), reading.licenceNumber],
    [t('licence.validToRow'), reading.validTo],
  ];
  return (
    <section aria-label={t('licence.readTitle')} className="grid gap-2 rounded-lg bg-muted/60 p-4">
      <h4 className="text-sm font-medium">{t('licence.readTitle')}</h4>
      <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className={value ? 'font-medium' : 'text-muted-foreground'}>
              {value ?? t('licence.notRead')}
            </dd>
          </div>
        ))}
      </dl>
      <p className="text-xs text-muted-foreground">{t('licence.prefilledNote')}</p>
    </section>
  );
}
