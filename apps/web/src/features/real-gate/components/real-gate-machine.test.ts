import { describe, expect, it } from 'vitest';

import {
  canCorrectPlate,
  canEditTrailers,
  canGrantEntry,
  canSkip,
  currentStep,
  initialRealGateState,
  MAX_PERMITS,
  REAL_GATE_STEPS,
  type PlateData,
  type RealGateEvent,
  type RealGateState,
  realGateReducer,
  type StepId,
} from './real-gate-machine';

const run = (state: RealGateState, ...events: RealGateEvent[]) =>
  events.reduce(realGateReducer, state);
const done = (step: StepId): RealGateEvent[] => [
  { type: 'STEP_STARTED', step },
  { type: 'STEP_SUCCEEDED', step },
];
/** The state with every step before `step` completed. */
function at(step: StepId): RealGateState {
  let state = initialRealGateState;
  for (const id of REAL_GATE_STEPS) {
    if (id === step) return state;
    state =
      id === 'permits'
        ? run(state, { type: 'PERMIT_ADDED', image: 'p1' }, { type: 'PERMITS_CONFIRMED' })
        : run(state, ...done(id));
  }
  return state;
}

const aPlate = (overrides: Partial<PlateData> = {}): PlateData => ({
  plateNumber: 'KP35XKGB',
  extractedPlate: 'KP 35 XK GB',
  isTypedByGuard: false,
  image: 'img',
  approved: false,
  driverName: null,
  company: null,
  ...overrides,
});

