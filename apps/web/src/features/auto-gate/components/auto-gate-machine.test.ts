import { describe, expect, it } from 'vitest';

import type { PlateLookup } from '@boomgate/contracts/approved-vehicles';

import {
  AUTO_GATE_STATUS,
  PLATE_CHECK_STATUS,
  REFUSED_STATUS,
  type AutoGateEvent,
  type AutoGateState,
  autoGateReducer,
  initialAutoGateState,
  isFaceMatch,
} from './auto-gate-machine';

const vehicle = (overrides: Partial<PlateLookup> = {}): PlateLookup => ({
  id: '0b6f8c1e-7d1a-4a51-9f6a-2f7b3c4d5e6f',
  plateNumber: 'KP35XKGP',
  isActive: true,
  driverPhoto: '/api/images/t/driver-photos/p.jpg',
  driverName: 'Sipho Nkosi',
  company: 'Kumba Haulage',
  hasFaceEnrolment: true,
  pendingApproval: false,
  induction: null,
  ...overrides,
});

const run = (...events: AutoGateEvent[]) => events.reduce(autoGateReducer, initialAutoGateState);

const started: AutoGateEvent = { type: 'START', attemptId: 'attempt-1' };
const plateCaptured: AutoGateEvent = { type: 'PLATE_CAPTURED', image: 'data:plate' };
const plateRead: AutoGateEvent = { type: 'PLATE_READ', plateNumber: 'KP35XKGP' };
const faceCaptured: AutoGateEvent = { type: 'FACE_CAPTURED', image: 'data:face' };

const atFace = () =>
  run(started, plateCaptured, plateRead, { type: 'VEHICLE_FOUND', vehicle: vehicle() });
const comparing = () => autoGateReducer(atFace(), faceCaptured);

const expectUnchanged = (state: AutoGateState, event: AutoGateEvent) =>
  expect(autoGateReducer(state, event)).toBe(state);

