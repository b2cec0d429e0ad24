import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { FACE_MATCH_THRESHOLD } from '@boomgate/contracts/faces';

import type { GateVisionEngine } from '@/modules/vision';
import { aJpegDataUrl } from '@/testing/images';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

type Compared = Awaited<ReturnType<GateVisionEngine['compareFaceToDescriptor']>>;
type Embedded = Awaited<ReturnType<GateVisionEngine['embedFace']>>;

/**
 * These tests are about the server's decisions (threshold, anti-spoofing gate, which evidence
 * counts, refusals, rules), not the face engine: a stand-in engine answers the exact score and
 * liveness each test sets. The engine's own verdicts on real faces are tested with the real engine
 * in entry-logs.routes.int.test.ts and faces.routes.int.test.ts.
 */
const faceEngine = { matchScore: 88, liveness: 0.9 as number | null, error: null as string | null };
const BOX = { x: 10, y: 10, width: 40, height: 40 };

const withFakeFaces = (engine: GateVisionEngine): GateVisionEngine => ({
  ...engine,
  embedFace: async () =>
    ({ ok: true, descriptor: Array<number>(128).fill(0.1), box: BOX }) as unknown as Embedded,
  compareFaceToDescriptor: async () =>
    (faceEngine.error
      ? { ok: false, error: { kind: 'no_face', message: faceEngine.error } }
      : {
          ok: true,
          matchScore: faceEngine.matchScore,
          face: {
            box: BOX,
            ...(faceEngine.liveness === null
              ? {}
              : { antispoof: { real: faceEngine.liveness, live: faceEngine.liveness } }),
          },
        }) as unknown as Compared,
});

