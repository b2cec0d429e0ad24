import { CheckCircle2Icon, QrCodeIcon } from 'lucide-react';
import { useState } from 'react';

import type { SelfOnboarded } from '@boomgate/contracts/drivers';

import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';

import { useSelfOnboard } from '../api/self-onboarding';

import type { LicenceDetails } from './licence-step';
import { QrCodeImage } from '@/components/qr-code-image';
import type { PersonalInfo } from './personal-info';
import { formatConfidence, type Selfie } from './selfie-step';

/**
 * Step 4 of self onboarding: a summary, the driver's consent, then the record is stored on the
 * server. The optional QR code carries the signed reference the server answers (the gate verifies
 * it); Finish goes home.
 */
export function CompleteStep({
  info,
  licence,
  selfie,
  onBack,
  onFinish,
}: {
  info: PersonalInfo;
  licence: LicenceDetails;
  selfie: Selfie;
  onBack: () => void;
  onFinish: () => void;
}) {
  const [hasConsent, setHasConsent] = useState(false);
  const [saved, setSaved] = useState<SelfOnboarded | null>(null);
  const [showQr, setShowQr] = useState(false);
  const selfOnboard = useSelfOnboard();
  const { t } = useTranslation('onboarding');
  const rows: [string, string][] = [
    [t('complete.name'), `${info.name} ${info.surname}`.trim()],
    [t('complete.idNumber'), info.idNumber],
    [t('complete.phone'), info.phone],
    [t('complete.licenceNumber'), licence.licenceNumber || t('complete.notGiven')],
    [t('complete.licenceValidTo'), licence.validTo || t('complete.notGiven')],
    [
      t('complete.liveness'),
      t('complete.livenessVerified', { confidence: formatConfidence(selfie.confidence) }),
    ],
  ];

  const save = () => {
    if (!licence.photo) return;
    selfOnboard.mutate(
      {
        name: info.name,
        surname: info.surname,
        idNumber: info.idNumber,
        phone: info.phone,
        licenceNumber: licence.licenceNumber || null,
        licenceValidTo: licence.validTo || null,
        licencePhoto: licence.photo,
        selfie: selfie.photo,
        // The server judges these captures itself; it takes no confidence from the browser.
        livenessFrames: selfie.captures,
        biometricConsent: true,
      },
      {
        onSuccess: (result) => {
          setSaved(result);
          toast({ title: t('complete.savedTitle'), description: t('complete.savedDescription') });
        },
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: t('complete.failedTitle'),
            description: getErrorMessage(error, t('complete.failedDescription')),
          }),
      },
    );
  };

  return (
    <div className="grid gap-5">
      {saved ? (
        <Alert variant="success">
          <CheckCircle2Icon aria-hidden />
          <AlertTitle>{t('complete.registeredTitle')}</AlertTitle>
          <AlertDescription>
            <p>{t('complete.registeredDescription')}</p>
          </AlertDescription>
        </Alert>
      ) : (
        <p className="text-sm text-muted-foreground">{t('complete.checkDetails')}</p>
      )}

      <div className="grid gap-4 sm:grid-cols-[auto_1fr] sm:items-start">
        <img
          src={selfie.photo}
          alt={t('complete.selfieAlt')}
          className="aspect-[3/4] w-32 rounded-lg object-cover"
        />
        <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
          {rows.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-muted-foreground">{label}</dt>
              <dd className="font-medium">{value}</dd>
            </div>
          ))}
        </dl>
      </div>

      {!saved && (
        <div className="flex items-start gap-3 rounded-lg border p-4">
          <Checkbox
            id="selfieConsent"
            checked={hasConsent}
            onCheckedChange={(checked) => setHasConsent(checked === true)}
            disabled={selfOnboard.isPending}
          />
          <Label htmlFor="selfieConsent" className="leading-snug">
            {t('complete.consent')}
          </Label>
        </div>
      )}

      {saved && (
        <section aria-labelledby="qr-heading" className="grid gap-3 rounded-lg border p-4">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h4 id="qr-heading" className="font-medium">
              {t('complete.qrTitle')}
            </h4>
            {!showQr && (
              <Button type="button" variant="outline" onClick={() => setShowQr(true)}>
                <QrCodeIcon aria-hidden />
                {t('complete.generateQr')}
              </Button>
            )}
          </div>
          {showQr && (
            <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
              <QrCodeImage text={saved.reference} label={t('complete.qrLabel')} />
              <p className="text-sm text-muted-foreground" data-testid="qr-notice">
                {t('complete.qrNotice')}
              </p>
            </div>
          )}
        </section>
      )}

      <div className="flex justify-between gap-3 border-t pt-5">
        {saved ? (
          <span />
        ) : (
          <Button type="button" variant="outline" onClick={onBack} disabled={selfOnboard.isPending}>
            {t('self.previous')}
          </Button>
        )}
        {saved ? (
          <Button type="button" onClick={onFinish}>
            {t('complete.finish')}
          </Button>
        ) : (
          <Button
            type="button"
            onClick={save}
            disabled={!hasConsent || !licence.photo || selfOnboard.isPending}
          >
            {selfOnboard.isPending && <Spinner />}
            {selfOnboard.isPending ? t('complete.saving') : t('complete.submit')}
          </Button>
        )}
      </div>
    </div>
  );
}