describe('auto gate state machine (spec §4)', () => {
  it('starts idle with nothing on screen', () => {
    expect(initialAutoGateState).toMatchObject({ phase: 'idle', status: null, camera: null });
  });

  it('idle → scanning_plate on start, with the plate camera open', () => {
    expect(run(started)).toMatchObject({
      phase: 'scanning_plate',
      camera: 'plate',
      attemptId: 'attempt-1',
    });
  });

  it('closing the plate camera returns to idle', () => {
    expect(run(started, { type: 'CAMERA_CLOSED' })).toEqual(initialAutoGateState);
  });

  it("a captured plate → verifying_vehicle 'Reading plate number...', camera closed", () => {
    expect(run(started, plateCaptured)).toMatchObject({
      phase: 'verifying_vehicle',
      status: 'Reading plate number...',
      camera: null,
      plateImage: 'data:plate',
    });
  });

  it("a plate read → 'Checking registration...'", () => {
    expect(run(started, plateCaptured, plateRead)).toMatchObject({
      phase: 'verifying_vehicle',
      status: 'Checking registration...',
      plateNumber: 'KP35XKGP',
    });
  });

  it('a failed scan (no answer) returns to idle', () => {
    expect(run(started, plateCaptured, { type: 'SCAN_FAILED' })).toEqual(initialAutoGateState);
  });

  it('an unreadable plate waits for the guard to type it, keeping the photo (issue 15)', () => {
    const unread = run(started, plateCaptured, { type: 'PLATE_UNREADABLE' });
    expect(unread).toMatchObject({
      phase: 'verifying_vehicle',
      status: PLATE_CHECK_STATUS.unread,
      plateImage: 'data:plate',
      plateRead: { plateNumber: null },
    });
    // Registration is not checked until the guard has typed the plate.
    expectUnchanged(unread, { type: 'VEHICLE_FOUND', vehicle: vehicle() });
    expect(
      autoGateReducer(unread, {
        type: 'PLATE_ENTERED',
        plateNumber: 'KP35XKGP',
        typed: 'KP35XKGP',
      }),
    ).toMatchObject({
      status: AUTO_GATE_STATUS.checkingRegistration,
      plateNumber: 'KP35XKGP',
      plateTyped: 'KP35XKGP',
    });
  });

  it('an uncertain read waits for confirmation; a certain one goes on to the lookup (issue 15)', () => {
    const uncertain = run(started, plateCaptured, {
      type: 'PLATE_READ',
      plateNumber: 'KP35XKG8',
      confidence: 0.55,
      isUncertain: true,
    });
    expect(uncertain).toMatchObject({
      status: PLATE_CHECK_STATUS.confirm,
      plateRead: { plateNumber: 'KP35XKG8', confidence: 0.55, isUncertain: true },
    });
    expectUnchanged(uncertain, { type: 'VEHICLE_NOT_FOUND' });
    expect(
      autoGateReducer(uncertain, {
        type: 'PLATE_ENTERED',
        plateNumber: 'KP35XKGP',
        typed: 'KP35XKGP',
      }),
    ).toMatchObject({
      status: AUTO_GATE_STATUS.checkingRegistration,
      plateNumber: 'KP35XKGP',
      plateRead: { plateNumber: 'KP35XKG8' },
    });
    // PLATE_ENTERED applies only while the plate waits for the guard.
    expectUnchanged(run(started, plateCaptured, plateRead), {
      type: 'PLATE_ENTERED',
      plateNumber: 'ZZ1',
      typed: 'ZZ1',
    });
  });

  it('a refused plate may be corrected as a new attempt, unless the rules refused it (issue 15)', () => {
    const refused = run(started, plateCaptured, plateRead, { type: 'VEHICLE_NOT_FOUND' });
    const corrected = autoGateReducer(refused, {
      type: 'PLATE_CORRECTED',
      attemptId: 'attempt-2',
      plateNumber: 'KP35XKGB',
      typed: 'KP35XKGB',
    });
    expect(corrected).toMatchObject({
      phase: 'verifying_vehicle',
      status: AUTO_GATE_STATUS.checkingRegistration,
      attemptId: 'attempt-2',
      plateImage: 'data:plate',
      plateNumber: 'KP35XKGB',
      plateTyped: 'KP35XKGB',
      plateRead: { plateNumber: 'KP35XKGP' },
    });
    const byRules = autoGateReducer(refused, {
      type: 'RULES_REFUSED',
      status: 'Manual check required',
      detail: null,
    });
    expectUnchanged(byRules, {
      type: 'PLATE_CORRECTED',
      attemptId: 'attempt-3',
      plateNumber: 'KP35XKGB',
      typed: 'KP35XKGB',
    });
  });

  it("a vehicle not found (or a failed lookup) → not_registered 'Vehicle not pre-registered'", () => {
    expect(run(started, plateCaptured, plateRead, { type: 'VEHICLE_NOT_FOUND' })).toMatchObject({
      phase: 'not_registered',
      status: 'Vehicle not pre-registered',
      plateNumber: 'KP35XKGP',
    });
  });

  it("a guard's registration waiting for approval → not_registered, said as pending", () => {
    expect(
      run(started, plateCaptured, plateRead, {
        type: 'VEHICLE_FOUND',
        vehicle: vehicle({ isActive: false, pendingApproval: true }),
      }),
    ).toMatchObject({
      phase: 'not_registered',
      status: 'Vehicle registration pending approval',
    });
  });

  it("a vehicle found but not active → not_registered 'Vehicle registration expired'", () => {
    expect(
      run(started, plateCaptured, plateRead, {
        type: 'VEHICLE_FOUND',
        vehicle: vehicle({ isActive: false }),
      }),
    ).toMatchObject({ phase: 'not_registered', status: 'Vehicle registration expired' });
  });

  it("an active vehicle with a driver photo → verifying_face 'Verify driver identity', face camera open", () => {
    expect(atFace()).toMatchObject({
      phase: 'verifying_face',
      status: 'Verify driver identity',
      camera: 'face',
      vehicle: vehicle(),
    });
  });

  it('an active vehicle without a driver photo is approved directly, without face verification', () => {
    const state = run(started, plateCaptured, plateRead, {
      type: 'VEHICLE_FOUND',
      vehicle: vehicle({ driverPhoto: null }),
    });
    expect(state).toMatchObject({
      phase: 'verifying_vehicle',
      status: 'Approving entry...',
      faceVerified: false,
      camera: null,
    });
    expect(autoGateReducer(state, { type: 'ENTRY_LOGGED' })).toMatchObject({
      phase: 'approved',
      status: 'Entry approved - gate opening',
      faceVerified: false,
    });
  });

  it('closing the face camera returns to idle', () => {
    expect(autoGateReducer(atFace(), { type: 'CAMERA_CLOSED' })).toEqual(initialAutoGateState);
  });

  it("a captured face → 'Comparing faces...', camera closed", () => {
    expect(comparing()).toMatchObject({
      phase: 'verifying_face',
      status: 'Comparing faces...',
      camera: null,
      faceImage: 'data:face',
    });
  });

  it("a match of 70 or more → 'Approving entry...', then approved 'Entry approved - gate opening'", () => {
    const approving = autoGateReducer(comparing(), { type: 'FACE_COMPARED', matchScore: 70 });
    expect(approving).toMatchObject({
      phase: 'verifying_face',
      status: 'Approving entry...',
      matchScore: 70,
      faceVerified: true,
    });
    expect(autoGateReducer(approving, { type: 'ENTRY_LOGGED' })).toMatchObject({
      phase: 'approved',
      status: 'Entry approved - gate opening',
    });
  });

  it("a match below 70 → not_registered 'Face verification failed - manual check required'", () => {
    expect(autoGateReducer(comparing(), { type: 'FACE_COMPARED', matchScore: 69.9 })).toMatchObject(
      {
        phase: 'not_registered',
        status: 'Face verification failed - manual check required',
        matchScore: 69.9,
        faceVerified: false,
      },
    );
  });

  it('a suspected spoof fails verification whatever the match score, keeping the liveness score', () => {
    expect(
      autoGateReducer(comparing(), {
        type: 'FACE_COMPARED',
        matchScore: 97,
        liveness: 0.21,
        spoofSuspected: true,
        comparisonId: 'c1',
      }),
    ).toMatchObject({
      phase: 'not_registered',
      status: 'Face verification failed - manual check required',
      matchScore: 97,
      liveness: 0.21,
      spoofSuspected: true,
      faceVerified: false,
    });
  });

  it('a match keeps the liveness score and the comparison to cite when logging', () => {
    expect(
      autoGateReducer(comparing(), {
        type: 'FACE_COMPARED',
        matchScore: 88,
        liveness: 0.93,
        comparisonId: 'c2',
      }),
    ).toMatchObject({ faceVerified: true, liveness: 0.93, faceComparisonId: 'c2' });
  });

  it("a face comparison error → not_registered 'Face verification error'", () => {
    expect(autoGateReducer(comparing(), { type: 'FACE_COMPARISON_FAILED' })).toMatchObject({
      phase: 'not_registered',
      status: 'Face verification error',
    });
  });

  it('a failed entry log returns to idle: nothing was logged, the gate stays shut', () => {
    const approving = autoGateReducer(comparing(), { type: 'FACE_COMPARED', matchScore: 95 });
    expect(autoGateReducer(approving, { type: 'ENTRY_LOGGING_FAILED' })).toEqual(
      initialAutoGateState,
    );
  });

  it("'Next Vehicle' and 'Scan Again' (RESET) return everything to idle", () => {
    const approved = autoGateReducer(
      autoGateReducer(comparing(), { type: 'FACE_COMPARED', matchScore: 95 }),
      { type: 'ENTRY_LOGGED' },
    );
    expect(autoGateReducer(approved, { type: 'RESET' })).toEqual(initialAutoGateState);
    const notRegistered = run(started, plateCaptured, plateRead, { type: 'VEHICLE_NOT_FOUND' });
    expect(autoGateReducer(notRegistered, { type: 'RESET' })).toEqual(initialAutoGateState);
  });

  describe('ignores events that do not apply', () => {
    it('a second start while busy', () => {
      expectUnchanged(run(started, plateCaptured), started);
    });

    it('a capture while idle, or a face capture before the face step', () => {
      expectUnchanged(initialAutoGateState, plateCaptured);
      expectUnchanged(run(started), faceCaptured);
    });

    it('a late plate answer after the camera was closed', () => {
      expectUnchanged(run(started, { type: 'CAMERA_CLOSED' }), plateRead);
      expectUnchanged(initialAutoGateState, { type: 'VEHICLE_NOT_FOUND' });
    });

    it('a lookup answer before the plate was read', () => {
      expectUnchanged(run(started, plateCaptured), { type: 'VEHICLE_FOUND', vehicle: vehicle() });
    });

    it('a face score before a face was captured, and an entry log before approval', () => {
      expectUnchanged(atFace(), { type: 'FACE_COMPARED', matchScore: 99 });
      expectUnchanged(atFace(), { type: 'ENTRY_LOGGED' });
      expectUnchanged(comparing(), { type: 'ENTRY_LOGGED' });
    });

    it('closing a camera that is not open', () => {
      expectUnchanged(comparing(), { type: 'CAMERA_CLOSED' });
    });
  });

  it('uses the spec status texts word for word', () => {
    expect(AUTO_GATE_STATUS).toEqual({
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
    });
  });

  it('puts the face match threshold at 70 (spec §9)', () => {
    expect(isFaceMatch(70)).toBe(true);
    expect(isFaceMatch(69.99)).toBe(false);
  });
});

