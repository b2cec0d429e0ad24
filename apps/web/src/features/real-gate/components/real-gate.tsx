import {
  CameraIcon,
  KeyboardIcon,
  ShieldCheckIcon,
  ShieldXIcon,
  SkipForwardIcon,
} from 'lucide-react';
import { useRef, useState } from 'react';

import { CameraCaptureDialog } from '@/components/camera/camera-capture-dialog';
import { InductionValidityNotice } from '@/components/induction-validity-notice';
import { readTrailerDisc } from '@/components/trailer-disc-reader';
import { TrailersPanel } from '@/components/trailers-panel';
import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { Progress } from '@/components/ui/progress';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { useTranslation } from '@/lib/i18n';

import {
  type DriverEdits,
  DriverDetailsForm,
  driverCorrections,
  driverPending,
  driverValues,
  startDriverEdits,
} from './driver-details-form';
import { EntryDecidedPanel, WarningsPanel } from './entry-decided-panel';
import { ManualEntry, manualCorrections } from './manual-entry';
import { PermitActions } from './permit-actions';
import { driverDetails, plateCorrections, realGateEntry } from './real-gate-entry';
import {
  canEditTrailers,
  canGrantEntry,
  canSkip,
  currentStep,
  initialRealGateState,
  isEntryGranted,
  isManualStep,
  REAL_GATE_STEPS,
  type RealGateEvent,
  realGateReducer,
  type StepId,
} from './real-gate-machine';
import { StepItem } from './real-gate-step-item';
import { RealGateStepDots } from './real-gate-stepper';
import { processCapture, StepFailure, stepMeta } from './real-gate-steps';
import { entryWarnings, guardNotes } from './real-gate-warnings';
import { usePlateCorrection } from './use-plate-correction';
import { useRealGateDecision } from './use-real-gate-decision';

/**
 * The checklist's state, with a dispatch that says whether the machine accepted the event (the
 * reducer returns the same state when it refuses one): an async step such as a typed plate's check
 * must not announce a result that was never recorded.
 */
function useRealGateMachine() {
  const [state, setState] = useState(initialRealGateState);
  const latest = useRef(state);
  const dispatch = (event: RealGateEvent): boolean => {
    const previous = latest.current;
    const next = realGateReducer(previous, event);
    latest.current = next;
    setState(next);
    return next !== previous;
  };
  return [state, dispatch] as const;
}

/**
 * Spec §2/§4 Real Gate Entry: the nine-step checklist, then the Entry Granted panel.
 * `canPinOverride`: the user's role may override a rules refusal with a supervisor's PIN
 * (`pinOverrideEntries`, as the server's route allows it).
 */
