import { MAX_TRAILERS } from '@boomgate/contracts/approved-vehicles';
import type { Reading } from '@boomgate/contracts/readings';

import type { ReadingEdits } from '@/lib/corrections';

import type { Disc, Identity, Licence, Passport } from './document-readings';

/** Spec §4 Real gate entry: nine steps, in order. */
export const REAL_GATE_STEPS = [
  'plate',
  'disc',
  'face',
  'id',
  'licence',
  'passport',
  'permits',
  'ticket',
  'complete',
] as const;
export type StepId = (typeof REAL_GATE_STEPS)[number];
export type StepStatus = 'pending' | 'processing' | 'success' | 'failed';

/** Spec §4: the passport (6) and mine ticket (8) steps can be skipped. */
export const SKIPPABLE_STEPS: readonly StepId[] = ['passport', 'ticket'];
export const MAX_PERMITS = 5;

/**
 * Issue 15: the steps whose read can fail and whose key fields the guard can then type ("Enter
 * manually"). What is typed goes with the entry as corrections (no capture, or the failed one).
 */
export const MANUAL_STEPS = ['disc', 'id', 'licence', 'passport', 'ticket'] as const;
export type ManualStep = (typeof MANUAL_STEPS)[number];
export const isManualStep = (step: StepId): step is ManualStep =>
  (MANUAL_STEPS as readonly StepId[]).includes(step);

/**
 * `captureId`: the image as the server stored it when it was read (POST /api/ocr); the document
 * and the entry cite it instead of uploading the image again (issue 14). Absent when the read
 * failed before the image was stored: the image is then sent.
 */
export type Saved<T> = {
  recordId: string;
  image: string;
  captureId?: string | null;
  reading: T;
  /** The typed reading (confidence, source, uncertain fields), for the guard's corrections. */
  typed?: Reading | null;
};

export type PlateData = {
  /** The plate checked and recorded: the camera's reading, or what the guard typed. */
  plateNumber: string;
  /**
   * What the camera read, kept with the entry even when the guard corrects the plate: the plate
   * in display form, or the OCR text when no plate was found in it; null when nothing was read.
   */
  extractedPlate: string | null;
  /** The guard typed the plate (the camera could not read it, or misread it). */
  isTypedByGuard: boolean;
  /** Issue 15: the reading lists the plate uncertain: the guard confirms or corrects it. */
  isUncertain?: boolean;
  image: string;
  /** The stored capture of `image` (see Saved). */
  captureId?: string | null;
  approved: boolean;
  driverName: string | null;
  company: string | null;
  /** Issue 21: the trailers registered with the approved vehicle (its rig), for the guard. */
  rigTrailers?: string[];
};

/**
 * Issue 21: a trailer the truck-tractor pulls: its plate (read from its licence disc or typed by
 * the guard) and the disc as saved, cited with the entry so the server checks the rig.
 */
export type TrailerData = {
  plateNumber: string;
  disc: Saved<Disc> | null;
};

export type RealGateData = {
  plate: PlateData | null;
  disc: Saved<Disc> | null;
  face: { image: string; captureId?: string | null; note: string | null } | null;
  identity: Saved<Identity> | null;
  licence: Saved<Licence> | null;
  passport: Saved<Passport> | null;
  permits: string[];
  ticket: {
    recordId: string;
    ticketNumber: string;
    transporter: string | null;
    netWeight: number | null;
  } | null;
  /** Issue 21: the rig's trailers (at most MAX_TRAILERS), each with its disc when scanned. */
  trailers: TrailerData[];
  /** Issue 15: the key fields the guard typed for a step whose read failed. */
  manual?: Partial<Record<ManualStep, ReadingEdits>>;
};

export type RealGateState = {
  /** Index of the step that can be acted on; 9 once entry is granted. */
  current: number;
  statuses: Record<StepId, StepStatus>;
  errors: Partial<Record<StepId, string>>;
  skipped: StepId[];
  /**
   * A plate the guard typed to correct the recorded one is being checked. Entry is not granted
   * meanwhile: it would be saved with the plate the guard is replacing.
   */
  isCheckingPlate: boolean;
  data: RealGateData;
};

