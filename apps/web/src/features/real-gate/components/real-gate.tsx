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
import { OverrideNote, PinOverrideButton } from '@/components/entry-override';
import { EntryWarningsPanel, REFUSAL_REASON_LABELS } from '@/components/entry-warnings';
import { InductionValidityNotice } from '@/components/induction-validity-notice';
import { readTrailerDisc } from '@/components/trailer-disc-reader';
import { TrailersPanel } from '@/components/trailers-panel';
import { PlateEntryForm } from '@/components/plate-entry-form';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { Progress } from '@/components/ui/progress';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { i18next, type TFunction, useTranslation } from '@/lib/i18n';
import { isNetworkError, queueAction, reportUnreachable } from '@/lib/offline/offline-sync';
import { getErrorMessage } from '@/lib/api-client';
import { useGrantEntry } from '@/lib/api/grant-entry';
import { cn } from '@/lib/cn';
import { useDecisionFeedback } from '@/lib/decision-feedback';
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
import {
  driverDetails,
  plateCorrections,
  plateWarning,
  plateWarningText,
  realGateEntry,
} from './real-gate-entry';
import {
  canCorrectPlate,
  canEditTrailers,
  canGrantEntry,
  canSkip,
  currentStep,
  initialRealGateState,
  isEntryGranted,
  isManualStep,
  MAX_PERMITS,
  REAL_GATE_STEPS,
  type RealGateData,
  type RealGateEvent,
  type RealGateState,
  realGateReducer,
  type StepId,
  type StepStatus,
} from './real-gate-machine';
import { checkTypedPlate, processCapture, StepFailure, stepMeta } from './real-gate-steps';
import { ManualEntry, manualCorrections, ManualSummary } from './manual-entry';
import { RealGateStepDots } from './real-gate-stepper';