export function RealGate({ canPinOverride = false }: { canPinOverride?: boolean } = {}) {
  const { t } = useTranslation('realGate');
  const [state, dispatch] = useRealGateMachine();
  const [cameraStep, setCameraStep] = useState<StepId | null>(null);
  /** Issue 15: the capture of a step's unread photo, cited by the values typed for it. */
  const [failedCapture, setFailedCapture] = useState<{ step: StepId; captureId: string | null }>();
  const [editedDriver, setEditedDriver] = useState<{ key: string; edits: DriverEdits } | null>(
    null,
  );
  const warnings = entryWarnings(state.data, new Date(), t);
  const step = currentStep(state);
  const completed = REAL_GATE_STEPS.filter((id) => state.statuses[id] === 'success').length;

  const plate = usePlateCorrection({ state, dispatch });
  const { isTypingPlate, setIsTypingPlate, unreadPlate, setUnreadPlate } = plate;

  const handleCapture = async (captureStep: StepId, image: string) => {
    setCameraStep(null);
    if (captureStep === 'permits') {
      dispatch({ type: 'PERMIT_ADDED', image });
      return;
    }
    if (captureStep === 'plate') setIsTypingPlate(false);
    dispatch({ type: 'STEP_STARTED', step: captureStep });
    try {
      const outcome = await processCapture(captureStep, image);
      dispatch({ type: 'STEP_SUCCEEDED', step: captureStep, data: outcome.data });
      toast(outcome.toast);
    } catch (error) {
      const failure =
        error instanceof StepFailure
          ? error
          : new StepFailure(t('toast.processingFailedStep'), {
              variant: 'destructive',
              title: t('toast.processingFailed'),
              description: t('toast.failedToProcess'),
            });
      if (captureStep === 'plate')
        setUnreadPlate({ image, readText: failure.readText, captureId: failure.captureId });
      setFailedCapture({ step: captureStep, captureId: failure.captureId });
      dispatch({ type: 'STEP_FAILED', step: captureStep, error: failure.stepError });
      toast(failure.toast);
    }
  };

  // Issue 15: the driver's details as the guard confirmed or typed them, per documents read.
  const driverKey = [
    state.data.identity?.recordId,
    state.data.licence?.recordId,
    state.data.passport?.recordId,
  ].join('/');
  const driverEdits =
    editedDriver?.key === driverKey ? editedDriver.edits : startDriverEdits(state.data);
  const entryBody = () => ({
    ...realGateEntry(state.data, guardNotes(state.data)),
    ...driverValues(driverEdits),
    corrections: [
      ...plateCorrections(state.data.plate, plate.isConfirmed),
      ...driverCorrections(driverEdits),
      ...manualCorrections(state.data),
    ],
  });
  const isDriverPending = driverPending(driverEdits).length > 0 || plate.isPending;

  const decision = useRealGateDecision({
    dispatch,
    entryBody,
    plateNumber: state.data.plate?.plateNumber ?? null,
  });
  const savedEntry = decision.savedEntry;

  const actionsFor = (id: StepId) => {
    const status = state.statuses[id];
    const isBusy = status === 'processing';
    const skip = canSkip(state, id) && (
      <Button variant="outline" onClick={() => dispatch({ type: 'STEP_SKIPPED', step: id })}>
        <SkipForwardIcon aria-hidden />
        {t('actions.skip')}
      </Button>
    );
    if (id === 'complete') {
      return (
        <div className="flex flex-wrap gap-2">
          <DriverDetailsForm
            edits={driverEdits}
            onChange={(edits) => setEditedDriver({ key: driverKey, edits })}
          />
          {isDriverPending && (
            <p role="status" className="w-full text-sm text-amber-800 dark:text-amber-200">
              {t('actions.confirmDriver')}
            </p>
          )}
          <Button
            size="lg"
            onClick={decision.grant}
            disabled={!canGrantEntry(state) || isDriverPending}
          >
            {isBusy ? <Spinner /> : <ShieldCheckIcon aria-hidden />}
            {status === 'failed' ? t('actions.retryGrant') : t('actions.grant')}
          </Button>
          <Button
            size="lg"
            variant="outline"
            onClick={decision.refuse}
            disabled={!canGrantEntry(state)}
          >
            <ShieldXIcon aria-hidden />
            {t('actions.refuse')}
          </Button>
        </div>
      );
    }
    if (id === 'permits') {
      return (
        <PermitActions
          permits={state.data.permits}
          onCapture={() => setCameraStep('permits')}
          onRemove={(index) => dispatch({ type: 'PERMIT_REMOVED', index })}
          onConfirm={() => dispatch({ type: 'PERMITS_CONFIRMED' })}
        />
      );
    }
    if (id === 'plate' && status === 'failed' && isTypingPlate) return plate.form;
    const typePlate = id === 'plate' && status === 'failed' && unreadPlate && (
      <Button variant="outline" onClick={() => setIsTypingPlate(true)}>
        <KeyboardIcon aria-hidden />
        {t('actions.enterPlate')}
      </Button>
    );
    return (
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => setCameraStep(id)} disabled={isBusy}>
          {isBusy ? <Spinner /> : <CameraIcon aria-hidden />}
          {isBusy
            ? t('actions.processing')
            : status === 'failed'
              ? t('actions.retry')
              : t('actions.capture', { title: stepMeta(id).title })}
        </Button>
        {typePlate}
        {status === 'failed' && isManualStep(id) && (
          <ManualEntry
            step={id}
            captureId={failedCapture?.step === id ? failedCapture.captureId : null}
            onEntered={(edits) => dispatch({ type: 'STEP_ENTERED_MANUALLY', step: id, edits })}
          />
        )}
        {skip}
      </div>
    );
  };

  const cameraMeta = cameraStep ? stepMeta(cameraStep) : null;

  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6">
      <PageHeader title={t('title')} description={t('description')} />
      {savedEntry && (isEntryGranted(state) || !savedEntry.entryGranted || savedEntry.override) ? (
        <EntryDecidedPanel
          state={state}
          entry={savedEntry}
          canPinOverride={canPinOverride}
          onOverridden={decision.setSavedEntry}
        />
      ) : (
        <>
          <div className="grid gap-2">
            <div className="flex justify-between text-sm">
              <span className="font-medium">
                {t('progress.step', {
                  current: Math.min(state.current + 1, REAL_GATE_STEPS.length),
                  total: REAL_GATE_STEPS.length,
                })}
              </span>
              <span className="text-muted-foreground">
                {t('progress.complete', { count: completed })}
              </span>
            </div>
            <Progress
              value={(completed / REAL_GATE_STEPS.length) * 100}
              aria-label={t('progress.label')}
            />
            <RealGateStepDots state={state} />
          </div>
          <WarningsPanel warnings={warnings} />
          <InductionValidityNotice idNumber={driverDetails(state.data).driverIdNumber} />
          <TrailersPanel
            trailers={state.data.trailers}
            registered={state.data.plate?.rigTrailers}
            canEdit={canEditTrailers(state)}
            readDisc={readTrailerDisc}
            onAdd={(trailer) => dispatch({ type: 'TRAILER_ADDED', trailer })}
            onRemove={(index) => dispatch({ type: 'TRAILER_REMOVED', index })}
          />
          <ol className="flex flex-col gap-3" aria-label={t('progress.steps')}>
            {REAL_GATE_STEPS.map((id) => (
              <StepItem
                key={id}
                step={id}
                state={state}
                actions={step === id && actionsFor(id)}
                amend={id === 'plate' ? plate.correction : undefined}
              />
            ))}
          </ol>
        </>
      )}
      <CameraCaptureDialog
        open={cameraStep !== null}
        onClose={() => setCameraStep(null)}
        onCapture={(image) => {
          if (cameraStep) void handleCapture(cameraStep, image);
        }}
        title={cameraMeta?.cameraTitle ?? t('actions.captureFallback')}
        description={cameraMeta?.description}
        guide={cameraMeta?.guide ?? 'none'}
        captureLabel={
          cameraMeta
            ? t('actions.capture', { title: cameraMeta.title.toLowerCase() })
            : t('actions.captureFallback')
        }
      />
    </div>
  );
}