export type RealGateEvent =
  | { type: 'STEP_STARTED'; step: StepId }
  | { type: 'STEP_SUCCEEDED'; step: StepId; data?: Partial<RealGateData> }
  | { type: 'STEP_FAILED'; step: StepId; error: string }
  | { type: 'STEP_SKIPPED'; step: StepId }
  /** Issue 15: a failed step completed with the key fields the guard typed. */
  | { type: 'STEP_ENTERED_MANUALLY'; step: ManualStep; edits: ReadingEdits }
  | { type: 'PERMIT_ADDED'; image: string }
  | { type: 'PERMIT_REMOVED'; index: number }
  | { type: 'PERMITS_CONFIRMED' }
  /** The guard typed a correction of a misread plate; the vehicle is being checked again. */
  | { type: 'PLATE_CHECK_STARTED' }
  /** The guard corrected a plate the camera misread; the vehicle was checked again. */
  | { type: 'PLATE_CORRECTED'; plate: PlateData }
  /** The correction's check ended without a plate to record (it failed, or was refused). */
  | { type: 'PLATE_CHECK_ENDED' }
  /** Issue 21: a trailer of the rig, with its licence disc when the guard scanned it. */
  | { type: 'TRAILER_ADDED'; trailer: TrailerData }
  | { type: 'TRAILER_REMOVED'; index: number };

export const initialRealGateState: RealGateState = {
  current: 0,
  statuses: Object.fromEntries(REAL_GATE_STEPS.map((step) => [step, 'pending'])) as Record<
    StepId,
    StepStatus
  >,
  errors: {},
  skipped: [],
  isCheckingPlate: false,
  data: {
    plate: null,
    disc: null,
    face: null,
    identity: null,
    licence: null,
    passport: null,
    permits: [],
    ticket: null,
    trailers: [],
  },
};

export function currentStep(state: RealGateState): StepId | null {
  return REAL_GATE_STEPS[state.current] ?? null;
}

export function isEntryGranted(state: RealGateState): boolean {
  return state.statuses.complete === 'success';
}

/**
 * Skip is offered on the passport and mine-ticket steps, and on a licence disc that could not be
 * read (spec §8: "Could not extract disc data; retry or skip").
 */
export function canSkip(state: RealGateState, step: StepId): boolean {
  if (currentStep(state) !== step || state.statuses[step] === 'processing') return false;
  return SKIPPABLE_STEPS.includes(step) || (step === 'disc' && state.statuses.disc === 'failed');
}

/**
 * A misread plate is often noticed later (the licence disc names another plate), so a plate that
 * was read can be corrected until entry is granted. The plate step stays complete and the
 * current step stays where it is: this changes what is recorded, it is not a step being re-run.
 * (An unread plate is typed while the plate step is current and failed, as the step's success.)
 */
export function canCorrectPlate(state: RealGateState): boolean {
  return (
    state.statuses.plate === 'success' &&
    state.data.plate !== null &&
    state.statuses.complete !== 'processing' &&
    !isEntryGranted(state)
  );
}

/**
 * Issue 21: trailers are captured once the plate is recorded and until the entry is saved (a
 * trailer is often walked to after the cab's documents), never while the entry is being saved.
 */
export function canEditTrailers(state: RealGateState): boolean {
  return (
    state.statuses.plate === 'success' &&
    state.statuses.complete !== 'processing' &&
    !isEntryGranted(state)
  );
}

/** Another trailer may be added: at most MAX_TRAILERS, each plate once. */
export function canAddTrailer(state: RealGateState, plateNumber?: string): boolean {
  return (
    canEditTrailers(state) &&
    state.data.trailers.length < MAX_TRAILERS &&
    (plateNumber === undefined ||
      (plateNumber !== state.data.plate?.plateNumber &&
        !state.data.trailers.some((trailer) => trailer.plateNumber === plateNumber)))
  );
}

