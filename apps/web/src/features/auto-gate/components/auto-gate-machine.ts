import type { GateOpenResult } from '@boomgate/contracts/barriers';
import type { PlateLookup } from '@boomgate/contracts/approved-vehicles';
import type { EntryWarning, RefusalReason } from '@boomgate/contracts/entry-checks';
import { isFaceMatch } from '@boomgate/contracts/faces';

/** Spec §4 Automated gate flow: the six states. */
export type AutoGatePhase =
  | 'idle'
  | 'scanning_plate'
  | 'verifying_vehicle'
  | 'verifying_face'
  | 'approved'
  | 'not_registered';

/** Spec §4 status texts. */
export const AUTO_GATE_STATUS = {
  readingPlate: 'Reading plate number...',
  checkingRegistration: 'Checking registration...',
  verifyDriver: 'Verify driver identity',
  comparingFaces: 'Comparing faces...',
  approvingEntry: 'Approving entry...',
  approved: 'Entry approved - gate opening',
  notRegistered: 'Vehicle not pre-registered',
  expired: 'Vehicle registration expired',
  faceMismatch: 'Face verification failed - manual check required',
  faceError: 'Face verification error',
} as const;

/** Issue 15 (not in the spec): the plate waits for the guard before the lookup. */
export const PLATE_CHECK_STATUS = {
  /** The read failed: the guard types the plate ("Enter manually"). */
  unread: 'Cannot Read Plate',
  /** The read is uncertain: the guard confirms or corrects it. */
  confirm: 'Confirm the plate',
} as const;

/**
 * The not-registered panel's status for the server's refusal reason: the spec's own wording for
 * the reasons its screen knew; other reasons (rules added later) ask for a manual check.
 */
export const REFUSAL_STATUS: Partial<Record<RefusalReason, string>> = {
  not_registered: AUTO_GATE_STATUS.notRegistered,
  registration_expired: AUTO_GATE_STATUS.expired,
  face_mismatch: AUTO_GATE_STATUS.faceMismatch,
  face_error: AUTO_GATE_STATUS.faceError,
};
/** Not in the spec: a refusal by a reason its screen did not know. */
export const REFUSED_STATUS = 'Entry refused - manual check required';

/**
 * Not in the spec (separation of duties came later): a security guard's registration that back
 * office or an admin has not confirmed yet. Said as it is rather than as "expired".
 */
export const PENDING_APPROVAL_STATUS = 'Vehicle registration pending approval';

export type AutoGateCamera = 'plate' | 'face' | null;

/** Issue 15: what the camera read of the plate (null plateNumber: nothing was read). */
export type PlateReadState = {
  plateNumber: string | null;
  /** 0–1, when the reading gave one. */
  confidence: number | null;
  /** The reading lists the plate as uncertain: the guard must confirm or correct it. */
  isUncertain: boolean;
};

export type AutoGateState = {
  phase: AutoGatePhase;
  status: string | null;
  /** The camera overlay that is open, if any. */
  camera: AutoGateCamera;
  /** One vehicle's attempt; also the Idempotency-Key of its entry. */
  attemptId: string | null;
  plateImage: string | null;
  /** The plate the server is asked about: the read one, or the one the guard typed. */
  plateNumber: string | null;
  /** Issue 15: what the camera read, kept beside what the guard typed. */
  plateRead: PlateReadState | null;
  /**
   * Issue 15: the plate as the guard typed, confirmed or corrected it (sent as the entry's
   * `plate.plateNumber` correction); null when the read plate was taken as it was.
   */
  plateTyped: string | null;
  vehicle: PlateLookup | null;
  faceImage: string | null;
  matchScore: number | null;
  /** The live photo's anti-spoofing score, 0–1, when the server measured it. */
  liveness: number | null;
  /** The organization gates on anti-spoofing and this capture scored below its threshold. */
  spoofSuspected: boolean;
  /** The server's audited comparison, cited when the entry is logged. */
  faceComparisonId: string | null;
  faceVerified: boolean;
  /** The server's warnings about the stored entry (issue 14). */
  warnings: EntryWarning[];
  /**
   * Issue 21: the server refused the entry by its own rules (watchlist, document rules): the
   * panel shows why and never offers to pre-register the vehicle.
   */
  refusedByRules: boolean;
  /** The rule's message, when the guard may see it (a covert watchlist hit has none). */
  refusalDetail: string | null;
  /** The refused entry as stored, which a guard may override with a supervisor's PIN. */
  refusedEntryId: string | null;
  /** What the gate's barrier did once the entry was logged (issue 17); null: no barrier. */
  barrier: GateOpenResult | null;
};

