import {
  CameraIcon,
  CheckCircle2Icon,
  CircleAlertIcon,
  CircleDashedIcon,
  CircleXIcon,
  KeyboardIcon,
  PencilIcon,
  RotateCcwIcon,
  ShieldCheckIcon,
  ShieldXIcon,
  SkipForwardIcon,
  TriangleAlertIcon,
  XIcon,
} from 'lucide-react';
import { type ReactNode, useRef, useState } from 'react';

import type { EntryLog } from '@boomgate/contracts/entry-logs';

import { CameraCaptureDialog } from '@/components/camera/camera-capture-dialog';
import { EntryWarningsPanel, REFUSAL_REASON_LABELS } from '@/components/entry-warnings';
import { InductionValidityNotice } from '@/components/induction-validity-notice';
import { PlateEntryForm } from '@/components/plate-entry-form';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { Progress } from '@/components/ui/progress';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { i18next } from '@/lib/i18n';
import { isNetworkError, queueAction, reportUnreachable } from '@/lib/offline/offline-sync';
import { getErrorMessage } from '@/lib/api-client';
import { useGrantEntry } from '@/lib/api/grant-entry';
import { cn } from '@/lib/cn';
import { formatPlate } from '@/lib/plates';

import { crossCheckWarnings } from './cross-checks';
import {
  type DriverEdits,
  DriverDetailsForm,
  driverCorrections,
  driverPending,
  driverValues,
  startDriverEdits,
} from './driver-details-form';
import { driverDetails, plateCorrections, plateWarning, realGateEntry } from './real-gate-entry';
import {
  canCorrectPlate,
  canGrantEntry,
  canSkip,
  currentStep,
  initialRealGateState,
  isEntryGranted,
  MAX_PERMITS,
  REAL_GATE_STEPS,
  type RealGateData,
  type RealGateEvent,
  type RealGateState,
  realGateReducer,
  type StepId,
  type StepStatus,
} from './real-gate-machine';
import { checkTypedPlate, processCapture, STEP_META, StepFailure } from './real-gate-steps';

/** Spec §9: the Entry Granted toast lasts 3000 ms. */
export const ENTRY_GRANTED_TOAST_MS = 3000;

const STATUS_LABEL: Record<StepStatus, string> = {
  pending: 'Pending',
  processing: 'Processing...',
  success: 'Complete',
  failed: 'Failed',
};

function StatusIcon({ status }: { status: StepStatus }) {
  switch (status) {
    case 'success':
      return <CheckCircle2Icon aria-hidden className="size-6 text-success" />;
    case 'failed':
      return <CircleXIcon aria-hidden className="size-6 text-destructive" />;
    case 'processing':
      return <Spinner className="size-6" />;
    case 'pending':
      return <CircleDashedIcon aria-hidden className="size-6 text-muted-foreground" />;
  }
}

/**
 * What the guard sees while the checklist runs: the document cross-checks as a preview, plus the
 * guard's own notes. The entry's recorded warnings are the server's (issue 14): it runs the same
 * checks on the saved documents and answers them with the entry, shown once it is saved.
 */
export function entryWarnings(data: RealGateData, today: Date = new Date()): string[] {
  const warnings = crossCheckWarnings(
    {
      plateNumber: data.plate?.plateNumber ?? null,
      disc: data.disc?.reading ?? null,
      identity: data.identity?.reading ?? null,
      licence: data.licence?.reading ?? null,
      passport: data.passport?.reading ?? null,
    },
    today,
  );
  const typedPlate = plateWarning(data.plate);
  if (typedPlate) warnings.unshift(typedPlate);
  if (data.face?.note) warnings.push(`Face photo: ${data.face.note}`);
  return warnings;
}

/** What only the guard's screen knows, sent with the entry as notes: a typed plate, a doubted face. */
export function guardNotes(data: RealGateData): string[] {
  const typedPlate = plateWarning(data.plate);
  return [
    ...(typedPlate ? [typedPlate] : []),
    ...(data.face?.note ? [`Face photo: ${data.face.note}`] : []),
  ];
}

function Fact({ label, value }: { label: string; value: ReactNode }) {
  return (
    <span>
      <span className="text-muted-foreground">{label}: </span>
      <span className="font-medium">{value}</span>
    </span>
  );
}

