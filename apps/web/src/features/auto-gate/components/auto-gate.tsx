import {
  CheckCircle2Icon,
  CircleAlertIcon,
  type LucideIcon,
  RotateCcwIcon,
  ScanFaceIcon,
  ScanLineIcon,
  ShieldCheckIcon,
  UserPlusIcon,
} from 'lucide-react';
import { lazy, Suspense, useReducer, useRef } from 'react';
import { Link } from 'wouter';

import type { PlateLookup } from '@boomgate/contracts/approved-vehicles';
import type { GateOpenOutcome, GateOpenResult } from '@boomgate/contracts/barriers';
import type { ClientRefusalReason } from '@boomgate/contracts/entry-checks';
import type { EntryLog } from '@boomgate/contracts/entry-logs';
import type { FaceComparisonResponse } from '@boomgate/contracts/faces';
import type { OcrResponse } from '@boomgate/contracts/ocr';

import { EntryWarningsPanel } from '@/components/entry-warnings';
import { InductionValidityNotice } from '@/components/induction-validity-notice';
import { PinOverrideButton } from '@/components/entry-override';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useIsMobile } from '@/hooks/use-is-mobile';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage, isHttpError } from '@/lib/api-client';
import { useGrantEntry } from '@/lib/api/grant-entry';
import { imageOrCapture } from '@/lib/api/captures';
import { plateFromOcr, readDocument } from '@/lib/api/ocr';
import { cn } from '@/lib/cn';
import { useTranslation } from '@/lib/i18n';
import { isNetworkError, reportUnreachable, useOfflineStatus } from '@/lib/offline/offline-sync';
import { formatPlate } from '@/lib/plates';

import { compareFaces, lookupPlate } from '../api/auto-gate';
import { rulesRefusal } from './rules-refusal';

import {
  AUTO_GATE_STATUS,
  PIN_OVERRIDE_STATUS,
  type AutoGatePhase,
  type AutoGateState,
  autoGateReducer,
  canCorrectPlate,
  canRetakeFace,
  initialAutoGateState,
  isAwaitingPlate,
  isFaceMatch,
} from './auto-gate-machine';
import { OfflineAutoGate } from './offline-auto-gate';
import { CorrectPlateAction, PlateCheckPanel } from './plate-check-panel';

// The camera's code loads after the screen has rendered: it is not needed to show the screen.
const CameraCaptureDialog = lazy(() =>
  import('@/components/camera/camera-capture-dialog').then((m) => ({
    default: m.CameraCaptureDialog,
  })),
);

const TITLE = 'Automated Gate Entry';
const SUBTITLE = 'NPR and biometric verification system for contracted vehicles';

const STEPS: { title: string; description: string; icon: LucideIcon; phases: AutoGatePhase[] }[] = [
  {
    title: 'Step 1: NPR Scan',
    description: 'Capture licence plate',
    icon: ScanLineIcon,
    phases: ['scanning_plate', 'verifying_vehicle'],
  },
  {
    title: 'Step 2: Facial Recognition',
    description: 'Verify driver identity',
    icon: ScanFaceIcon,
    phases: ['verifying_face'],
  },
  {
    title: 'Step 3: Grant Entry',
    description: 'Log and approve access',
    icon: ShieldCheckIcon,
    phases: ['approved'],
  },
];

/** One attempt's plate: its capture, what was read and what the guard typed (issue 15). */
type PlateEvidence = {
  attemptId: string;
  captureId: string | null;
  read: string | null;
  typed: string | null;
};

/**
 * Issue 15: how sure the reading is of the plate. A plate found only in the text (no typed
 * reading of it) is as unsure as one the reading lists uncertain: the guard confirms it.
 */
function plateCertainty(read: OcrResponse) {
  const field = read.reading?.type === 'plate' ? read.reading.fields.plateNumber : undefined;
  return {
    confidence: field?.confidence ?? null,
    isUncertain: !field || (read.reading?.uncertain.includes('plateNumber') ?? false),
  };
}

/** The anti-spoofing score (0–1) as the guard reads it. */
const formatLiveness = (liveness: number | null) =>
  liveness === null ? 'not measured' : `${Math.round(liveness * 100)}%`;

