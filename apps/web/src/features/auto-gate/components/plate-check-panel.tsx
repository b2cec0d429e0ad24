import { CheckIcon, KeyboardIcon, PencilIcon, ScanLineIcon } from 'lucide-react';
import { useState } from 'react';

import { PlateEntryForm } from '@/components/plate-entry-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useTranslation } from '@/lib/i18n';
import { formatPlate } from '@/lib/plates';

import { type AutoGateState, PLATE_CHECK_STATUS } from './auto-gate-machine';

/**
 * Issue 15: the plate read failed ("Enter manually") or is uncertain (confirm or correct it)
 * before the server is asked about the vehicle. The photo shows beside it, so the guard checks
 * the typed plate against what the camera saw; the read value stays with the entry.
 */
export function PlateCheckPanel({
  state,
  onEnter,
  onScanAgain,
}: {
  state: AutoGateState;
  onEnter: (plateNumber: string) => void;
  onScanAgain: () => void;
}) {
  const { t } = useTranslation('scan');
  const isUnread = state.status === PLATE_CHECK_STATUS.unread;
  const [isCorrecting, setIsCorrecting] = useState(isUnread);
  const read = state.plateRead?.plateNumber ?? null;
  const confidence = state.plateRead?.confidence;
  return (
    <Card className="border-amber-500" data-testid="plate-check-panel">
      <CardHeader className="items-center text-center">
        <CardTitle className="text-xl" role="status">
          {isUnread ? t('autoGatePlate.unreadTitle') : t('autoGatePlate.confirmTitle')}
        </CardTitle>
        <CardDescription>
          {isUnread
            ? t('autoGatePlate.unreadDescription')
            : t('autoGatePlate.confirmDescription', {
                confidence:
                  confidence === null || confidence === undefined
                    ? '?'
                    : Math.round(confidence * 100),
              })}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {state.plateImage && (
          <img
            src={state.plateImage}
            alt={t('autoGatePlate.readAs')}
            className="mx-auto max-h-40 rounded-md border object-contain"
          />
        )}
        {read && (
          <div className="rounded-lg bg-muted p-4 text-center">
            <p className="text-xs uppercase text-muted-foreground">{t('autoGatePlate.readAs')}</p>
            <p className="font-mono text-2xl font-bold" data-testid="read-plate">
              {formatPlate(read)}
            </p>
          </div>
        )}
        {isCorrecting ? (
          <div className="grid gap-2">
            <p className="flex items-center gap-2 text-sm font-medium">
              <KeyboardIcon aria-hidden className="size-4" />
              {isUnread ? t('autoGatePlate.enterManually') : t('autoGatePlate.correctTitle')}
            </p>
            <PlateEntryForm
              initialPlate={read ? formatPlate(read) : ''}
              onCheck={onEnter}
              onCancel={isUnread ? undefined : () => setIsCorrecting(false)}
            />
          </div>
        ) : (
          read && (
            <div className="grid gap-2 sm:grid-cols-2">
              <Button size="lg" onClick={() => onEnter(read)}>
                <CheckIcon aria-hidden />
                {t('autoGatePlate.confirmPlate')}
              </Button>
              <Button size="lg" variant="outline" onClick={() => setIsCorrecting(true)}>
                <PencilIcon aria-hidden />
                {t('autoGatePlate.correctPlate')}
              </Button>
            </div>
          )
        )}
        <Button size="lg" variant="outline" onClick={onScanAgain}>
          <ScanLineIcon aria-hidden />
          {t('autoGatePlate.scanAgain')}
        </Button>
      </CardContent>
    </Card>
  );
}

/**
 * Issue 15: on a refusal (not registered, face failed), the plate may have been misread: the
 * guard types the plate on the vehicle and the server checks it as a new attempt.
 */
export function CorrectPlateAction({
  plateNumber,
  onCorrect,
}: {
  plateNumber: string | null;
  onCorrect: (plateNumber: string) => void;
}) {
  const { t } = useTranslation('scan');
  const [isOpen, setIsOpen] = useState(false);
  if (!isOpen)
    return (
      <Button size="lg" variant="outline" onClick={() => setIsOpen(true)}>
        <PencilIcon aria-hidden />
        {t('autoGatePlate.correctPlate')}
      </Button>
    );
  return (
    <div className="grid gap-2 sm:col-span-2" data-testid="correct-plate">
      <p className="text-sm font-medium">{t('autoGatePlate.correctTitle')}</p>
      <p className="text-xs text-muted-foreground">{t('autoGatePlate.correctDescription')}</p>
      <PlateEntryForm
        initialPlate={plateNumber ? formatPlate(plateNumber) : ''}
        onCheck={onCorrect}
        onCancel={() => setIsOpen(false)}
      />
    </div>
  );
}

/** Issue 15: a typed plate says so, with what the camera read beside it. */
export function TypedPlateNote({ state }: { state: AutoGateState }) {
  const { t } = useTranslation('scan');
  if (!state.plateTyped || !state.plateRead) return null;
  const read = state.plateRead.plateNumber;
  if (read && read === state.plateNumber) return null;
  return (
    <p className="mt-1 text-xs text-muted-foreground" data-testid="typed-plate-note">
      {t('autoGatePlate.typedBy', {
        read: read ? formatPlate(read) : t('autoGatePlate.nothingRead'),
      })}
    </p>
  );
}