function StepSummary({ step, state }: { step: StepId; state: RealGateState }) {
  const { data } = state;
  if (state.skipped.includes(step)) return <p className="text-sm text-muted-foreground">Skipped</p>;
  const dash = '-';
  let content: ReactNode = null;
  switch (step) {
    case 'plate':
      if (data.plate) {
        content = (
          <>
            <span className="font-mono text-base font-semibold">
              {formatPlate(data.plate.plateNumber)}
            </span>
            {data.plate.approved ? (
              <Badge variant="success">Vehicle Approved</Badge>
            ) : (
              <Badge variant="secondary">Vehicle Not Pre-Registered</Badge>
            )}
            {data.plate.isTypedByGuard && (
              <Fact label="Camera read" value={data.plate.extractedPlate ?? 'nothing'} />
            )}
          </>
        );
      }
      break;
    case 'disc':
      if (data.disc) {
        const disc = data.disc.reading;
        content = (
          <>
            <Fact label="Licence number" value={disc.licenceNumber ?? dash} />
            <Fact label="Expires" value={disc.dateOfExpiry ?? dash} />
            {disc.make && <Fact label="Make" value={disc.make} />}
          </>
        );
      }
      break;
    case 'face':
      if (data.face) {
        content = (
          <>
            <img
              src={data.face.image}
              alt="Driver face"
              className="size-14 rounded-md object-cover"
            />
            {data.face.note && <span className="text-muted-foreground">{data.face.note}</span>}
          </>
        );
      }
      break;
    case 'id':
      if (data.identity) {
        const identity = data.identity.reading;
        const name = [identity.givenNames, identity.surname].filter(Boolean).join(' ');
        content = (
          <>
            <Fact label="Name" value={name || dash} />
            <Fact label="ID number" value={identity.identityNumber ?? 'Not read'} />
          </>
        );
      }
      break;
    case 'licence':
      if (data.licence) {
        const licence = data.licence.reading;
        content = (
          <>
            <Fact label="Name" value={licence.nameOnCard ?? dash} />
            <Fact label="Licence number" value={licence.licenceNumber ?? 'Not read'} />
            <Fact label="Valid to" value={licence.validTo ?? dash} />
            {licence.prdpCode && (
              <Fact label="PrDP" value={`${licence.prdpCode} to ${licence.prdpExpiry ?? dash}`} />
            )}
          </>
        );
      }
      break;
    case 'passport':
      if (data.passport) {
        content = (
          <Fact
            label="Passport number"
            value={data.passport.reading.passportNumber ?? 'MRZ extraction failed'}
          />
        );
      }
      break;
    case 'permits':
      // While current, the permits show with their remove buttons in the step's actions.
      if (data.permits.length > 0 && currentStep(state) !== 'permits') {
        content = (
          <>
            {data.permits.map((image, index) => (
              <img
                key={index}
                src={image}
                alt={`Permit ${index + 1}`}
                className="size-14 rounded-md border object-cover"
              />
            ))}
          </>
        );
      }
      break;
    case 'ticket':
      if (data.ticket) {
        content = (
          <>
            <Fact label="Ticket" value={data.ticket.ticketNumber} />
            {data.ticket.transporter && (
              <Fact label="Transporter" value={data.ticket.transporter} />
            )}
          </>
        );
      }
      break;
    case 'complete':
      break;
  }
  if (!content) return null;
  return <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">{content}</div>;
}

function StepItem({
  step,
  state,
  actions,
  amend,
}: {
  step: StepId;
  state: RealGateState;
  actions: ReactNode;
  /** What may still change on a completed step (the plate's correction). */
  amend?: ReactNode;
}) {
  const meta = STEP_META[step];
  const status = state.statuses[step];
  const isCurrent = currentStep(state) === step;
  const error = state.errors[step];
  return (
    <li
      data-testid={`step-${step}`}
      data-status={status}
      aria-current={isCurrent ? 'step' : undefined}
      className={cn(
        'flex gap-3 rounded-lg border p-4',
        isCurrent && 'border-primary shadow-sm',
        !isCurrent && status === 'pending' && 'opacity-60',
      )}
    >
      <StatusIcon status={status} />
      <div className="grid min-w-0 flex-1 gap-2">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div>
            <h3 className="font-semibold">
              {meta.number}. {meta.title}
            </h3>
            <p className="text-sm text-muted-foreground">{meta.description}</p>
          </div>
          <Badge
            variant={
              status === 'success' ? 'success' : status === 'failed' ? 'destructive' : 'outline'
            }
          >
            {state.skipped.includes(step) ? 'Skipped' : STATUS_LABEL[status]}
          </Badge>
        </div>
        {error && status === 'failed' && (
          <p className="flex items-center gap-1 text-sm text-destructive">
            <CircleAlertIcon aria-hidden className="size-4" />
            {error}
          </p>
        )}
        <StepSummary step={step} state={state} />
        {amend}
        {isCurrent && actions}
      </div>
    </li>
  );
}