function StepExplainer({ phase, compact }: { phase: AutoGatePhase; compact: boolean }) {
  return (
    <ol className={cn('grid gap-3', compact ? 'grid-cols-3' : 'md:grid-cols-3')}>
      {STEPS.map((step) => {
        const isActive = step.phases.includes(phase);
        return (
          <li
            key={step.title}
            aria-current={isActive ? 'step' : undefined}
            className={cn(
              'flex gap-3 rounded-lg border p-4',
              compact && 'flex-col items-center gap-1 p-2 text-center',
              isActive && 'border-primary bg-accent',
            )}
          >
            <step.icon aria-hidden className={cn('shrink-0', compact ? 'size-5' : 'size-6')} />
            <div className="grid gap-0.5">
              <p className={cn('font-semibold', compact ? 'text-xs' : 'text-sm')}>{step.title}</p>
              <p className="text-xs text-muted-foreground">{step.description}</p>
            </div>
          </li>
        );
      })}
    </ol>
  );
}

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-4 border-b py-2 last:border-b-0">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="text-right font-semibold">{value}</dd>
    </div>
  );
}

/** The barrier's real outcome under 'Entry approved - gate opening' (issue 17). */
const BARRIER_OUTCOME: Record<GateOpenResult, string> = {
  opened: 'Gate opened',
  offline: 'Barrier offline — open by hand',
  not_opened: 'Barrier did not open — open by hand',
};

function ApprovedPanel({
  state,
  isMobile,
  onNext,
}: {
  state: AutoGateState;
  isMobile: boolean;
  onNext: () => void;
}) {
  return (
    <Card className="border-success" data-testid="approved-panel">
      <CardHeader className="items-center text-center">
        <CheckCircle2Icon aria-hidden className="size-14 text-success" />
        <CardTitle className="text-xl" role="status">
          {/* Issue 21: a PIN override grants the entry without opening the barrier. */}
          {state.status === PIN_OVERRIDE_STATUS ? PIN_OVERRIDE_STATUS : AUTO_GATE_STATUS.approved}
        </CardTitle>
        {state.barrier && (
          <p
            data-testid="barrier-outcome"
            className={state.barrier === 'opened' ? 'text-success' : 'font-medium text-destructive'}
          >
            {BARRIER_OUTCOME[state.barrier]}
          </p>
        )}
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="text-sm">
          <Detail label="Driver" value={state.vehicle?.driverName ?? '-'} />
          <Detail
            label="Plate Number"
            value={state.plateNumber ? formatPlate(state.plateNumber) : '-'}
          />
          <TypedPlateNote state={state} />
          <Detail label="Company" value={state.vehicle?.company ?? '-'} />
          <Detail
            label="Facial Match"
            value={
              state.faceVerified && state.matchScore !== null
                ? `${Math.round(state.matchScore)}%`
                : state.faceImage
                  ? 'Not verified'
                  : 'Not verified (no reference photo)'
            }
          />
          {state.liveness !== null && (
            <Detail label="Liveness" value={formatLiveness(state.liveness)} />
          )}
        </dl>
        {/* Known only for vehicles onboarded for a driver record; a warning, never a refusal. */}
        <InductionValidityNotice validity={state.vehicle?.induction} />
        <EntryWarningsPanel warnings={state.warnings} />
        <Button size="lg" className="w-full" onClick={onNext}>
          <RotateCcwIcon aria-hidden />
          {isMobile ? 'Next Vehicle' : 'Process Next Vehicle'}
        </Button>
      </CardContent>
    </Card>
  );
}