/** Spec §9: the Entry Granted toast lasts 3000 ms. */
export const ENTRY_GRANTED_TOAST_MS = 3000;

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
export function entryWarnings(
  data: RealGateData,
  today: Date = new Date(),
  t: TFunction<'realGate'> = i18next.getFixedT(null, 'realGate'),
): string[] {
  const warnings = crossCheckWarnings(
    {
      plateNumber: data.plate?.plateNumber ?? null,
      disc: data.disc?.reading ?? null,
      identity: data.identity?.reading ?? null,
      licence: data.licence?.reading ?? null,
      passport: data.passport?.reading ?? null,
    },
    today,
    t,
  );
  // Issue 19: shown in the chosen language; guardNotes() sends the same notes in English.
  const typedPlate = plateWarningText(t, data.plate);
  if (typedPlate) warnings.unshift(typedPlate);
  if (data.face?.note) warnings.push(t('crossChecks.facePhoto', { note: data.face.note }));
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
  const { t } = useTranslation('realGate');
  const { data } = state;
  if (state.skipped.includes(step))
    return <p className="text-sm text-muted-foreground">{t('status.skipped')}</p>;
  if (isManualStep(step) && data.manual?.[step]) return <ManualSummary step={step} data={data} />;
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
              <Badge variant="success">{t('summary.vehicleApproved')}</Badge>
            ) : (
              <Badge variant="secondary">{t('summary.vehicleNotPreRegistered')}</Badge>
            )}
            {data.plate.isTypedByGuard && (
              <Fact
                label={t('summary.cameraRead')}
                value={data.plate.extractedPlate ?? t('summary.nothing')}
              />
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
            <Fact label={t('summary.licenceNumber')} value={disc.licenceNumber ?? dash} />
            <Fact label={t('summary.expires')} value={disc.dateOfExpiry ?? dash} />
            {disc.make && <Fact label={t('summary.make')} value={disc.make} />}
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
              alt={t('summary.driverFace')}
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
            <Fact label={t('summary.name')} value={name || dash} />
            <Fact
              label={t('summary.idNumber')}
              value={identity.identityNumber ?? t('summary.notRead')}
            />
          </>
        );
      }
      break;
    case 'licence':
      if (data.licence) {
        const licence = data.licence.reading;
        content = (
          <>
            <Fact label={t('summary.name')} value={licence.nameOnCard ?? dash} />
            <Fact
              label={t('summary.licenceNumber')}
              value={licence.licenceNumber ?? t('summary.notRead')}
            />
            <Fact label={t('summary.validTo')} value={licence.validTo ?? dash} />
            {licence.prdpCode && (
              <Fact
                label={t('summary.prdp')}
                value={t('summary.prdpValue', {
                  code: licence.prdpCode,
                  expiry: licence.prdpExpiry ?? dash,
                })}
              />
            )}
          </>
        );
      }
      break;
    case 'passport':
      if (data.passport) {
        content = (
          <Fact
            label={t('summary.passportNumber')}
            value={data.passport.reading.passportNumber ?? t('summary.mrzFailed')}
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
                alt={t('summary.permit', { number: index + 1 })}
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
            <Fact label={t('summary.ticket')} value={data.ticket.ticketNumber} />
            {data.ticket.transporter && (
              <Fact label={t('summary.transporter')} value={data.ticket.transporter} />
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
  const { t } = useTranslation('realGate');
  const meta = stepMeta(step);
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
        // Issue 19, on a phone: the current step first, finished ones compact, none to come.
        isCurrent ? 'max-md:order-first' : 'max-md:py-2',
        !isCurrent && status === 'pending' && 'max-md:hidden',
      )}
    >
      <StatusIcon status={status} />
      <div className="grid min-w-0 flex-1 gap-2">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div>
            <h3 className="font-semibold">
              {meta.number}. {meta.title}
            </h3>
            <p className={cn('text-sm text-muted-foreground', !isCurrent && 'max-md:hidden')}>
              {meta.description}
            </p>
          </div>
          <Badge
            variant={
              status === 'success' ? 'success' : status === 'failed' ? 'destructive' : 'outline'
            }
          >
            {state.skipped.includes(step) ? t('status.skipped') : t(`status.${status}`)}
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
  const { t } = useTranslation('realGate');
  if (warnings.length === 0) return null;
  return (
    <Alert variant="warning" data-testid="verification-warnings">
      <TriangleAlertIcon aria-hidden />
      <AlertTitle>{t('warnings.title')}</AlertTitle>
      <AlertDescription className="text-current">
        <ul className="list-disc pl-4">
          {warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
        <p className="text-xs">{t('warnings.hint')}</p>
      </AlertDescription>
    </Alert>
  );
}

/**
 * The saved entry as the server recorded it: driver details by the spec's precedence from the
 * saved documents, and the server's checks (an expired document in red).
 */
function EntryDecidedPanel({
  state,
  entry,
  canPinOverride,
  onOverridden,
}: {
  state: RealGateState;
  entry: EntryLog;
  canPinOverride: boolean;
  onOverridden: (entry: EntryLog) => void;
}) {
  const { t } = useTranslation('realGate');
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
          {entry.entryGranted ? t('decided.granted') : t('decided.refused')}
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
            <dt className="text-muted-foreground">{t('decided.plateNumber')}</dt>
            <dd className="font-mono text-lg font-semibold">
              {state.data.plate ? formatPlate(state.data.plate.plateNumber) : '-'}
            </dd>
          </div>
          <div>
            <dt className="text-muted-foreground">{t('decided.driver')}</dt>
            <dd className="font-semibold">{name || '-'}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">{t('decided.idNumber')}</dt>
            <dd className="font-semibold">{driver.driverIdNumber ?? '-'}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">{t('decided.preRegistration')}</dt>
            <dd className="font-semibold">
              {entry.vehicleApproved
                ? t('summary.vehicleApproved')
                : t('summary.vehicleNotPreRegistered')}
            </dd>
          </div>
          {(entry.trailerPlates?.length ?? 0) > 0 && (
            <div>
              <dt className="text-muted-foreground">{t('decided.trailers')}</dt>
              <dd className="font-mono font-semibold" data-testid="entry-trailers">
                {entry.trailerPlates?.map((plate) => formatPlate(plate)).join(', ')}
              </dd>
            </div>
          )}
        </dl>
        <EntryWarningsPanel warnings={entry.warnings} />
        <OverrideNote entry={entry} />
        {/* Issue 21: a refusal by the server's rules, overridden with a supervisor's one-time PIN. */}
        {canPinOverride &&
          !entry.entryGranted &&
          entry.refusalReason !== null &&
          RULES_REFUSALS.has(entry.refusalReason) && (
            <PinOverrideButton
              entryId={entry.id}
              plateNumber={entry.plateNumber}
              onOverridden={onOverridden}
            />
          )}
        <Button size="lg" onClick={() => window.location.reload()}>
          <RotateCcwIcon aria-hidden />
          {t('decided.next')}
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
  (reason ? REFUSAL_REASON_LABELS[reason] : undefined) ??
  i18next.t('realGate:decided.refusedFallback');

/** Issue 21: refusals by the server's rules, which a supervisor (or the supervisor's PIN) may override. */
const RULES_REFUSALS = new Set<string>(['watchlist', 'document_rule', 'rig_mismatch']);

/**
 * Spec §2/§4 Real Gate Entry: the nine-step checklist, then the Entry Granted panel.
 * `canPinOverride`: the user's role may override a rules refusal with a supervisor's PIN
 * (`pinOverrideEntries`, as the server's route allows it).
 */
export function RealGate({ canPinOverride = false }: { canPinOverride?: boolean } = {}) {
  const { t } = useTranslation('realGate');
  const [state, dispatch] = useRealGateMachine();
  const [cameraStep, setCameraStep] = useState<StepId | null>(null);
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  /** The photo of a plate the camera could not read, and any text it found on it. */
  const [unreadPlate, setUnreadPlate] = useState<{
    image: string;
    readText: string | null;
    captureId: string | null;
  } | null>(null);
  const [isTypingPlate, setIsTypingPlate] = useState(false);
  /** Issue 15: the capture of a step's unread photo, cited by the values typed for it. */
  const [failedCapture, setFailedCapture] = useState<{ step: StepId; captureId: string | null }>();
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
  // Issue 19: the verdict buzzes and beeps where the device allows.
  useDecisionFeedback(savedEntry ? (savedEntry.entryGranted ? 'approved' : 'refused') : null);
  const warnings = entryWarnings(state.data, new Date(), t);
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
      ...manualCorrections(state.data),
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
              title: t('toast.entryRefused'),
              description: t('toast.refusedLogged', { reason: refusalLabel(entry.refusalReason) }),
            });
            return;
          }
          dispatch({ type: 'STEP_SUCCEEDED', step: 'complete' });
          toast({
            title: t('toast.entryGranted'),
            description: state.data.plate
              ? t('toast.mayEnter', { plate: formatPlate(state.data.plate.plateNumber) })
              : t('toast.entryLogged'),
            duration: ENTRY_GRANTED_TOAST_MS,
          });
        },
        onError: (error) => {
          if (isNetworkError(error)) {
            void queueOffline(entryBody());
            return;
          }
          dispatch({ type: 'STEP_FAILED', step: 'complete', error: t('toast.failedToSave') });
          toast({
            variant: 'destructive',
            title: t('toast.errorSaving'),
            description: getErrorMessage(error, t('toast.failedToSave')),
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
      dispatch({ type: 'STEP_FAILED', step: 'complete', error: t('toast.failedToSave') });
      toast({
        variant: 'destructive',
        title: t('toast.errorSaving'),
        description: getErrorMessage(error, t('toast.failedToSave')),
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
            title: t('toast.entryRefused'),
            description: t('toast.refusalLogged'),
          });
        },
        onError: (error) => {
          dispatch({ type: 'STEP_FAILED', step: 'complete', error: t('toast.failedToSave') });
          toast({
            variant: 'destructive',
            title: t('toast.errorSaving'),
            description: getErrorMessage(error, t('toast.failedToSave')),
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
            onClick={handleGrant}
            disabled={!canGrantEntry(state) || isDriverPending}
          >
            {isBusy ? <Spinner /> : <ShieldCheckIcon aria-hidden />}
            {status === 'failed' ? t('actions.retryGrant') : t('actions.grant')}
          </Button>
          <Button
            size="lg"
            variant="outline"
            onClick={handleRefuse}
            disabled={!canGrantEntry(state)}
          >
            <ShieldXIcon aria-hidden />
            {t('actions.refuse')}
          </Button>
        </div>
      );
    }
    if (id === 'permits') {
      const count = state.data.permits.length;
      return (
        <div className="flex flex-wrap items-center gap-2">
          {count > 0 && (
            <ul className="flex w-full flex-wrap gap-2" aria-label={t('actions.capturedPermits')}>
              {state.data.permits.map((image, index) => (
                <li key={index} className="relative">
                  <img
                    src={image}
                    alt={t('summary.permit', { number: index + 1 })}
                    className="size-16 rounded-md border object-cover"
                  />
                  <button
                    type="button"
                    aria-label={t('actions.removePermit', { number: index + 1 })}
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
            {count > 0 ? t('actions.addAnotherPermit') : t('actions.capturePermit')}
          </Button>
          {count > 0 && (
            <Button onClick={() => dispatch({ type: 'PERMITS_CONFIRMED' })}>
              {t('actions.continuePermits', { count })}
            </Button>
          )}
        </div>
      );
    }
    if (id === 'plate' && status === 'failed' && isTypingPlate) return plateForm;
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
          onOverridden={setSavedEntry}
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