/** The entry as the server stored it (grant-entry's answer). */
export type StoredEntry = {
  entryGranted?: boolean;
  refusalReason?: RefusalReason | null;
  faceVerified?: boolean;
  matchScore?: number | null;
  warnings?: EntryWarning[];
  barrier?: GateOpenResult | null;
};

export type AutoGateEvent =
  | { type: 'START'; attemptId: string }
  | { type: 'CAMERA_CLOSED' }
  | { type: 'PLATE_CAPTURED'; image: string }
  | { type: 'PLATE_READ'; plateNumber: string; confidence?: number | null; isUncertain?: boolean }
  | { type: 'PLATE_UNREADABLE' }
  /** Issue 15: the guard typed (read failed) or confirmed/corrected (uncertain read) the plate. */
  | { type: 'PLATE_ENTERED'; plateNumber: string; typed: string }
  /**
   * Issue 15: on a refusal panel, the guard corrects a misread plate: a new attempt (the refusal
   * stays logged) on the same plate photo, checked again by the server.
   */
  | { type: 'PLATE_CORRECTED'; attemptId: string; plateNumber: string; typed: string }
  | { type: 'SCAN_FAILED' }
  | { type: 'VEHICLE_FOUND'; vehicle: PlateLookup }
  | { type: 'VEHICLE_NOT_FOUND' }
  | { type: 'FACE_CAPTURED'; image: string }
  | {
      type: 'FACE_COMPARED';
      matchScore: number;
      liveness?: number | null;
      spoofSuspected?: boolean;
      comparisonId?: string | null;
    }
  | { type: 'FACE_COMPARISON_FAILED' }
  /**
   * Issue 15: after a face failure or error for a registered vehicle, a new face capture for the
   * same vehicle, as a new attempt (its refusal is already logged); the plate is not scanned again.
   */
  | { type: 'FACE_RETAKE'; attemptId: string }
  /**
   * The entry as the server stored it: its decision and face verdict are the ones the panels
   * show (the server may refuse what the screen would have granted).
   */
  | ({ type: 'ENTRY_LOGGED' } & StoredEntry)
  /** The refusal as the server stored it (its reason may differ from the screen's). */
  | ({ type: 'REFUSAL_LOGGED' } & StoredEntry)
  | { type: 'ENTRY_LOGGING_FAILED' }
  /** Issue 21: the entry as stored was refused by the server's rules (after a grant or refusal). */
  | { type: 'RULES_REFUSED'; status: string; detail: string | null; entryId?: string }
  /** Issue 21: a guard overrode the rules' refusal with a supervisor's PIN: the entry is granted. */
  | { type: 'PIN_OVERRIDDEN' }
  | { type: 'RESET' };

/** Issue 21 (not in the spec): a guard's override with a supervisor's PIN granted the entry. */
export const PIN_OVERRIDE_STATUS = 'Entry approved - supervisor override';

export const initialAutoGateState: AutoGateState = {
  phase: 'idle',
  status: null,
  camera: null,
  attemptId: null,
  plateImage: null,
  plateNumber: null,
  plateRead: null,
  plateTyped: null,
  vehicle: null,
  faceImage: null,
  matchScore: null,
  liveness: null,
  spoofSuspected: false,
  faceComparisonId: null,
  faceVerified: false,
  warnings: [],
  refusedByRules: false,
  refusalDetail: null,
  refusedEntryId: null,
  barrier: null,
};

/** The threshold and its comparison are defined once, in contracts (the server uses the same). */
export { isFaceMatch };

/** Whether the entry is being logged right now (the last step before `approved`). */
export function isApprovingEntry(state: AutoGateState): boolean {
  return state.status === AUTO_GATE_STATUS.approvingEntry;
}

/**
 * Spec §4 Automated gate flow as a pure transition function. An event that does not apply to the
 * current state leaves it unchanged, so a late answer from an abandoned attempt changes nothing.
 */