function succeed(state: RealGateState, step: StepId, data?: Partial<RealGateData>): RealGateState {
  const { [step]: _cleared, ...errors } = state.errors;
  return {
    ...state,
    current: state.current + 1,
    statuses: { ...state.statuses, [step]: 'success' },
    errors,
    data: data ? { ...state.data, ...data } : state.data,
  };
}

/** Entry can be granted now: step 9 is current and idle, and no plate correction is pending. */
export function canGrantEntry(state: RealGateState): boolean {
  const status = state.statuses.complete;
  return (
    currentStep(state) === 'complete' &&
    (status === 'pending' || status === 'failed') &&
    !state.isCheckingPlate
  );
}

/**
 * Spec §4 Real gate entry as a pure transition function. Only the current step can be acted on;
 * success moves to the next step; a failed step can be tried again. An event that does not apply
 * returns the same state object, so a caller can tell a refused event from an accepted one.
 */
export function realGateReducer(state: RealGateState, event: RealGateEvent): RealGateState {
  const step = currentStep(state);
  switch (event.type) {
    case 'STEP_STARTED': {
      if (event.step !== step) return state;
      if (step === 'complete' && !canGrantEntry(state)) return state;
      const status = state.statuses[step];
      if (status !== 'pending' && status !== 'failed') return state;
      return { ...state, statuses: { ...state.statuses, [step]: 'processing' } };
    }

    case 'STEP_SUCCEEDED':
      if (event.step !== step || state.statuses[step] !== 'processing') return state;
      return succeed(state, step, event.data);

    case 'STEP_FAILED':
      if (event.step !== step || state.statuses[step] !== 'processing') return state;
      return {
        ...state,
        statuses: { ...state.statuses, [step]: 'failed' },
        errors: { ...state.errors, [step]: event.error },
      };

    case 'STEP_SKIPPED':
      if (event.step !== step || !canSkip(state, step)) return state;
      return { ...succeed(state, step), skipped: [...state.skipped, step] };

    case 'STEP_ENTERED_MANUALLY':
      if (event.step !== step || state.statuses[step] !== 'failed') return state;
      return succeed(state, step, {
        manual: { ...state.data.manual, [event.step]: event.edits },
      });

    case 'PERMIT_ADDED':
      if (step !== 'permits' || state.data.permits.length >= MAX_PERMITS) return state;
      return { ...state, data: { ...state.data, permits: [...state.data.permits, event.image] } };

    case 'PERMIT_REMOVED':
      if (step !== 'permits') return state;
      return {
        ...state,
        data: {
          ...state.data,
          permits: state.data.permits.filter((_, index) => index !== event.index),
        },
      };

    case 'PERMITS_CONFIRMED':
      if (step !== 'permits' || state.data.permits.length === 0) return state;
      return succeed(state, 'permits');

    case 'PLATE_CHECK_STARTED':
      if (!canCorrectPlate(state) || state.isCheckingPlate) return state;
      return { ...state, isCheckingPlate: true };

    case 'PLATE_CORRECTED':
      if (!canCorrectPlate(state)) return state;
      return { ...state, isCheckingPlate: false, data: { ...state.data, plate: event.plate } };

    case 'PLATE_CHECK_ENDED':
      if (!state.isCheckingPlate) return state;
      return { ...state, isCheckingPlate: false };

    case 'TRAILER_ADDED':
      if (!canAddTrailer(state, event.trailer.plateNumber)) return state;
      return {
        ...state,
        data: { ...state.data, trailers: [...state.data.trailers, event.trailer] },
      };

    case 'TRAILER_REMOVED':
      if (!canEditTrailers(state) || !state.data.trailers[event.index]) return state;
      return {
        ...state,
        data: {
          ...state.data,
          trailers: state.data.trailers.filter((_, index) => index !== event.index),
        },
      };
  }
}