describe('real gate checklist (spec §4)', () => {
  it('has nine steps in order, all pending, the first one current', () => {
    expect(REAL_GATE_STEPS).toEqual([
      'plate',
      'disc',
      'face',
      'id',
      'licence',
      'passport',
      'permits',
      'ticket',
      'complete',
    ]);
    expect(Object.values(initialRealGateState.statuses)).toEqual(Array(9).fill('pending'));
    expect(currentStep(initialRealGateState)).toBe('plate');
  });

  it('pending → processing → success moves to the next step and keeps the data', () => {
    const processing = run(initialRealGateState, { type: 'STEP_STARTED', step: 'plate' });
    expect(processing.statuses.plate).toBe('processing');
    const plate = {
      plateNumber: 'KP35XKGP',
      extractedPlate: 'KP 35 XK GP',
      isTypedByGuard: false,
      image: 'img',
      approved: true,
      driverName: null,
      company: null,
    };
    const next = run(processing, { type: 'STEP_SUCCEEDED', step: 'plate', data: { plate } });
    expect(next.statuses.plate).toBe('success');
    expect(currentStep(next)).toBe('disc');
    expect(next.data.plate).toEqual(plate);
  });

  it('processing → failed keeps the step current with its error, and it can be retried', () => {
    const failed = run(
      initialRealGateState,
      { type: 'STEP_STARTED', step: 'plate' },
      { type: 'STEP_FAILED', step: 'plate', error: 'Could not read plate number' },
    );
    expect(failed.statuses.plate).toBe('failed');
    expect(failed.errors.plate).toBe('Could not read plate number');
    expect(currentStep(failed)).toBe('plate');

    const retried = run(failed, ...done('plate'));
    expect(retried.statuses.plate).toBe('success');
    expect(retried.errors.plate).toBeUndefined();
  });

  it('only the current step can be acted on', () => {
    const state = initialRealGateState;
    expect(run(state, { type: 'STEP_STARTED', step: 'disc' })).toBe(state);
    expect(run(state, { type: 'STEP_SUCCEEDED', step: 'plate' })).toBe(state);
    expect(run(state, { type: 'STEP_SKIPPED', step: 'passport' })).toBe(state);
    expect(run(state, { type: 'PERMIT_ADDED', image: 'p' })).toBe(state);
    const processing = run(state, { type: 'STEP_STARTED', step: 'plate' });
    expect(run(processing, { type: 'STEP_STARTED', step: 'plate' })).toBe(processing);
  });

  it('skips the passport (6) and the mine ticket (8) as successful, marked skipped', () => {
    const afterPassport = run(at('passport'), { type: 'STEP_SKIPPED', step: 'passport' });
    expect(afterPassport.statuses.passport).toBe('success');
    expect(afterPassport.skipped).toEqual(['passport']);
    expect(currentStep(afterPassport)).toBe('permits');

    const afterTicket = run(at('ticket'), { type: 'STEP_SKIPPED', step: 'ticket' });
    expect(afterTicket.statuses.ticket).toBe('success');
    expect(currentStep(afterTicket)).toBe('complete');
  });

  it('does not skip the other steps, except a licence disc that could not be read', () => {
    for (const step of ['plate', 'face', 'id', 'licence', 'permits', 'complete'] as const) {
      expect(canSkip(at(step), step)).toBe(false);
    }
    expect(canSkip(at('disc'), 'disc')).toBe(false);
    const discFailed = run(
      at('disc'),
      { type: 'STEP_STARTED', step: 'disc' },
      { type: 'STEP_FAILED', step: 'disc', error: 'Could not extract disc data' },
    );
    expect(canSkip(discFailed, 'disc')).toBe(true);
    expect(currentStep(run(discFailed, { type: 'STEP_SKIPPED', step: 'disc' }))).toBe('face');
  });

  it('collects up to five permits and succeeds once confirmed with at least one', () => {
    let state = at('permits');
    expect(run(state, { type: 'PERMITS_CONFIRMED' })).toBe(state);
    for (let i = 1; i <= MAX_PERMITS + 1; i += 1) {
      state = run(state, { type: 'PERMIT_ADDED', image: `p${i}` });
    }
    expect(state.data.permits).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
    state = run(state, { type: 'PERMIT_REMOVED', index: 0 });
    expect(state.data.permits).toEqual(['p2', 'p3', 'p4', 'p5']);
    state = run(state, { type: 'PERMITS_CONFIRMED' });
    expect(state.statuses.permits).toBe('success');
    expect(currentStep(state)).toBe('ticket');
  });

  it('completes with step 9, after which no step is current', () => {
    const granted = run(at('complete'), ...done('complete'));
    expect(granted.statuses.complete).toBe('success');
    expect(currentStep(granted)).toBeNull();
    expect(Object.values(granted.statuses)).toEqual(Array(9).fill('success'));
  });
  it('an unread plate stays failed until the guard types it, which succeeds the step', () => {
    const failed = run(
      initialRealGateState,
      { type: 'STEP_STARTED', step: 'plate' },
      { type: 'STEP_FAILED', step: 'plate', error: 'Could not read plate number' },
    );
    const typed = aPlate({ plateNumber: 'KP35XKGP', extractedPlate: null, isTypedByGuard: true });

    const next = run(
      failed,
      { type: 'STEP_STARTED', step: 'plate' },
      { type: 'STEP_SUCCEEDED', step: 'plate', data: { plate: typed } },
    );

    expect(failed.statuses.plate).toBe('failed');
    expect(canCorrectPlate(failed)).toBe(false);
    expect(run(failed, { type: 'PLATE_CORRECTED', plate: typed })).toBe(failed);
    expect(next.statuses.plate).toBe('success');
    expect(currentStep(next)).toBe('disc');
    expect(next.data.plate).toEqual(typed);
  });

  it('corrects a misread plate later without moving the current step or re-running the plate', () => {
    const read = aPlate();
    const afterDisc = run(
      initialRealGateState,
      { type: 'STEP_STARTED', step: 'plate' },
      { type: 'STEP_SUCCEEDED', step: 'plate', data: { plate: read } },
      ...done('disc'),
    );
    const corrected = aPlate({ plateNumber: 'KP35XKGP', isTypedByGuard: true, approved: true });

    const next = run(afterDisc, { type: 'PLATE_CORRECTED', plate: corrected });

    expect(canCorrectPlate(afterDisc)).toBe(true);
    expect(next.data.plate).toEqual(corrected);
    expect(next.data.plate?.extractedPlate).toBe('KP 35 XK GB');
    expect(currentStep(next)).toBe('face');
    expect(next.statuses).toEqual(afterDisc.statuses);
  });

  it('does not correct a plate before it is read, while entry is being granted, or after', () => {
    const corrected = aPlate({ plateNumber: 'KP35XKGP', isTypedByGuard: true });
    const before = run(initialRealGateState, { type: 'STEP_STARTED', step: 'plate' });
    const ready = { ...at('complete'), data: { ...at('complete').data, plate: aPlate() } };
    const granting = run(ready, { type: 'STEP_STARTED', step: 'complete' });
    const granted = run(granting, { type: 'STEP_SUCCEEDED', step: 'complete' });

    expect(canCorrectPlate(ready)).toBe(true);
    for (const state of [initialRealGateState, before, granting, granted]) {
      expect(canCorrectPlate(state)).toBe(false);
      expect(run(state, { type: 'PLATE_CORRECTED', plate: corrected })).toBe(state);
    }
  });

  it('does not grant entry while a typed plate is being checked, and does once it is recorded', () => {
    const ready = { ...at('complete'), data: { ...at('complete').data, plate: aPlate() } };
    const checking = run(ready, { type: 'PLATE_CHECK_STARTED' });
    const corrected = aPlate({ plateNumber: 'KP35XKGP', isTypedByGuard: true, approved: true });

    const recorded = run(checking, { type: 'PLATE_CORRECTED', plate: corrected });

    expect(checking.isCheckingPlate).toBe(true);
    expect(canGrantEntry(checking)).toBe(false);
    expect(run(checking, { type: 'STEP_STARTED', step: 'complete' })).toBe(checking);
    expect(run(checking, { type: 'PLATE_CHECK_STARTED' })).toBe(checking);
    expect(recorded.isCheckingPlate).toBe(false);
    expect(recorded.data.plate).toEqual(corrected);
    expect(canGrantEntry(recorded)).toBe(true);
    expect(run(recorded, { type: 'STEP_STARTED', step: 'complete' }).statuses.complete).toBe(
      'processing',
    );
  });

  it('allows entry again when a plate check ends without a correction', () => {
    const ready = { ...at('complete'), data: { ...at('complete').data, plate: aPlate() } };
    const checking = run(ready, { type: 'PLATE_CHECK_STARTED' });

    const ended = run(checking, { type: 'PLATE_CHECK_ENDED' });

    expect(ended.isCheckingPlate).toBe(false);
    expect(ended.data.plate).toEqual(aPlate());
    expect(canGrantEntry(ended)).toBe(true);
    expect(run(ended, { type: 'PLATE_CHECK_ENDED' })).toBe(ended);
  });

  it('does not start a plate check when the plate cannot be corrected', () => {
    const ready = { ...at('complete'), data: { ...at('complete').data, plate: aPlate() } };
    const granting = run(ready, { type: 'STEP_STARTED', step: 'complete' });

    for (const state of [initialRealGateState, granting]) {
      expect(run(state, { type: 'PLATE_CHECK_STARTED' })).toBe(state);
    }
    expect(canGrantEntry(granting)).toBe(false);
    expect(canGrantEntry(at('ticket'))).toBe(false);
  });
});