export function autoGateReducer(state: AutoGateState, event: AutoGateEvent): AutoGateState {
  switch (event.type) {
    case 'START':
      if (state.phase !== 'idle') return state;
      return {
        ...initialAutoGateState,
        phase: 'scanning_plate',
        camera: 'plate',
        attemptId: event.attemptId,
      };

    case 'CAMERA_CLOSED':
      // Closing the camera (plate or face) returns to idle.
      if (state.camera === null) return state;
      return initialAutoGateState;

    case 'PLATE_CAPTURED':
      if (state.phase !== 'scanning_plate') return state;
      return {
        ...state,
        phase: 'verifying_vehicle',
        status: AUTO_GATE_STATUS.readingPlate,
        camera: null,
        plateImage: event.image,
      };

    case 'PLATE_READ':
      if (state.phase !== 'verifying_vehicle' || state.status !== AUTO_GATE_STATUS.readingPlate) {
        return state;
      }
      {
        const plateRead = {
          plateNumber: event.plateNumber,
          confidence: event.confidence ?? null,
          isUncertain: event.isUncertain ?? false,
        };
        // Never silently wrong: an uncertain read waits for the guard before the lookup.
        return {
          ...state,
          status: plateRead.isUncertain
            ? PLATE_CHECK_STATUS.confirm
            : AUTO_GATE_STATUS.checkingRegistration,
          plateNumber: event.plateNumber,
          plateRead,
        };
      }

    case 'PLATE_UNREADABLE':
      if (state.phase !== 'verifying_vehicle' || state.status !== AUTO_GATE_STATUS.readingPlate) {
        return state;
      }
      // Issue 15: "Enter manually": the photo stays, the guard types what it shows.
      return {
        ...state,
        status: PLATE_CHECK_STATUS.unread,
        plateRead: { plateNumber: null, confidence: null, isUncertain: false },
      };

    case 'PLATE_ENTERED':
      if (!isAwaitingPlate(state)) return state;
      return {
        ...state,
        status: AUTO_GATE_STATUS.checkingRegistration,
        plateNumber: event.plateNumber,
        plateTyped: event.typed,
      };

    case 'PLATE_CORRECTED':
      if (!canCorrectPlate(state)) return state;
      return {
        ...initialAutoGateState,
        phase: 'verifying_vehicle',
        status: AUTO_GATE_STATUS.checkingRegistration,
        attemptId: event.attemptId,
        plateImage: state.plateImage,
        plateRead: state.plateRead,
        plateNumber: event.plateNumber,
        plateTyped: event.typed,
      };

    case 'SCAN_FAILED':
      if (state.phase !== 'verifying_vehicle' || state.status !== AUTO_GATE_STATUS.readingPlate) {
        return state;
      }
      return initialAutoGateState;

    case 'VEHICLE_NOT_FOUND':
      if (!isCheckingRegistration(state)) return state;
      return { ...state, phase: 'not_registered', status: AUTO_GATE_STATUS.notRegistered };

    case 'VEHICLE_FOUND': {
      if (!isCheckingRegistration(state)) return state;
      const { vehicle } = event;
      if (!vehicle.isActive) {
        const status = vehicle.pendingApproval ? PENDING_APPROVAL_STATUS : AUTO_GATE_STATUS.expired;
        return { ...state, phase: 'not_registered', status, vehicle };
      }
      if (!vehicle.driverPhoto) {
        // No reference photo: the entry is granted directly, without face verification.
        return { ...state, status: AUTO_GATE_STATUS.approvingEntry, vehicle, faceVerified: false };
      }
      return {
        ...state,
        phase: 'verifying_face',
        status: AUTO_GATE_STATUS.verifyDriver,
        camera: 'face',
        vehicle,
      };
    }

    case 'FACE_CAPTURED':
      if (state.phase !== 'verifying_face' || state.camera !== 'face') return state;
      return {
        ...state,
        status: AUTO_GATE_STATUS.comparingFaces,
        camera: null,
        faceImage: event.image,
      };

    case 'FACE_COMPARED':
      if (state.phase !== 'verifying_face' || state.status !== AUTO_GATE_STATUS.comparingFaces) {
        return state;
      }
      {
        const compared = {
          ...state,
          matchScore: event.matchScore,
          liveness: event.liveness ?? null,
          spoofSuspected: event.spoofSuspected ?? false,
          faceComparisonId: event.comparisonId ?? null,
        };
        // A suspected spoof is a failed verification whatever the match score.
        return isFaceMatch(event.matchScore) && !compared.spoofSuspected
          ? { ...compared, status: AUTO_GATE_STATUS.approvingEntry, faceVerified: true }
          : { ...compared, phase: 'not_registered', status: AUTO_GATE_STATUS.faceMismatch };
      }

    case 'FACE_COMPARISON_FAILED':
      if (state.phase !== 'verifying_face' || state.status !== AUTO_GATE_STATUS.comparingFaces) {
        return state;
      }
      return { ...state, phase: 'not_registered', status: AUTO_GATE_STATUS.faceError };

    case 'FACE_RETAKE':
      if (!canRetakeFace(state) || !state.vehicle) return state;
      return {
        ...state,
        phase: 'verifying_face',
        status: AUTO_GATE_STATUS.verifyDriver,
        camera: 'face',
        attemptId: event.attemptId,
        faceImage: null,
        matchScore: null,
        liveness: null,
        spoofSuspected: false,
        faceComparisonId: null,
        faceVerified: false,
        warnings: [],
        refusedByRules: false,
        refusalDetail: null,
        barrier: null,
      };

    case 'ENTRY_LOGGED': {
      if (!isApprovingEntry(state)) return state;
      const stored = {
        ...state,
        faceVerified: event.faceVerified ?? state.faceVerified,
        matchScore: event.matchScore !== undefined ? event.matchScore : state.matchScore,
        warnings: event.warnings ?? [],
        barrier: event.barrier ?? null,
      };
      if (event.entryGranted === false)
        return { ...stored, phase: 'not_registered', status: refusalStatus(event.refusalReason) };
      return { ...stored, phase: 'approved', status: AUTO_GATE_STATUS.approved };
    }

    case 'REFUSAL_LOGGED': {
      if (state.phase !== 'not_registered') return state;
      // The server's reason when the screen has wording for it; else the screen's stays.
      const serverStatus = event.refusalReason ? REFUSAL_STATUS[event.refusalReason] : undefined;
      return {
        ...state,
        status: serverStatus ?? state.status,
        warnings: event.warnings ?? [],
      };
    }

    case 'ENTRY_LOGGING_FAILED':
      // Nothing was logged, so the gate stays shut: start again from idle.
      if (!isApprovingEntry(state)) return state;
      return initialAutoGateState;

    case 'RULES_REFUSED':
      // The server's refusal outranks the screen's own verdict, granted or refused.
      if (!isApprovingEntry(state) && state.phase !== 'not_registered') return state;
      return {
        ...state,
        phase: 'not_registered',
        status: event.status,
        refusedByRules: true,
        refusalDetail: event.detail,
        refusedEntryId: event.entryId ?? null,
      };

    case 'PIN_OVERRIDDEN':
      if (!state.refusedByRules || state.phase !== 'not_registered') return state;
      return {
        ...state,
        phase: 'approved',
        // Not "gate opening": the override grants the entry; the barrier is not opened by it.
        status: PIN_OVERRIDE_STATUS,
        refusedByRules: false,
        refusalDetail: null,
        refusedEntryId: null,
      };

    case 'RESET':
      return initialAutoGateState;
  }
}

