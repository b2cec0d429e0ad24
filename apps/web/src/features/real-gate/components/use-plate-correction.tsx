import { CheckCircle2Icon, PencilIcon, TriangleAlertIcon } from 'lucide-react';
import { useState } from 'react';

import { PlateEntryForm } from '@/components/plate-entry-form';
import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { i18next, useTranslation } from '@/lib/i18n';
import { cn } from '@/lib/cn';
import { formatPlate } from '@/lib/plates';

import { canCorrectPlate, type RealGateEvent, type RealGateState } from './real-gate-machine';
import { checkTypedPlate } from './real-gate-steps';

/**
 * Issue 15, the plate step's guard input: a plate typed for an unread photo, a misread one
 * corrected, an uncertain read confirmed before the entry can be granted. The camera's reading and
 * its capture stay with the entry either way.
 */
export function usePlateCorrection({
  state,
  dispatch,
}: {
  state: RealGateState;
  dispatch: (event: RealGateEvent) => boolean;
}) {
  const { t } = useTranslation('realGate');
  /** The photo of a plate the camera could not read, and any text it found on it. */
  const [unreadPlate, setUnreadPlate] = useState<{
    image: string;
    readText: string | null;
    captureId: string | null;
  } | null>(null);
  const [isTypingPlate, setIsTypingPlate] = useState(false);
  /** Issue 15: the uncertain plate read the guard confirmed (capture and plate). */
  const [confirmedPlate, setConfirmedPlate] = useState<string | null>(null);
  /** A typed plate the machine refused to record: the form opens with it again, not lost. */
  const [unrecordedPlate, setUnrecordedPlate] = useState<string | null>(null);
  /**
   * A typed plate: for an unread one the plate step succeeds with it; for a misread one the
   * recorded plate is replaced. Either way the vehicle is checked again and the camera's reading
   * stays with the entry.
   */
  const handleTypedPlate = async (plateNumber: string) => {
    if (state.statuses.plate === 'failed' && unreadPlate) {
      if (!dispatch({ type: 'STEP_STARTED', step: 'plate' })) return;
      setIsTypingPlate(false);
      const outcome = await checkTypedPlate(plateNumber, {
        image: unreadPlate.image,
        // The unread photo's capture is cited: the entry's evidence is what the server read.
        captureId: unreadPlate.captureId,
        extractedPlate: unreadPlate.readText,
      });
      dispatch({ type: 'STEP_SUCCEEDED', step: 'plate', data: { plate: outcome.plate } });
      toast(outcome.toast);
      return;
    }
    const recorded = state.data.plate;
    if (!recorded) return;
    // Grant Entry waits for the check (the machine refuses it meanwhile), so the entry is never
    // saved with the plate being replaced.
    let outcome: Awaited<ReturnType<typeof checkTypedPlate>> | null = null;
    let isRecorded = false;
    if (dispatch({ type: 'PLATE_CHECK_STARTED' })) {
      try {
        // The photo stays the capture it was read as: the correction cites it (issue 15).
        outcome = await checkTypedPlate(plateNumber, {
          image: recorded.image,
          captureId: recorded.captureId,
          extractedPlate: recorded.extractedPlate,
        });
        isRecorded = dispatch({ type: 'PLATE_CORRECTED', plate: outcome.plate });
      } finally {
        dispatch({ type: 'PLATE_CHECK_ENDED' });
      }
    }
    if (!outcome || !isRecorded) {
      // Kept for the form, which stays open: the guard sees the plate was not recorded and can
      // try again while the entry can still change.
      setUnrecordedPlate(plateNumber);
      toast({
        variant: 'destructive',
        title: t('toast.plateNotRecorded'),
        description: t('toast.plateNotRecordedDescription', {
          typed: formatPlate(plateNumber),
          kept: formatPlate(recorded.plateNumber),
        }),
      });
      return;
    }
    setUnrecordedPlate(null);
    setIsTypingPlate(false);
    toast(outcome.toast);
  };

  const plateForm = (
    <PlateEntryForm
      initialPlate={formatPlate(unrecordedPlate ?? state.data.plate?.plateNumber ?? '')}
      onCheck={handleTypedPlate}
      onCancel={() => {
        setUnrecordedPlate(null);
        setIsTypingPlate(false);
      }}
    />
  );
  // Issue 15: an uncertain read is confirmed (or corrected) before the entry can be granted.
  const plateKey = `${state.data.plate?.captureId ?? ''}/${state.data.plate?.plateNumber ?? ''}`;
  const isPlateConfirmed = confirmedPlate === plateKey;
  const isPlatePending = Boolean(
    state.data.plate?.isUncertain && !state.data.plate.isTypedByGuard && !isPlateConfirmed,
  );
  const plateCorrection = canCorrectPlate(state) ? (
    isTypingPlate ? (
      plateForm
    ) : (
      <div
        className={cn(
          'flex flex-wrap items-center gap-2',
          isPlatePending && 'rounded-md bg-amber-50 p-2 ring-1 ring-amber-500 dark:bg-amber-950/40',
        )}
        data-uncertain={isPlatePending ? 'true' : undefined}
      >
        {isPlatePending && (
          <>
            <span className="flex items-center gap-1 text-sm text-amber-800 dark:text-amber-200">
              <TriangleAlertIcon aria-hidden className="size-4" />
              {i18next.t('scan:autoGatePlate.confirmTitle')}
            </span>
            <Button variant="outline" size="sm" onClick={() => setConfirmedPlate(plateKey)}>
              <CheckCircle2Icon aria-hidden />
              {i18next.t('scan:autoGatePlate.confirmPlate')}
            </Button>
          </>
        )}
        <Button variant="outline" size="sm" onClick={() => setIsTypingPlate(true)}>
          <PencilIcon aria-hidden />
          {t('actions.correctPlate')}
        </Button>
      </div>
    )
  ) : null;

  return {
    form: plateForm,
    correction: plateCorrection,
    isConfirmed: isPlateConfirmed,
    isPending: isPlatePending,
    isTypingPlate,
    setIsTypingPlate,
    unreadPlate,
    setUnreadPlate,
  };
}