describe('auto gate: the server’s decision (issue 14)', () => {
  const approving = () => autoGateReducer(comparing(), { type: 'FACE_COMPARED', matchScore: 92 });
  const warning = {
    code: 'grant_claim_contradicted' as const,
    severity: 'warning' as const,
    message: 'refused',
    fields: ['entryGranted'],
  };

  it('shows the refusal the server stored instead of approving', () => {
    const refused = autoGateReducer(approving(), {
      type: 'ENTRY_LOGGED',
      entryGranted: false,
      refusalReason: 'face_error',
      faceVerified: false,
      warnings: [warning],
    });
    expect(refused).toMatchObject({
      phase: 'not_registered',
      status: AUTO_GATE_STATUS.faceError,
      faceVerified: false,
      warnings: [warning],
    });
    const byRule = autoGateReducer(approving(), {
      type: 'ENTRY_LOGGED',
      entryGranted: false,
      refusalReason: 'guard_refused',
    });
    expect(byRule.status).toBe(REFUSED_STATUS);
  });

  it('approves with the server’s warnings when it granted', () => {
    expect(
      autoGateReducer(approving(), {
        type: 'ENTRY_LOGGED',
        entryGranted: true,
        warnings: [warning],
      }),
    ).toMatchObject({ phase: 'approved', status: AUTO_GATE_STATUS.approved, warnings: [warning] });
  });

  it('takes the server’s reason for a refusal it logged, keeping the screen’s for one it cannot word', () => {
    const mismatch = autoGateReducer(comparing(), { type: 'FACE_COMPARED', matchScore: 40 });
    expect(
      autoGateReducer(mismatch, { type: 'REFUSAL_LOGGED', refusalReason: 'face_error' }).status,
    ).toBe(AUTO_GATE_STATUS.faceError);
    expect(
      autoGateReducer(mismatch, {
        type: 'REFUSAL_LOGGED',
        refusalReason: 'guard_refused',
        warnings: [warning],
      }),
    ).toMatchObject({ status: AUTO_GATE_STATUS.faceMismatch, warnings: [warning] });
    expectUnchanged(approving(), { type: 'REFUSAL_LOGGED', refusalReason: 'face_error' });
  });
});