describe('grant-entry: the server decides', () => {
  let t: TestApp;
  let photo: string;
  beforeAll(async () => {
    t = await createTestApp({ visionEngine: withFakeFaces });
    photo = await aJpegDataUrl();
  });
  afterAll(() => t.close());
  beforeEach(() => {
    Object.assign(faceEngine, { matchScore: 88, liveness: 0.9, error: null });
  });

  const enrol = async (admin: Session, plateNumber: string) => {
    const created = await admin.post('/api/approved-vehicles', {
      plateNumber,
      driverName: 'Sipho Nkosi',
      driverPhoto: photo,
      biometricConsent: true,
    });
    expect(created.statusCode).toBe(201);
    return created.json<{ id: string }>();
  };
  const grant = (session: Session, body: Record<string, unknown>) =>
    session.post('/api/auto-gate/grant-entry', { category: 'contracted', ...body });

  it('lists the changed routes in the OpenAPI document with the refusal and typed warnings', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });

    const document = JSON.stringify(response.json());
    const paths = response.json<{ paths: Record<string, unknown> }>().paths;
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining([
        '/api/auto-gate/grant-entry',
        '/api/face-comparison',
        '/api/entry-logs',
        '/api/dashboard',
      ]),
    );
    for (const name of ['refusalReason', 'face_claim_unbacked', 'guard_refused', 'grantedEntries'])
      expect(document).toContain(name);
  });

  describe('the face threshold (70, defined once in contracts) at its boundary', () => {
    it('matches at exactly 70.0 and not at 69.9 on the comparison route', async () => {
      const admin = await t.registerTenant();
      const vehicle = await enrol(admin, 'TH70GP');
      const compare = async (matchScore: number) => {
        faceEngine.matchScore = matchScore;
        return (
          await admin.post('/api/face-comparison', { image1: photo, approvedVehicleId: vehicle.id })
        ).json();
      };

      expect(FACE_MATCH_THRESHOLD).toBe(70);
      expect(await compare(70)).toMatchObject({ matchScore: 70, threshold: 70, decision: 'match' });
      expect(await compare(69.9)).toMatchObject({ matchScore: 69.9, decision: 'no_match' });
      // Two photos sent: the same rule.
      faceEngine.matchScore = 70;
      const twoPhotos = await admin.post('/api/face-comparison', { image1: photo, image2: photo });
      expect(twoPhotos.json()).toMatchObject({ decision: 'match' });
    });

    it('verifies at exactly 70.0 and not at 69.9 in grant-entry, compared there or cited', async () => {
      const admin = await t.registerTenant();
      const vehicle = await enrol(admin, 'TH71GP');
      const ownComparison = async (matchScore: number) => {
        faceEngine.matchScore = matchScore;
        return (await grant(admin, { plateNumber: 'TH71GP', driverFaceImage: photo })).json();
      };
      const citedComparison = async (matchScore: number) => {
        faceEngine.matchScore = matchScore;
        const { comparisonId } = (
          await admin.post('/api/face-comparison', { image1: photo, approvedVehicleId: vehicle.id })
        ).json<{ comparisonId: string }>();
        return (
          await grant(admin, { plateNumber: 'TH71GP', faceComparisonId: comparisonId })
        ).json();
      };

      expect(await ownComparison(70)).toMatchObject({ faceVerified: true, matchScore: 70 });
      expect(await ownComparison(69.9)).toMatchObject({ faceVerified: false, matchScore: 69.9 });
      expect(await citedComparison(70)).toMatchObject({ faceVerified: true, matchScore: 70 });
      expect(await citedComparison(69.9)).toMatchObject({ faceVerified: false, matchScore: 69.9 });
    });

    it('passes the anti-spoofing gate at a liveness equal to the threshold and not below it', async () => {
      const admin = await t.registerTenant();
      const vehicle = await enrol(admin, 'TH72GP');
      await admin.patch('/api/settings', { antispoofGating: true, antispoofThreshold: 0.9 });
      const compare = async (liveness: number | null) => {
        faceEngine.liveness = liveness;
        return (
          await admin.post('/api/face-comparison', { image1: photo, approvedVehicleId: vehicle.id })
        ).json();
      };
      const inGrant = async (liveness: number) => {
        faceEngine.liveness = liveness;
        return (await grant(admin, { plateNumber: 'TH72GP', driverFaceImage: photo })).json();
      };

      expect(await compare(0.9)).toMatchObject({
        decision: 'match',
        antispoof: { gating: true, threshold: 0.9, passed: true },
      });
      expect(await compare(0.899)).toMatchObject({
        decision: 'spoof_suspected',
        antispoof: { passed: false },
      });
      // Not measured: the gate fails closed.
      expect(await compare(null)).toMatchObject({ decision: 'spoof_suspected' });
      expect(await inGrant(0.9)).toMatchObject({ faceVerified: true });
      expect(await inGrant(0.899)).toMatchObject({ faceVerified: false, matchScore: 88 });
    });
  });

  it('stores only the server’s verdicts for every combination of client claims, with and without evidence', async () => {
    const admin = await t.registerTenant();
    await enrol(admin, 'CB10GP');
    type Evidence = 'none' | 'match' | 'no_match';
    const cases: {
      plate: string;
      evidence: Evidence;
      vehicleApproved: boolean;
      faceVerified: boolean;
      matchScore: number | null;
    }[] = [];
    for (const [plate, evidences] of [
      ['CB10GP', ['none', 'match', 'no_match']],
      ['CB99GP', ['none', 'match']], // not registered: no reference, so a face is not compared
    ] as const)
      for (const evidence of evidences)
        for (const vehicleApproved of [true, false])
          for (const faceVerified of [true, false])
            for (const matchScore of [null, 45, 99.9])
              cases.push({ plate, evidence, vehicleApproved, faceVerified, matchScore });

    for (const claim of cases) {
      faceEngine.matchScore = claim.evidence === 'no_match' ? 41.5 : 86.5;
      const response = await grant(admin, {
        plateNumber: claim.plate,
        vehicleApproved: claim.vehicleApproved,
        faceVerified: claim.faceVerified,
        matchScore: claim.matchScore,
        ...(claim.evidence !== 'none' ? { driverFaceImage: photo } : {}),
      });
      expect(response.statusCode, JSON.stringify(claim)).toBe(201);
      const entry = response.json<{
        vehicleApproved: boolean;
        faceVerified: boolean;
        matchScore: number | null;
        warnings: { code: string }[];
      }>();
      const registered = claim.plate === 'CB10GP';
      const compared = registered && claim.evidence !== 'none';
      const codes = entry.warnings.map((warning) => warning.code);
      expect(entry.vehicleApproved, JSON.stringify(claim)).toBe(registered);
      expect(entry.faceVerified, JSON.stringify(claim)).toBe(
        compared && claim.evidence === 'match',
      );
      expect(entry.matchScore, JSON.stringify(claim)).toBe(
        compared ? (claim.evidence === 'match' ? 86.5 : 41.5) : null,
      );
      const claimsFace = claim.faceVerified || claim.matchScore !== null;
      expect(codes.includes('face_claim_unbacked'), JSON.stringify(claim)).toBe(
        !compared && claimsFace,
      );
      expect(codes.includes('vehicle_claim_contradicted'), JSON.stringify(claim)).toBe(
        claim.vehicleApproved && !registered,
      );
      // The auto gate's refusals come from the evidence, whatever the client claimed.
      const reason = !registered
        ? 'not_registered'
        : claim.evidence === 'match'
          ? null
          : claim.evidence === 'no_match'
            ? 'face_mismatch'
            : 'face_error';
      expect(
        response.json<{ entryGranted: boolean; refusalReason: string | null }>(),
        JSON.stringify(claim),
      ).toMatchObject({ entryGranted: reason === null, refusalReason: reason });
      expect(codes.includes('grant_claim_contradicted'), JSON.stringify(claim)).toBe(
        reason !== null,
      );
    }
    const [stored] = await t.ownerQuery<{ total: string; verified: string }>(
      `select count(*) as total, count(*) filter (where face_verified) as verified
         from entry_logs where tenant_id = $1`,
      [admin.body.tenant.id],
    );
    expect(Number(stored?.total)).toBe(cases.length);
    expect(Number(stored?.verified)).toBe(12); // CB10GP with a matching face: 2 × 2 × 3 claims
  });

  it('records a face the engine cannot compare as not verified, with a warning', async () => {
    const admin = await t.registerTenant();
    await enrol(admin, 'NF10GP');
    faceEngine.error = 'No face found in the image.';

    const response = await grant(admin, {
      plateNumber: 'NF10GP',
      driverFaceImage: photo,
      entryGranted: false,
      refusalReason: 'face_error',
    });

    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      faceVerified: false,
      matchScore: null,
      entryGranted: false,
      refusalReason: 'face_error',
      warnings: [
        {
          code: 'face_comparison_failed',
          message: expect.stringContaining('No face found'),
          fields: ['driverFaceImage'],
        },
      ],
    });
  });

  it("exports a driver's face comparisons and unlinks them on erasure (POPIA)", async () => {
    const admin = await t.registerTenant();
    const idNumber = '8001015009087';
    const onboarded = await admin.post('/api/onboarding/drivers', {
      name: 'Lerato',
      surname: 'Mokoena',
      idNumber,
      phone: '0821234567',
      plateNumber: 'PD10GP',
    });
    expect(onboarded.statusCode, onboarded.body).toBe(201);
    const vehicle = await enrol(admin, 'PD11GP');
    const { comparisonId } = (
      await admin.post('/api/face-comparison', { image1: photo, approvedVehicleId: vehicle.id })
    ).json<{ comparisonId: string }>();
    // A comparison against the driver's own record (the vehicle above has no link to it).
    await t.ownerQuery(
      `update face_comparisons set driver_id = (select id from drivers where tenant_id = $1)
        where tenant_id = $1 and id = $2`,
      [admin.body.tenant.id, comparisonId],
    );

    const exported = (await admin.post('/api/data-subjects/export', { idNumber })).json();
    const erased = await admin.post('/api/data-subjects/erase', { idNumber });

    expect(exported.records.faceComparisons).toEqual([
      expect.objectContaining({ id: comparisonId, matchScore: 88, decision: 'match' }),
    ]);
    expect(erased.statusCode).toBe(200);
    expect(erased.json().erased).toMatchObject({ faceComparisons: 1 });
    expect(
      await t.ownerQuery(`select driver_id, match_score from face_comparisons where id = $1`, [
        comparisonId,
      ]),
    ).toEqual([{ driver_id: null, match_score: 88 }]);
  });

  describe('refused attempts', () => {
    it('are logged with their reason, listed, and lower the Approval Rate', async () => {
      const admin = await t.registerTenant();
      const guard = await t.createSignedInUser(admin, 'security_guard');
      await enrol(admin, 'RF10GP');
      await grant(guard, { plateNumber: 'RF10GP', driverFaceImage: photo });
      await grant(guard, { plateNumber: 'RF10GP', driverFaceImage: photo });
      expect((await admin.get('/api/dashboard')).json()).toMatchObject({
        totalEntries: 2,
        approvalRate: 100,
      });

      const notRegistered = await grant(guard, {
        plateNumber: 'RF99GP',
        vehicleApproved: false,
        entryGranted: false,
        refusalReason: 'not_registered',
      });
      faceEngine.matchScore = 41.5;
      const faceMismatch = await grant(guard, {
        plateNumber: 'RF10GP',
        driverFaceImage: photo,
        entryGranted: false,
        refusalReason: 'face_mismatch',
      });

      expect(notRegistered.statusCode).toBe(201);
      expect(notRegistered.json()).toMatchObject({
        id: expect.any(String),
        entryGranted: false,
        vehicleApproved: false,
        faceVerified: false,
        matchScore: null,
        refusalReason: 'not_registered',
        warnings: [],
      });
      expect(faceMismatch.json()).toMatchObject({
        entryGranted: false,
        refusalReason: 'face_mismatch',
      });
      const listed = (await admin.get('/api/entry-logs')).json<
        { id: string; entryGranted: boolean; refusalReason: string | null }[]
      >();
      expect(listed.find((entry) => entry.id === notRegistered.json().id)).toMatchObject({
        entryGranted: false,
        refusalReason: 'not_registered',
      });
      expect((await admin.get('/api/dashboard')).json()).toMatchObject({
        totalEntries: 4,
        grantedEntries: 2,
        approvedEntries: 3,
        approvalRate: 50,
      });
      expect(
        await t.ownerQuery(
          `select details->>'refusalReason' as reason from audit_events
            where tenant_id = $1 and action = 'entry.refused' order by occurred_at, id`,
          [admin.body.tenant.id],
        ),
      ).toHaveLength(2);
    });

    it('default to guard_refused, and a granted entry takes no reason', async () => {
      const admin = await t.registerTenant();

      // The real gate refuses nothing itself: the refusal is the guard's.
      const refused = await grant(admin, {
        category: 'visitor',
        plateNumber: 'GR10GP',
        entryGranted: false,
      });
      const contradictory = await grant(admin, {
        plateNumber: 'GR10GP',
        entryGranted: true,
        refusalReason: 'face_mismatch',
      });
      const unknownReason = await grant(admin, {
        plateNumber: 'GR10GP',
        entryGranted: false,
        refusalReason: 'watchlist',
      });

      expect(refused.json()).toMatchObject({ entryGranted: false, refusalReason: 'guard_refused' });
      expect(contradictory.statusCode).toBe(400);
      expect(contradictory.json().error.message).toContain('A granted entry has no refusal reason');
      expect(unknownReason.statusCode).toBe(400);
    });
  });

  describe('the server derives the refusal from its evidence (entry-decision.ts)', () => {
    const expire = async (admin: Session, plateNumber: string) => {
      const created = await admin.post('/api/approved-vehicles', {
        plateNumber,
        driverName: 'Sipho Nkosi',
        approvedUntil: '2020-01-31',
      });
      expect(created.statusCode).toBe(201);
    };

    it('refuses an auto-gate grant the register or the face contradicts, with a warning', async () => {
      const admin = await t.registerTenant();
      const guard = await t.createSignedInUser(admin, 'security_guard');
      await enrol(admin, 'DR10GP');
      await expire(admin, 'DR11GP');
      const claim = { vehicleApproved: true, faceVerified: true, matchScore: 99.9 };

      const unregistered = await grant(guard, { plateNumber: 'DR99GP', ...claim });
      const expired = await grant(guard, { plateNumber: 'DR11GP', ...claim });
      const noFace = await grant(guard, { plateNumber: 'DR10GP', ...claim });
      faceEngine.matchScore = 52;
      const stranger = await grant(guard, {
        plateNumber: 'DR10GP',
        driverFaceImage: photo,
        ...claim,
      });
      faceEngine.error = 'No face found in the image.';
      const noFaceFound = await grant(guard, {
        plateNumber: 'DR10GP',
        driverFaceImage: photo,
        ...claim,
      });

      for (const [response, reason] of [
        [unregistered, 'not_registered'],
        [expired, 'registration_expired'],
        [noFace, 'face_error'],
        [stranger, 'face_mismatch'],
        [noFaceFound, 'face_error'],
      ] as const) {
        expect(response.statusCode).toBe(201);
        expect(response.json(), reason).toMatchObject({
          entryGranted: false,
          refusalReason: reason,
          warnings: expect.arrayContaining([
            expect.objectContaining({ code: 'grant_claim_contradicted', fields: ['entryGranted'] }),
          ]),
        });
      }
      const listed = (await admin.get('/api/entry-logs')).json<{ entryGranted: boolean }[]>();
      expect(listed.filter((entry) => !entry.entryGranted)).toHaveLength(5);
      expect((await admin.get('/api/dashboard')).json()).toMatchObject({
        totalEntries: 5,
        grantedEntries: 0,
        approvalRate: 0,
      });
      const audited = await t.ownerQuery<{ reason: string }>(
        `select details->>'refusalReason' as reason from audit_events
          where tenant_id = $1 and action = 'entry.refused'`,
        [admin.body.tenant.id],
      );
      expect(audited.map((row) => row.reason).sort()).toEqual([
        'face_error',
        'face_error',
        'face_mismatch',
        'not_registered',
        'registration_expired',
      ]);
    });

    it('grants a vehicle with no driver photo without a face, and logs the real gate’s unregistered vehicles', async () => {
      const admin = await t.registerTenant();
      await admin.post('/api/approved-vehicles', { plateNumber: 'DR20GP', driverName: 'Ann Dube' });
      await expire(admin, 'DR21GP');

      const noPhoto = await grant(admin, { plateNumber: 'DR20GP', vehicleApproved: true });
      const realGate = await grant(admin, { category: 'visitor', plateNumber: 'DR29GP' });
      const realGateExpired = await grant(admin, { category: 'visitor', plateNumber: 'DR21GP' });

      for (const response of [noPhoto, realGate, realGateExpired])
        expect(response.json()).toMatchObject({
          entryGranted: true,
          refusalReason: null,
          faceVerified: false,
        });
      expect(realGate.json().vehicleApproved).toBe(false);
    });

    it('stores the evidence’s reason and warns when the client’s reason contradicts it', async () => {
      const admin = await t.registerTenant();
      await enrol(admin, 'DR30GP');

      // The face matched (88): the screen's face_mismatch is not what the server saw.
      const matched = await grant(admin, {
        plateNumber: 'DR30GP',
        driverFaceImage: photo,
        entryGranted: false,
        refusalReason: 'face_mismatch',
      });
      const registered = await grant(admin, {
        plateNumber: 'DR30GP',
        driverFaceImage: photo,
        entryGranted: false,
        refusalReason: 'not_registered',
      });
      const unregistered = await grant(admin, {
        plateNumber: 'DR39GP',
        entryGranted: false,
        refusalReason: 'face_error',
      });

      expect(matched.json()).toMatchObject({
        entryGranted: false,
        faceVerified: true,
        refusalReason: 'guard_refused',
        warnings: [
          expect.objectContaining({
            code: 'refusal_reason_contradicted',
            fields: ['refusalReason'],
            message: expect.stringContaining('face_mismatch'),
          }),
        ],
      });
      expect(registered.json()).toMatchObject({
        refusalReason: 'guard_refused',
        warnings: [expect.objectContaining({ code: 'refusal_reason_contradicted' })],
      });
      expect(unregistered.json()).toMatchObject({
        refusalReason: 'not_registered',
        warnings: [
          expect.objectContaining({
            code: 'refusal_reason_contradicted',
            message: expect.stringContaining('shows not_registered'),
          }),
        ],
      });
    });
  });

  describe('rules on the cited documents', () => {
    const saveDocuments = async (admin: Session) => ({
      disc: (
        await admin.post('/api/licence-disc', {
          licenceNumber: 'CA 123-456',
          vehicleRegisterNo: 'HXV436S',
          gvm: '16 500',
          dateOfExpiry: '2020-07-31',
        })
      ).json<{ id: string }>().id,
      identity: (
        await admin.post('/api/identity-document', {
          identityNumber: '8001015009087',
          givenNames: 'Thabo',
          surname: 'Mokoena',
          phone1: '0821111111',
        })
      ).json<{ id: string }>().id,
      licence: (
        await admin.post('/api/drivers-licence', {
          nameOnCard: 'T MOKOENA',
          idNumber: '8001015009087',
          validTo: '31/12/2099',
          vehicleCode: 'B',
          phone1: '0832222222',
        })
      ).json<{ id: string }>().id,
      ticket: (
        await admin.post('/api/weighbridge-ticket', {
          ticketNumber: 'T-1',
          vehicleReg: 'CA654321',
          transporter: 'Kumba Haulage',
        })
      ).json<{ id: string }>().id,
    });

    it('cross-checks plate, names, expiry and licence code when the entry is saved', async () => {
      const admin = await t.registerTenant();
      const docs = await saveDocuments(admin);

      const response = await grant(admin, {
        category: 'visitor',
        plateNumber: 'CA123456',
        vehicleLicenceDiscId: docs.disc,
        identityDocumentId: docs.identity,
        driversLicenceId: docs.licence,
        weighbridgeTicketId: docs.ticket,
        warnings: ['Plate entered by the guard'],
      });

      expect(response.statusCode).toBe(201);
      const warnings = response.json<{ warnings: { code: string; severity: string }[] }>().warnings;
      expect(warnings).toEqual([
        {
          code: 'plate_mismatch',
          severity: 'warning',
          message: 'The weighbridge ticket is for CA654321, but the plate reads CA123456.',
          fields: ['plateNumber', 'weighbridgeTicket.vehicleReg'],
        },
        {
          code: 'document_expired',
          severity: 'critical',
          message: 'Licence disc expired on 2020-07-31.',
          fields: ['licenceDisc.dateOfExpiry'],
        },
        {
          code: 'licence_code_insufficient',
          severity: 'warning',
          message: 'The licence codes (B) do not cover a vehicle of 16500 kg GVM.',
          fields: ['driversLicence.vehicleCode', 'licenceDisc.gvm'],
        },
        {
          code: 'guard_note',
          severity: 'info',
          message: 'Plate entered by the guard',
          fields: [],
        },
      ]);
    });

    it('takes driver details from the documents by the spec’s precedence, whatever the client sent', async () => {
      const admin = await t.registerTenant();
      await admin.post('/api/approved-vehicles', {
        plateNumber: 'CA123456',
        driverName: 'Johan Botha',
      });
      const docs = await saveDocuments(admin);

      const response = await grant(admin, {
        category: 'visitor',
        plateNumber: 'CA123456',
        identityDocumentId: docs.identity,
        driversLicenceId: docs.licence,
        driverName: 'Someone Else',
        driverIdNumber: '9999999999999',
        driverPhone1: '0843333333',
      });

      expect(response.json()).toMatchObject({
        driverName: 'T MOKOENA',
        driverIdNumber: '8001015009087',
        driverPhone1: '0821111111',
        driverPhone2: '0832222222',
        driverPhone3: '0843333333',
      });
      const codes = response.json<{ warnings: { code: string }[] }>().warnings;
      expect(codes).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            code: 'name_mismatch',
            fields: expect.arrayContaining(['approvedVehicle.driverName']),
          }),
          expect.objectContaining({
            code: 'driver_detail_replaced',
            severity: 'info',
            fields: ['driverName', 'driverIdNumber'],
          }),
        ]),
      );
    });

    it('refuses a cited document of another organization, naming the field', async () => {
      const admin = await t.registerTenant();
      const other = await t.registerTenant();
      const foreign = (await saveDocuments(other)).identity;

      const response = await grant(admin, { plateNumber: 'CA123456', identityDocumentId: foreign });

      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toContain('identityDocumentId');
      expect(
        await t.ownerQuery('select 1 from entry_logs where tenant_id = $1', [admin.body.tenant.id]),
      ).toHaveLength(0);
    });
  });
});