function refusalStatus(reason: RefusalReason | null | undefined): string {
  return (reason ? REFUSAL_STATUS[reason] : undefined) ?? REFUSED_STATUS;
}

/** A failed or erroring face check of a registered, active vehicle with a photo can be retaken. */
export function canRetakeFace(state: AutoGateState): boolean {
  return (
    state.phase === 'not_registered' &&
    (state.status === AUTO_GATE_STATUS.faceMismatch ||
      state.status === AUTO_GATE_STATUS.faceError) &&
    state.vehicle !== null &&
    state.vehicle.isActive &&
    Boolean(state.vehicle.driverPhoto)
  );
}

/** Issue 15: the read failed or is uncertain, and the guard has not typed or confirmed it yet. */
export function isAwaitingPlate(state: AutoGateState): boolean {
  return (
    state.phase === 'verifying_vehicle' &&
    (state.status === PLATE_CHECK_STATUS.unread || state.status === PLATE_CHECK_STATUS.confirm)
  );
}

/**
 * Issue 15: a refusal of the plate's photo may be corrected (a misread plate), except when the
 * server's rules refused it: a watched plate is not typed away.
 */
export function canCorrectPlate(state: AutoGateState): boolean {
  return state.phase === 'not_registered' && !state.refusedByRules && state.plateImage !== null;
}

function isCheckingRegistration(state: AutoGateState) {
  return (
    state.phase === 'verifying_vehicle' && state.status === AUTO_GATE_STATUS.checkingRegistration
  );
}