function WarningsPanel({ warnings }: { warnings: string[] }) {
  if (warnings.length === 0) return null;
  return (
    <Alert variant="warning" data-testid="verification-warnings">
      <TriangleAlertIcon aria-hidden />
      <AlertTitle>Verification Warnings</AlertTitle>
      <AlertDescription className="text-current">
        <ul className="list-disc pl-4">
          {warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
        <p className="text-xs">Check these by hand. They are recorded with the entry.</p>
      </AlertDescription>
    </Alert>
  );
}

/**
 * The saved entry as the server recorded it: driver details by the spec's precedence from the
 * saved documents, and the server's checks (an expired document in red).
 */
function EntryDecidedPanel({ state, entry }: { state: RealGateState; entry: EntryLog }) {
  const name = [entry.driverName, entry.driverSurname].filter(Boolean).join(' ');
  const driver = { driverIdNumber: entry.driverIdNumber };
  return (
    <Card
      className={entry.entryGranted ? 'border-success' : 'border-destructive'}
      data-testid={entry.entryGranted ? 'entry-granted-panel' : 'entry-refused-panel'}
    >
      <CardHeader className="items-center text-center">
        {entry.entryGranted ? (
          <ShieldCheckIcon aria-hidden className="size-14 text-success" />
        ) : (
          <ShieldXIcon aria-hidden className="size-14 text-destructive" />
        )}
        <h2 className="text-2xl font-semibold leading-none">
          {entry.entryGranted ? 'Entry Granted' : 'Entry Refused'}
        </h2>
        {!entry.entryGranted && (
          <p className="text-sm text-muted-foreground" data-testid="refusal-reason">
            {refusalLabel(entry.refusalReason)}
          </p>
        )}
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid gap-2 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-muted-foreground">Plate Number</dt>
            <dd className="font-mono text-lg font-semibold">
              {state.data.plate ? formatPlate(state.data.plate.plateNumber) : '-'}
            </dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Driver</dt>
            <dd className="font-semibold">{name || '-'}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">ID Number</dt>
            <dd className="font-semibold">{driver.driverIdNumber ?? '-'}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Pre-registration</dt>
            <dd className="font-semibold">
              {entry.vehicleApproved ? 'Vehicle Approved' : 'Vehicle Not Pre-Registered'}
            </dd>
          </div>
        </dl>
        <EntryWarningsPanel warnings={entry.warnings} />
        <Button size="lg" onClick={() => window.location.reload()}>
          <RotateCcwIcon aria-hidden />
          Process Next Vehicle
        </Button>
      </CardContent>
    </Card>
  );
}

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

/** How the server's refusal reason reads on the panel and its toast. */
const refusalLabel = (reason: EntryLog['refusalReason']) =>
  (reason ? REFUSAL_REASON_LABELS[reason] : undefined) ?? 'Refused';

/** Spec §2/§4 Real Gate Entry: the nine-step checklist, then the Entry Granted panel. */
export function RealGate() {
  const [state, dispatch] = useRealGateMachine();
  const [cameraStep, setCameraStep] = useState<StepId | null>(null);
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  /** The photo of a plate the camera could not read, and any text it found on it. */
  const [unreadPlate, setUnreadPlate] = useState<{
    image: string;
    readText: string | null;
  } | null>(null);
  const [isTypingPlate, setIsTypingPlate] = useState(false);
  /** Issue 15: the uncertain plate read the guard confirmed (capture and plate). */
  const [confirmedPlate, setConfirmedPlate] = useState<string | null>(null);
  /** A typed plate the machine refused to record: the form opens with it again, not lost. */
  const [unrecordedPlate, setUnrecordedPlate] = useState<string | null>(null);
  const grantEntry = useGrantEntry();
  const [editedDriver, setEditedDriver] = useState<{ key: string; edits: DriverEdits } | null>(
    null,
  );
  /** The entry as the server saved it (granted or refused): the checklist is over. */
  const [savedEntry, setSavedEntry] = useState<EntryLog | null>(null);
  const warnings = entryWarnings(state.data);
  const step = currentStep(state);
  const completed = REAL_GATE_STEPS.filter((id) => state.statuses[id] === 'success').length;

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
          : new StepFailure('Processing failed', {
              variant: 'destructive',
              title: 'Processing Failed',
              description: 'Failed to process image. Please try again.',
            });
      if (captureStep === 'plate') setUnreadPlate({ image, readText: failure.readText });
      dispatch({ type: 'STEP_FAILED', step: captureStep, error: failure.stepError });
      toast(failure.toast);
    }
  };

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
        title: 'Plate Not Recorded',
        description: `${formatPlate(plateNumber)} was not recorded: the entry keeps ${formatPlate(recorded.plateNumber)}.`,
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
          Correct Plate
        </Button>
      </div>
    )
  ) : null;

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
      ...plateCorrections(state.data.plate, isPlateConfirmed),
      ...driverCorrections(driverEdits),
    ],
  });
  const isDriverPending = driverPending(driverEdits).length > 0 || isPlatePending;

  const handleGrant = () => {
    if (!dispatch({ type: 'STEP_STARTED', step: 'complete' })) return;
    grantEntry.mutate(
      { body: entryBody(), idempotencyKey },
      {
        onSuccess: (entry) => {
          setSavedEntry(entry);
          // The server decides (issue 14): a rule may refuse what the guard granted.
          if (!entry.entryGranted) {
            toast({
              variant: 'destructive',
              title: 'Entry Refused',
              description: `${refusalLabel(entry.refusalReason)}. The refusal has been logged.`,
            });
            return;
          }
          dispatch({ type: 'STEP_SUCCEEDED', step: 'complete' });
          toast({
            title: 'Entry Granted',
            description: state.data.plate
              ? `${formatPlate(state.data.plate.plateNumber)} may enter.`
              : 'The entry has been logged.',
            duration: ENTRY_GRANTED_TOAST_MS,
          });
        },
        onError: (error) => {
          if (isNetworkError(error)) {
            void queueOffline(entryBody());
            return;
          }
          dispatch({ type: 'STEP_FAILED', step: 'complete', error: 'Failed to save entry log' });
          toast({
            variant: 'destructive',
            title: 'Error Saving Entry',
            description: getErrorMessage(error, 'Failed to save entry log'),
          });
        },
      },
    );
  };

  /**
   * Issue 18: the server did not answer. The entry is queued on the device with the same body and
   * Idempotency-Key (a request that did reach the server is then answered with its entry), and the
   * server decides when it answers.
   */
  const queueOffline = async (body: ReturnType<typeof entryBody>) => {
    reportUnreachable();
    try {
      await queueAction({ id: idempotencyKey, path: '/api/auto-gate/grant-entry', body });
    } catch (error) {
      dispatch({ type: 'STEP_FAILED', step: 'complete', error: 'Failed to save entry log' });
      toast({
        variant: 'destructive',
        title: 'Error Saving Entry',
        description: getErrorMessage(error, 'Failed to save entry log'),
      });
      return;
    }
    dispatch({ type: 'STEP_SUCCEEDED', step: 'complete' });
    toast({
      title: i18next.t('offline:realGateQueuedTitle'),
      description: i18next.t('offline:realGateQueuedDescription'),
    });
  };

  /** The guard refuses the vehicle at the last step: the attempt is logged with its reason. */
  const handleRefuse = () => {
    if (!dispatch({ type: 'STEP_STARTED', step: 'complete' })) return;
    grantEntry.mutate(
      {
        body: {
          ...entryBody(),
          entryGranted: false,
          refusalReason: 'guard_refused',
        },
        idempotencyKey,
      },
      {
        onSuccess: (entry) => {
          setSavedEntry(entry);
          toast({
            variant: 'destructive',
            title: 'Entry Refused',
            description: 'The refusal has been logged.',
          });
        },
        onError: (error) => {
          dispatch({ type: 'STEP_FAILED', step: 'complete', error: 'Failed to save entry log' });
          toast({
            variant: 'destructive',
            title: 'Error Saving Entry',
            description: getErrorMessage(error, 'Failed to save entry log'),
          });
        },
      },
    );
  };

  const actionsFor = (id: StepId) => {
    const status = state.statuses[id];
    const isBusy = status === 'processing';
    const skip = canSkip(state, id) && (
      <Button variant="outline" onClick={() => dispatch({ type: 'STEP_SKIPPED', step: id })}>
        <SkipForwardIcon aria-hidden />
        Skip
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
              Confirm or correct the highlighted fields before granting entry.
            </p>
          )}
          <Button
            size="lg"
            onClick={handleGrant}
            disabled={!canGrantEntry(state) || isDriverPending}
          >
            {isBusy ? <Spinner /> : <ShieldCheckIcon aria-hidden />}
            {status === 'failed' ? 'Retry Grant Entry' : 'Grant Entry'}
          </Button>
          <Button
            size="lg"
            variant="outline"
            onClick={handleRefuse}
            disabled={!canGrantEntry(state)}
          >
            <ShieldXIcon aria-hidden />
            Refuse Entry
          </Button>
        </div>
      );
    }
    if (id === 'permits') {
      const count = state.data.permits.length;
      return (
        <div className="flex flex-wrap items-center gap-2">
          {count > 0 && (
            <ul className="flex w-full flex-wrap gap-2" aria-label="Captured permits">
              {state.data.permits.map((image, index) => (
                <li key={index} className="relative">
                  <img
                    src={image}
                    alt={`Permit ${index + 1}`}
                    className="size-16 rounded-md border object-cover"
                  />
                  <button
                    type="button"
                    aria-label={`Remove permit ${index + 1}`}
                    className="absolute -right-2 -top-2 rounded-full bg-background p-0.5 shadow"
                    onClick={() => dispatch({ type: 'PERMIT_REMOVED', index })}
                  >
                    <XIcon aria-hidden className="size-3.5" />
                  </button>
                </li>
              ))}
            </ul>
          )}
          <Button
            variant={count > 0 ? 'outline' : 'default'}
            onClick={() => setCameraStep('permits')}
            disabled={count >= MAX_PERMITS}
          >
            <CameraIcon aria-hidden />
            {count > 0 ? 'Add Another Permit' : 'Capture Permit'}
          </Button>
          {count > 0 && (
            <Button onClick={() => dispatch({ type: 'PERMITS_CONFIRMED' })}>
              Continue with {count} permit(s)
            </Button>
          )}
        </div>
      );
    }
    if (id === 'plate' && status === 'failed' && isTypingPlate) return plateForm;
    const typePlate = id === 'plate' && status === 'failed' && unreadPlate && (
      <Button variant="outline" onClick={() => setIsTypingPlate(true)}>
        <KeyboardIcon aria-hidden />
        Enter Plate
      </Button>
    );
    return (
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => setCameraStep(id)} disabled={isBusy}>
          {isBusy ? <Spinner /> : <CameraIcon aria-hidden />}
          {isBusy
            ? 'Processing...'
            : status === 'failed'
              ? 'Retry'
              : `Capture ${STEP_META[id].title}`}
        </Button>
        {typePlate}
        {skip}
      </div>
    );
  };

  const cameraMeta = cameraStep ? STEP_META[cameraStep] : null;

  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6">
      <PageHeader
        title="Real Gate Entry"
        description="Nine-step verification of vehicle, driver and documents before granting entry."
      />
      {savedEntry && (isEntryGranted(state) || !savedEntry.entryGranted) ? (
        <EntryDecidedPanel state={state} entry={savedEntry} />
      ) : (
        <>
          <div className="grid gap-2">
            <div className="flex justify-between text-sm">
              <span className="font-medium">
                Step {Math.min(state.current + 1, REAL_GATE_STEPS.length)} of{' '}
                {REAL_GATE_STEPS.length}
              </span>
              <span className="text-muted-foreground">{completed} complete</span>
            </div>
            <Progress value={(completed / REAL_GATE_STEPS.length) * 100} aria-label="Progress" />
          </div>
          <WarningsPanel warnings={warnings} />
          <InductionValidityNotice idNumber={driverDetails(state.data).driverIdNumber} />
          <ol className="grid gap-3" aria-label="Verification steps">
            {REAL_GATE_STEPS.map((id) => (
              <StepItem
                key={id}
                step={id}
                state={state}
                actions={step === id && actionsFor(id)}
                amend={id === 'plate' ? plateCorrection : undefined}
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
        title={cameraMeta?.cameraTitle ?? 'Capture'}
        description={cameraMeta?.description}
        guide={cameraMeta?.guide ?? 'none'}
        captureLabel={cameraMeta ? `Capture ${cameraMeta.title.toLowerCase()}` : 'Capture'}
      />
    </div>
  );
}
