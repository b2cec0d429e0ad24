import { ScanLineIcon } from 'lucide-react';
import { lazy, Suspense, useReducer, useRef } from 'react';

import type { PlateLookup } from '@boomgate/contracts/approved-vehicles';
import type { GateOpenOutcome } from '@boomgate/contracts/barriers';
import type { ClientRefusalReason } from '@boomgate/contracts/entry-checks';
import type { EntryLog } from '@boomgate/contracts/entry-logs';
import type { FaceComparisonResponse } from '@boomgate/contracts/faces';
import type { OcrResponse } from '@boomgate/contracts/ocr';

import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { useIsMobile } from '@/hooks/use-is-mobile';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage, isHttpError } from '@/lib/api-client';
import { useGrantEntry } from '@/lib/api/grant-entry';
import { imageOrCapture } from '@/lib/api/captures';
import { plateFromOcr, readDocument } from '@/lib/api/ocr';
import { cn } from '@/lib/cn';
import { isNetworkError, reportUnreachable, useOfflineStatus } from '@/lib/offline/offline-sync';

import { compareFaces, lookupPlate } from '../api/auto-gate';
import { rulesRefusal } from './rules-refusal';

import {
  autoGateReducer,
  canCorrectPlate,
  initialAutoGateState,
  isAwaitingPlate,
  isFaceMatch,
  AUTO_GATE_STATUS,
} from './auto-gate-machine';
import {
  ApprovedPanel,
  formatLiveness,
  NotRegisteredPanel,
  ProgressPanel,
  StepExplainer,
} from './auto-gate-panels';
import { OfflineAutoGate } from './offline-auto-gate';
import { PlateCheckPanel } from './plate-check-panel';

// The camera's code loads after the screen has rendered: it is not needed to show the screen.
const CameraCaptureDialog = lazy(() =>
  import('@/components/camera/camera-capture-dialog').then((m) => ({
    default: m.CameraCaptureDialog,
  })),
);

const TITLE = 'Automated Gate Entry';
const SUBTITLE = 'NPR and biometric verification system for contracted vehicles';

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

/**
 * Spec §2/§4 Automated Gate Entry: plate → registration → face → entry, as the state machine in
 * auto-gate-machine.ts. Each async step checks that its attempt is still the current one.
 */
export function AutoGate({
  canPinOverride = false,
}: {
  /**
   * Issue 21: the user's role may override a refusal with a supervisor's PIN (the
   * `pinOverrideEntries` action, as the server's route allows it); a super_admin may not.
   */
  canPinOverride?: boolean;
} = {}) {
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
      const logged = {
        type: 'REFUSAL_LOGGED',
        refusalReason: stored.refusalReason,
        warnings: stored.warnings,
      } as const;
      if (isCurrent(attemptId)) dispatch(logged);
      // Issue 21: a watched plate is refused by the server's rules, never offered pre-registration.
      return { rules: rulesRefusal(stored), logged };
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
    const refused = (await logRefusal(attemptId, refusal))?.rules;
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
      // Logged before the panel existed: its warnings (a watchlist alert, issue 21) go on it now.
      if (refused) dispatch(refused.logged);
      if (refused?.rules) dispatch({ type: 'RULES_REFUSED', ...refused.rules });
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
          canPinOverride={canPinOverride}
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
