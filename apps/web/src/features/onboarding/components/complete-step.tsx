import { CheckCircle2Icon, InfoIcon, QrCodeIcon } from 'lucide-react';
import { useState } from 'react';

import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

import type { LicenceDetails } from './licence-step';
import { QrCodeImage } from './onboarding-qr-code';
import type { PersonalInfo } from './personal-info';
import { formatConfidence, type Selfie } from './selfie-step';

/** A reference that only this screen knows: nothing on the server is behind it yet. */
export function createLocalReference(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  return `BG-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase()}`;
}

/** What the onboarding QR code holds until driver records exist on the server (issue 7). */
export function pendingQrText(reference: string): string {
  return `boomgate:driver-onboarding:pending:${reference}`;
}

/**
 * Step 4 of self onboarding: a summary and an optional QR code. Saving the driver record, and a
 * signed QR reference to it, wait for the server's driver records (issue 7); the screen says so.
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
  const [reference, setReference] = useState<string | null>(null);
  const rows: [string, string][] = [
    ['Name', `${info.name} ${info.surname}`.trim()],
    ['ID number', info.idNumber],
    ['Phone', info.phone],
    ['Licence number', licence.licenceNumber || 'Not given'],
    ['Licence valid to', licence.validTo || 'Not given'],
    ['Liveness', `Verified (confidence ${formatConfidence(selfie.confidence)})`],
  ];

  return (
    <div className="grid gap-5">
      <Alert variant="success">
        <CheckCircle2Icon aria-hidden />
        <AlertTitle>Your details are complete</AlertTitle>
        <AlertDescription>
          <p>Check them below. Show this screen at the gate office if they ask for it.</p>
        </AlertDescription>
      </Alert>

      <div className="grid gap-4 sm:grid-cols-[auto_1fr] sm:items-start">
        <img
          src={selfie.photo}
          alt="Your selfie"
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

      <section aria-labelledby="qr-heading" className="grid gap-3 rounded-lg border p-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h4 id="qr-heading" className="font-medium">
            QR code (optional)
          </h4>
          {reference === null && (
            <Button
              type="button"
              variant="outline"
              onClick={() => setReference(createLocalReference())}
            >
              <QrCodeIcon aria-hidden />
              Generate QR Code
            </Button>
          )}
        </div>
        {reference !== null && (
          <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
            <QrCodeImage text={pendingQrText(reference)} label={`QR code ${reference}`} />
            <Alert variant="warning" data-testid="qr-pending-notice">
              <InfoIcon aria-hidden />
              <AlertTitle>Pending server support</AlertTitle>
              <AlertDescription>
                <p>
                  This QR code holds only a local reference, <strong>{reference}</strong>. It is not
                  signed and not linked to a driver record, so the gate cannot verify you with it
                  yet.
                </p>
                <p>
                  Once the site server stores driver records, the QR code will carry a signed
                  reference to yours.
                </p>
              </AlertDescription>
            </Alert>
          </div>
        )}
      </section>

      <p className="text-xs text-muted-foreground">
        Your registration is not stored by the site server yet: keeping driver records is still to
        come. Only the licence photo was sent, to be read.
      </p>

      <div className="flex justify-between gap-3 border-t pt-5">
        <Button type="button" variant="outline" onClick={onBack}>
          Previous
        </Button>
        <Button type="button" onClick={onFinish}>
          Finish
        </Button>
      </div>
    </div>
  );
}