describe('trailers of a rig (issue 21)', () => {
  const trailer = (plateNumber: string) => ({ plateNumber, disc: null });
  const withPlate = (state: RealGateState) => ({
    ...state,
    data: { ...state.data, plate: aPlate() },
  });

  it('are captured once the plate is recorded and until the entry is saved', () => {
    expect(canEditTrailers(initialRealGateState)).toBe(false);
    const before = initialRealGateState;
    expect(run(before, { type: 'TRAILER_ADDED', trailer: trailer('TR12ABGP') })).toBe(before);

    const state = withPlate(at('face'));
    const added = run(state, { type: 'TRAILER_ADDED', trailer: trailer('TR12ABGP') });
    expect(added.data.trailers).toEqual([trailer('TR12ABGP')]);

    const saving = run(withPlate(at('complete')), { type: 'STEP_STARTED', step: 'complete' });
    expect(canEditTrailers(saving)).toBe(false);
    expect(run(saving, { type: 'TRAILER_ADDED', trailer: trailer('TR12ABGP') })).toBe(saving);
  });

  it('are at most two, each plate once and never the truck-tractor itself', () => {
    const state = withPlate(at('complete'));
    const two = run(
      state,
      { type: 'TRAILER_ADDED', trailer: trailer('TR12ABGP') },
      { type: 'TRAILER_ADDED', trailer: trailer('TR12ABGP') },
      { type: 'TRAILER_ADDED', trailer: trailer('KP35XKGB') },
      { type: 'TRAILER_ADDED', trailer: trailer('TR34CDGP') },
    );
    expect(two.data.trailers.map((t) => t.plateNumber)).toEqual(['TR12ABGP', 'TR34CDGP']);
    expect(run(two, { type: 'TRAILER_ADDED', trailer: trailer('TR56EFGP') })).toBe(two);

    const removed = run(two, { type: 'TRAILER_REMOVED', index: 0 });
    expect(removed.data.trailers.map((t) => t.plateNumber)).toEqual(['TR34CDGP']);
    expect(run(removed, { type: 'TRAILER_REMOVED', index: 5 })).toBe(removed);
  });
});

describe('a step entered manually (issue 15)', () => {
  const edits = {
    readingType: 'disk' as const,
    captureId: null,
    fields: {
      licenceNumber: { read: undefined, uncertain: false, value: 'KP35XKGB', confirmed: false },
    },
  };

  it('completes only the current step once its read has failed, keeping what was typed', () => {
    const pending = at('disc');
    const entered: RealGateEvent = { type: 'STEP_ENTERED_MANUALLY', step: 'disc', edits };
    expect(run(pending, entered)).toBe(pending);
    const processing = run(pending, { type: 'STEP_STARTED', step: 'disc' });
    expect(run(processing, entered)).toBe(processing);

    const failed = run(processing, { type: 'STEP_FAILED', step: 'disc', error: 'unread' });
    const state = run(failed, entered);
    expect(state.statuses.disc).toBe('success');
    expect(state.errors.disc).toBeUndefined();
    expect(currentStep(state)).toBe('face');
    expect(state.data.manual?.disc).toEqual(edits);
    expect(state.skipped).toEqual([]);
    // Another step cannot be entered for the current one.
    expect(run(failed, { type: 'STEP_ENTERED_MANUALLY', step: 'ticket', edits })).toBe(failed);
  });
});