function NotRegisteredPanel({
  state,
  onScanAgain,
  onRetakeFace,
  onPinOverridden,
  onCorrectPlate,
}: {
  state: AutoGateState;
  onScanAgain: () => void;
  onRetakeFace: () => void;
  onPinOverridden: () => void;
  onCorrectPlate: (plateNumber: string) => void;
}) {
  // Issue 15: a registered vehicle whose face check failed retakes the face, not pre-registers.
  const canRetake = canRetakeFace(state);
  return (
    <Card className="border-destructive" data-testid="not-registered-panel">
      <CardHeader className="items-center text-center">
        <CircleAlertIcon aria-hidden className="size-14 text-destructive" />
        <CardTitle className="text-xl" role="status">
          {state.status}
        </CardTitle>
        {state.status === AUTO_GATE_STATUS.faceMismatch && state.matchScore !== null && (
          <CardDescription>
            Match score: {Math.round(state.matchScore)}%
            {state.liveness !== null && <> · Liveness: {formatLiveness(state.liveness)}</>}
          </CardDescription>
        )}
        {state.refusalDetail && (
          <CardDescription className="font-medium text-destructive" data-testid="refusal-detail">
            {state.refusalDetail}
          </CardDescription>
        )}
        {state.spoofSuspected && (
          <CardDescription className="font-medium text-destructive" data-testid="spoof-warning">
            Possible spoof: the face may be a photo or a screen. Check the driver in person.
          </CardDescription>
        )}
      </CardHeader>
      <CardContent className="grid gap-4">
        <InductionValidityNotice validity={state.vehicle?.induction} />
        <EntryWarningsPanel warnings={state.warnings} />
        <div className="rounded-lg bg-muted p-4 text-center">
          <p className="text-xs uppercase text-muted-foreground">Scanned plate</p>
          <p className="font-mono text-2xl font-bold" data-testid="scanned-plate">
            {state.plateNumber ? formatPlate(state.plateNumber) : 'No plate read'}
          </p>
          <TypedPlateNote state={state} />
        </div>
        <div className={cn('grid gap-2', !state.refusedByRules && 'sm:grid-cols-2')}>
          {/* Issue 21: a vehicle the rules refused (a watched plate) is never pre-registered. */}
          {canRetake ? (
            <Button size="lg" onClick={onRetakeFace}>
              <ScanFaceIcon aria-hidden />
              Retake Face
            </Button>
          ) : (
            !state.refusedByRules && (
              <Button size="lg" asChild>
                <Link href={paths.preArrival(state.plateNumber ?? undefined)}>
                  <UserPlusIcon aria-hidden />
                  Pre-Register Vehicle
                </Link>
              </Button>
            )
          )}
          {/* Issue 21: a supervisor's one-time PIN overrides the rules' refusal of this entry. */}
          {state.refusedByRules && state.refusedEntryId && (
            <PinOverrideButton
              entryId={state.refusedEntryId}
              plateNumber={state.plateNumber}
              onOverridden={onPinOverridden}
            />
          )}
          <Button size="lg" variant="outline" onClick={onScanAgain}>
            <ScanLineIcon aria-hidden />
            Scan Again
          </Button>
          {/* Issue 15: a misread plate is typed and checked again (the photo is not retaken). */}
          {canCorrectPlate(state) && (
            <CorrectPlateAction plateNumber={state.plateNumber} onCorrect={onCorrectPlate} />
          )}
        </div>
      </CardContent>
    </Card>
  );
}

