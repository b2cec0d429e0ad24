import { useReducer, useRef } from 'react';

import type { PlateLookup } from '@boomgate/contracts/approved-vehicles';
import type { GateOpenOutcome } from '@boomgate/contracts/barriers';
import type { ClientRefusalReason } from '@boomgate/contracts/entry-checks';
import type { EntryLog } from '@boomgate/contracts/entry-logs';
import type { FaceComparisonResponse } from '@boomgate/contracts/faces';
import type { OcrResponse } from '@boomgate/contracts/ocr';

import { toast } from '@/hooks/use-toast';
import { getErrorMessage, isHttpError } from '@/lib/api-client';
import { useGrantEntry } from '@/lib/api/grant-entry';
import { imageOrCapture } from '@/lib/api/captures';
import { plateFromOcr, readDocument } from '@/lib/api/ocr';
import { useTranslation } from '@/lib/i18n';
import { isNetworkError, reportUnreachable } from '@/lib/offline/offline-sync';

import { compareFaces, lookupPlate } from '../api/auto-gate';

import {
  autoGateReducer,
  canCorrectPlate,
  initialAutoGateState,
  isAwaitingPlate,
  isFaceMatch,
} from './auto-gate-machine';
import { formatLiveness, statusText } from './auto-gate-texts';
import { rulesRefusal } from './rules-refusal';

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
 * auto-gate-machine.ts, with the server calls of each step. Each async step checks that its
 * attempt is still the current one. The screen (auto-gate.tsx) renders what this returns.
 */
export function useAutoGateFlow() {
  const { t } = useTranslation('autoGate');
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
        title: t('toasts.loggingFailed'),
        description: getErrorMessage(error, t('toasts.couldNotLog')),
      });
      dispatch({ type: 'ENTRY_LOGGING_FAILED' });
      return;
    }
    if (!isCurrent(attemptId)) return;
    // Issue 21: the server's rules (watchlist) may refuse what the screen would grant.
    const refused = rulesRefusal(stored);
    if (refused) {
      dispatch({ type: 'RULES_REFUSED', ...refused });
      toast({
        variant: 'destructive',
        title: t('toasts.refused'),
        description: statusText(t, refused.status),
      });
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
        title: t('toasts.refused'),
        description: t('toasts.serverRefused'),
      });
    } else if (stored.faceVerified) {
      toast({
        title: t('toasts.approved'),
        description: t('toasts.welcome', { name: entry.vehicle.driverName }),
      });
    } else if (entry.faceImage === null) {
      toast({ title: t('toasts.noReferencePhoto'), description: t('toasts.noDriverPhoto') });
    } else {
      toast({
        variant: 'destructive',
        title: t('toasts.faceFailed'),
        description: t('toasts.serverFaceNotVerified'),
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
        title: t('toasts.loggingFailed'),
        description: getErrorMessage(error, t('toasts.couldNotLog')),
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
          title: t('toasts.scanFailed'),
          description: getErrorMessage(error, t('toasts.tryAgain')),
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
        title: t('toasts.verificationFailed'),
        description: getErrorMessage(error, t('toasts.comparisonError')),
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
        title: t('toasts.faceFailed'),
        description: spoofSuspected
          ? t('toasts.possibleSpoof', { liveness: formatLiveness(t, liveness) })
          : t('toasts.matchScoreManual', { score: Math.round(matchScore) }),
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

  return {
    state,
    dispatch,
    start,
    reset,
    retakeFace,
    enterPlate,
    correctPlate,
    closeCamera,
    handlePlateCaptured,
    handleFaceCaptured,
  };
}