/** Issue 15: a typed plate says so, with what the camera read beside it. */
function TypedPlateNote({ state }: { state: AutoGateState }) {
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

function ProgressPanel({ state }: { state: AutoGateState }) {
  const status =
    state.status ?? (state.camera === 'plate' ? 'Capture the licence plate' : 'Please wait...');
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-3 py-8 text-center">
        <div
          role="status"
          aria-live="polite"
          className="flex items-center gap-2 text-lg font-medium"
        >
          {state.camera === null && <Spinner className="size-5" />}
          <span data-testid="auto-gate-status">{status}</span>
        </div>
        {state.plateNumber && (
          <p className="font-mono text-2xl font-bold">{formatPlate(state.plateNumber)}</p>
        )}
        {state.vehicle && (
          <p className="text-sm text-muted-foreground">{state.vehicle.driverName}</p>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * Spec §2/§4 Automated Gate Entry: plate → registration → face → entry, as the state machine in
 * auto-gate-machine.ts. Each async step checks that its attempt is still the current one.
 */
export function AutoGate() {
  useDocumentTitle(TITLE);
  const isMobile = useIsMobile();
  const [state, dispatch] = useReducer(autoGateReducer, initialAutoGateState);
  const currentAttempt = useRef<string | null>(null);
  // The capture POST /api/ocr stored the plate photo as (issue 14): the entry cites it instead of
  // uploading the photo again. Kept per attempt, so a new attempt never cites an old plate; with
  // it what was read and what the guard typed (issue 15), sent as the entry's plate correction.
  const plateEvidence = useRef<PlateEvidence | null>(null);
  const plateEvidenceOf = (attemptId: string) =>
    plateEvidence.current?.attemptId === attemptId ? plateEvidence.current : null;
  const plateFields = (attemptId: string, image: string | null) => {
    const evidence = plateEvidenceOf(attemptId);
    const captureId = evidence?.captureId ?? null;
    return {
      ...imageOrCapture('plateImage', image, captureId),
      ...(evidence?.read ? { extractedPlate: evidence.read } : {}),
      ...(evidence?.typed
        ? {
            corrections: [
              {
                captureId,
                readingType: 'plate' as const,
                field: 'plateNumber',
                typedValue: evidence.typed,
              },
            ],
          }
        : {}),
    };
  };
  /** The plate's evidence moves to a new attempt (retake, correction): the photo is not retaken. */
  const carryPlateEvidence = (from: string | null, to: string, typed?: string) => {
    const evidence = from ? plateEvidenceOf(from) : null;
    plateEvidence.current = {
      attemptId: to,
      captureId: evidence?.captureId ?? null,
      read: evidence?.read ?? null,
      typed: typed ?? evidence?.typed ?? null,
    };
  };
  const grantEntry = useGrantEntry();
  const { online } = useOfflineStatus();

  const isCurrent = (attemptId: string | null) =>
    attemptId !== null && currentAttempt.current === attemptId;

  const start = () => {
    const attemptId = crypto.randomUUID();
    currentAttempt.current = attemptId;
    dispatch({ type: 'START', attemptId });
  };

  const reset = () => {
    currentAttempt.current = null;
    dispatch({ type: 'RESET' });
  };

  /** Issue 15: a new face capture for the same vehicle, as a new attempt (a new entry log). */
  const retakeFace = () => {
    const attemptId = crypto.randomUUID();
    const previous = currentAttempt.current;
    currentAttempt.current = attemptId;
    // The plate's capture stays cited by the new attempt: the plate is not scanned again.
    carryPlateEvidence(previous, attemptId);
    dispatch({ type: 'FACE_RETAKE', attemptId });
  };

  /**
   * Issue 15: the guard typed the plate (read failed) or confirmed/corrected an uncertain read:
   * the server is asked about the plate typed, and the correction goes with the entry.
   */
  const enterPlate = (plateNumber: string) => {
    const { attemptId, plateImage } = state;
    if (!attemptId || !isAwaitingPlate(state)) return;
    carryPlateEvidence(attemptId, attemptId, plateNumber);
    dispatch({ type: 'PLATE_ENTERED', plateNumber, typed: plateNumber });
    void checkRegistration(attemptId, plateNumber, plateImage);
  };

  /** Issue 15: a refused plate was misread: a new attempt on the plate the guard typed. */
  const correctPlate = (plateNumber: string) => {
    const { plateImage } = state;
    if (!canCorrectPlate(state)) return;
    const attemptId = crypto.randomUUID();
    const previous = currentAttempt.current;
    currentAttempt.current = attemptId;
    carryPlateEvidence(previous, attemptId, plateNumber);
    dispatch({ type: 'PLATE_CORRECTED', attemptId, plateNumber, typed: plateNumber });
    void checkRegistration(attemptId, plateNumber, plateImage);
  };

  const closeCamera = () => {
    currentAttempt.current = null;
    dispatch({ type: 'CAMERA_CLOSED' });
  };

  const logEntry = async (
    attemptId: string,
    entry: {
      plateNumber: string;
      plateImage: string | null;
      vehicle: PlateLookup;
      faceImage: string | null;
      faceCaptureId: string | null;
      matchScore: number | null;
      faceComparisonId: string | null;
    },
  ) => {
    const faceVerified = entry.matchScore !== null && isFaceMatch(entry.matchScore);
    let stored: EntryLog & { barrier?: GateOpenOutcome | null };
    try {
      stored = await grantEntry.mutateAsync({
        idempotencyKey: attemptId,
        body: {
          category: 'contracted',
          plateNumber: entry.plateNumber,
          ...plateFields(attemptId, entry.plateImage),
          ...imageOrCapture('driverFaceImage', entry.faceImage, entry.faceCaptureId),
          vehicleApproved: true,
          faceVerified,
          matchScore: entry.matchScore,
          ...(entry.faceComparisonId ? { faceComparisonId: entry.faceComparisonId } : {}),
          entryGranted: true,
        },
      });
    } catch (error) {
      if (!isCurrent(attemptId)) return;
      toast({
        variant: 'destructive',
        title: 'Entry Logging Failed',
        description: getErrorMessage(error, 'Could not log entry'),
      });
      dispatch({ type: 'ENTRY_LOGGING_FAILED' });
      return;
    }
    if (!isCurrent(attemptId)) return;
    // Issue 21: the server's rules (watchlist) may refuse what the screen would grant.
    const refused = rulesRefusal(stored);
    if (refused) {
      dispatch({ type: 'RULES_REFUSED', ...refused });
      toast({ variant: 'destructive', title: 'Entry Refused', description: refused.status });
      return;
    }
    // The server decides: the panels show the decision and face verdict it stored, not the
    // screen's own (it refuses what its evidence does not back).
    dispatch({
      type: 'ENTRY_LOGGED',
      entryGranted: stored.entryGranted,
      refusalReason: stored.refusalReason,
      faceVerified: stored.faceVerified,
      matchScore: stored.matchScore,
      warnings: stored.warnings,
      barrier: stored.barrier?.result ?? null,
    });
    if (!stored.entryGranted) {
      toast({
        variant: 'destructive',
        title: 'Entry Refused',
        description: 'The server refused the entry. Manual verification required.',
      });
    } else if (stored.faceVerified) {
      toast({ title: 'Entry Approved', description: `Welcome ${entry.vehicle.driverName}` });
    } else if (entry.faceImage === null) {
      toast({ title: 'No Reference Photo', description: 'No driver photo on file for comparison' });
    } else {
      toast({
        variant: 'destructive',
        title: 'Face Verification Failed',
        description: 'The server did not verify the face. Manual verification required.',
      });
    }
  };

  /**
   * Every attempt is logged (issue 14): a refusal goes to grant-entry with its reason and the
   * evidence the screen holds (the plate and face photos, the comparison), so the dashboard
   * counts it. The panel shows the refusal at once; only a failure to log it is announced.
   */
  const logRefusal = async (
    attemptId: string,
    refusal: {
      refusalReason: ClientRefusalReason;
      plateNumber: string;
      plateImage: string | null;
      faceImage?: string | null;
      faceCaptureId?: string | null;
      faceComparisonId?: string | null;
    },
  ) => {
    try {
      const stored = await grantEntry.mutateAsync({
        idempotencyKey: attemptId,
        body: {
          category: 'contracted',
          plateNumber: refusal.plateNumber,
          ...plateFields(attemptId, refusal.plateImage),
          ...imageOrCapture('driverFaceImage', refusal.faceImage ?? null, refusal.faceCaptureId),
          vehicleApproved: false,
          faceVerified: false,
          entryGranted: false,
          refusalReason: refusal.refusalReason,
          ...(refusal.faceComparisonId ? { faceComparisonId: refusal.faceComparisonId } : {}),
        },
      });
      if (isCurrent(attemptId))
        dispatch({
          type: 'REFUSAL_LOGGED',
          refusalReason: stored.refusalReason,
          warnings: stored.warnings,
        });
      // Issue 21: a watched plate is refused by the server's rules, never offered pre-registration.
      return rulesRefusal(stored);
    } catch (error) {
      if (!isCurrent(attemptId)) return null;
      toast({
        variant: 'destructive',
        title: 'Entry Logging Failed',
        description: getErrorMessage(error, 'Could not log entry'),
      });
      return null;
    }
  };

  /** A refusal logged after its panel is shown: the server's rules may still change the panel. */
  const logRefusalShown = async (attemptId: string, refusal: Parameters<typeof logRefusal>[1]) => {
    const refused = await logRefusal(attemptId, refusal);
    if (refused && isCurrent(attemptId)) dispatch({ type: 'RULES_REFUSED', ...refused });
  };

  const handlePlateCaptured = async (image: string) => {
    const { attemptId } = state;
    if (!attemptId) return;
    dispatch({ type: 'PLATE_CAPTURED', image });

    let plateNumber: string | null;
    let certainty: ReturnType<typeof plateCertainty> = { confidence: null, isUncertain: false };
    try {
      const read = await readDocument(image, 'plate');
      plateNumber = plateFromOcr(read);
      certainty = plateCertainty(read);
      plateEvidence.current = {
        attemptId,
        captureId: read.captureId,
        read: plateNumber,
        typed: null,
      };
    } catch (error) {
      if (!isCurrent(attemptId)) return;
      if (isHttpError(error, 422)) {
        plateNumber = null;
      } else {
        // No answer: the screen switches to offline verification (typed plate, cached list).
        if (isNetworkError(error)) reportUnreachable();
        toast({
          variant: 'destructive',
          title: 'Scan Failed',
          description: getErrorMessage(error, 'Please try again'),
        });
        dispatch({ type: 'SCAN_FAILED' });
        return;
      }
    }
    if (!isCurrent(attemptId)) return;
    if (!plateNumber) {
      // Issue 15: "Enter manually": the guard types the plate the photo shows (or scans again).
      dispatch({ type: 'PLATE_UNREADABLE' });
      return;
    }
    dispatch({ type: 'PLATE_READ', plateNumber, ...certainty });
    // Never silently wrong: an uncertain read waits for the guard to confirm or correct it.
    if (certainty.isUncertain) return;
    await checkRegistration(attemptId, plateNumber, image);
  };

  /** The plate (read, typed or corrected) against the register; the server decides the entry. */
  const checkRegistration = async (
    attemptId: string,
    plateNumber: string,
    image: string | null,
  ) => {
    let vehicle: PlateLookup;
    try {
      vehicle = await lookupPlate(plateNumber);
    } catch {
      // Not found (404) or the lookup failed: either way the vehicle is not cleared. The refusal
      // is logged before the panel shows: a watched plate (issue 21) must never show, even for a
      // moment, the panel that offers to pre-register it.
      if (!isCurrent(attemptId)) return;
      const refused = await logRefusal(attemptId, {
        refusalReason: 'not_registered',
        plateNumber,
        plateImage: image,
      });
      if (!isCurrent(attemptId)) return;
      dispatch({ type: 'VEHICLE_NOT_FOUND' });
      if (refused) dispatch({ type: 'RULES_REFUSED', ...refused });
      return;
    }
    if (!isCurrent(attemptId)) return;
    dispatch({ type: 'VEHICLE_FOUND', vehicle });
    if (!vehicle.isActive) {
      await logRefusalShown(attemptId, {
        refusalReason: 'registration_expired',
        plateNumber,
        plateImage: image,
      });
      return;
    }
    if (vehicle.isActive && !vehicle.driverPhoto) {
      await logEntry(attemptId, {
        plateNumber,
        plateImage: image,
        vehicle,
        faceImage: null,
        faceCaptureId: null,
        matchScore: null,
        faceComparisonId: null,
      });
    }
  };

  const handleFaceCaptured = async (image: string) => {
    const { attemptId, vehicle, plateNumber, plateImage } = state;
    if (!attemptId || !vehicle || !plateNumber) return;
    dispatch({ type: 'FACE_CAPTURED', image });

    let comparison: FaceComparisonResponse;
    try {
      comparison = await compareFaces({ image1: image, approvedVehicleId: vehicle.id });
    } catch (error) {
      if (!isCurrent(attemptId)) return;
      toast({
        variant: 'destructive',
        title: 'Verification Failed',
        description: getErrorMessage(error, 'Face comparison error'),
      });
      dispatch({ type: 'FACE_COMPARISON_FAILED' });
      await logRefusalShown(attemptId, {
        refusalReason: 'face_error',
        plateNumber,
        plateImage,
        faceImage: image,
      });
      return;
    }
    if (!isCurrent(attemptId)) return;
    // The comparison stored the face as a capture: the entry cites it, the face goes up once.
    const { matchScore, liveness = null, comparisonId = null } = comparison;
    const faceCaptureId = comparison.image1CaptureId ?? null;
    const spoofSuspected = comparison.decision === 'spoof_suspected';
    dispatch({ type: 'FACE_COMPARED', matchScore, liveness, spoofSuspected, comparisonId });
    if (spoofSuspected || !isFaceMatch(matchScore)) {
      toast({
        variant: 'destructive',
        title: 'Face Verification Failed',
        description: spoofSuspected
          ? `Possible spoof (liveness ${formatLiveness(liveness)}). Manual verification required.`
          : `Match score: ${Math.round(matchScore)}%. Manual verification required.`,
      });
      await logRefusalShown(attemptId, {
        refusalReason: 'face_mismatch',
        plateNumber,
        plateImage,
        faceImage: image,
        faceCaptureId,
        faceComparisonId: comparisonId,
      });
      return;
    }
    await logEntry(attemptId, {
      plateNumber,
      plateImage,
      vehicle,
      faceImage: image,
      faceCaptureId,
      matchScore,
      faceComparisonId: comparisonId,
    });
  };

  const { phase } = state;
  const isAwaitingGuard = isAwaitingPlate(state);
  const isBusy =
    !isAwaitingGuard &&
    (phase === 'scanning_plate' || phase === 'verifying_vehicle' || phase === 'verifying_face');

  return (
    <div className={cn('mx-auto flex w-full flex-col', isMobile ? 'gap-4' : 'max-w-4xl gap-6')}>
      {isMobile ? (
        <header className="flex flex-col gap-0.5">
          <h1 className="text-xl font-bold tracking-tight">{TITLE}</h1>
          <p className="text-xs text-muted-foreground">{SUBTITLE}</p>
        </header>
      ) : (
        <PageHeader title={TITLE} description={SUBTITLE} />
      )}

      {(phase === 'idle' || !isMobile) && <StepExplainer phase={phase} compact={isMobile} />}

      {phase === 'idle' && !online && <OfflineAutoGate />}
      {phase === 'idle' && online && (
        <Card>
          <CardContent className="flex flex-col items-center gap-4 py-6 text-center">
            {!isMobile && (
              <p className="max-w-lg text-sm text-muted-foreground">
                Scan the plate of a contracted vehicle. If the driver has a photo on file, their
                face is compared with it before the entry is logged.
              </p>
            )}
            <Button
              size="lg"
              className={cn(isMobile ? 'h-14 w-full text-base' : 'px-8')}
              onClick={start}
            >
              <ScanLineIcon aria-hidden />
              {isMobile ? 'Start Verification' : 'Start Vehicle Verification'}
            </Button>
          </CardContent>
        </Card>
      )}
      {isBusy && <ProgressPanel state={state} />}
      {isAwaitingGuard && (
        <PlateCheckPanel
          key={`${state.attemptId}-${state.status}`}
          state={state}
          onEnter={enterPlate}
          onScanAgain={reset}
        />
      )}
      {phase === 'approved' && <ApprovedPanel state={state} isMobile={isMobile} onNext={reset} />}
      {phase === 'not_registered' && (
        <NotRegisteredPanel
          state={state}
          onScanAgain={reset}
          onRetakeFace={retakeFace}
          onPinOverridden={() => dispatch({ type: 'PIN_OVERRIDDEN' })}
          onCorrectPlate={correctPlate}
        />
      )}

      <Suspense fallback={null}>
        <CameraCaptureDialog
          open={state.camera === 'plate'}
          onClose={closeCamera}
          onCapture={(image) => void handlePlateCaptured(image)}
          title="Scan Licence Plate"
          description="Fit the number plate inside the frame."
          guide="wide"
          initialFacingMode="environment"
          captureLabel="Capture plate"
        />
        <CameraCaptureDialog
          open={state.camera === 'face'}
          onClose={closeCamera}
          onCapture={(image) => void handleFaceCaptured(image)}
          title={AUTO_GATE_STATUS.verifyDriver}
          description={`Fit ${state.vehicle?.driverName ?? 'the driver'}'s face inside the oval.`}
          guide="oval"
          initialFacingMode="user"
          captureLabel="Capture face"
        />
      </Suspense>
    </div>
  );
}
