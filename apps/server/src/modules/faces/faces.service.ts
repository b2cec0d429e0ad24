import {
  FACE_MATCH_THRESHOLD,
  type FaceComparisonRequest,
  type FaceComparisonResponse,
  isFaceMatch,
} from '@boomgate/contracts/faces';

import type { ApprovedVehiclesService } from '@/modules/approved-vehicles';
import type { AuditService } from '@/modules/audit';
import type { CapturesService } from '@/modules/captures';
import type { ImagesService } from '@/modules/images';
import type { Actor } from '@/modules/sessions';
import type { SettingsService } from '@/modules/settings';
import type { SiteFacts } from '@/modules/site-node';
import { type UserVisionEngine, visionErrorToAppError } from '@/modules/vision';
import type { Clock } from '@/platform/clock';
import type { Database, DbExecutor } from '@/platform/db';
import { AppError } from '@/platform/errors';
import { newId } from '@/platform/ids';
import { decodeImagePayload } from '@/platform/images';

import type { FacesRepository } from './faces.repository';

export type FacesServiceDeps = {
  engine: {
    forUser(userId: string): Pick<UserEngine, 'embedFace' | 'compareFaceToDescriptor'>;
  };
  database: Pick<Database, 'withTenant'>;
  vehicles: Pick<ApprovedVehiclesService, 'getDriverReference'>;
  images: Pick<ImagesService, 'readImage'>;
  audit: Pick<AuditService, 'record'>;
  settings: Pick<SettingsService, 'settingsOf'>;
  repository: FacesRepository;
  clock: Clock;
  captures: Pick<CapturesService, 'readCapture' | 'create' | 'resolveImage'>;
  /** Issue 28: on a site node, each comparison is also a fact for central. */
  siteFacts?: SiteFacts;
};

export type FacesService = ReturnType<typeof createFacesService>;

type UserEngine = ReturnType<UserVisionEngine['forUser']>;
type FaceEngine = Pick<UserEngine, 'embedFace' | 'compareFaceToDescriptor'>;

const round1 = (value: number) => Math.round(value * 10) / 10;

/** The audit action of a comparison (the record itself is a face_comparisons row). */
export const FACE_COMPARED_ACTION = 'face.compared';
/** A face comparison can back an entry for this long: the truck is at the gate, not tomorrow. */
export const FACE_COMPARISON_VALID_MS = 15 * 60_000;

type Decision = FaceComparisonResponse['decision'];
type Antispoof = { gating: boolean; threshold: number; passed: boolean | null };

/**
 * The verdict of a comparison. Gating fails closed: a live photo whose anti-spoofing score could
 * not be measured is not trusted; a score equal to the threshold passes, as 70.0 matches.
 */
export function decideComparison(
  matchScore: number,
  liveness: number | null,
  { antispoofGating, antispoofThreshold }: { antispoofGating: boolean; antispoofThreshold: number },
): { decision: Decision; antispoof: Antispoof } {
  const passed = liveness === null ? null : liveness >= antispoofThreshold;
  const decision: Decision =
    antispoofGating && passed !== true
      ? 'spoof_suspected'
      : isFaceMatch(matchScore)
        ? 'match'
        : 'no_match';
  return {
    decision,
    antispoof: { gating: antispoofGating, threshold: antispoofThreshold, passed },
  };
}

/** A comparison made, not yet recorded: grant-entry records it in the entry's transaction. */
export type FaceComparisonResult = {
  matchScore: number;
  decision: Decision;
  liveness: number | null;
  antispoof: Antispoof;
  faces: FaceComparisonResponse['faces'];
  reference: 'descriptor' | 'photo' | 'image';
  approvedVehicleId: string | null;
  driverId: string | null;
};

/** The face verdict an entry takes from a comparison record. */
export type FaceEvidence = { comparisonId: string; faceVerified: boolean; matchScore: number };

export function createFacesService({
  engine,
  database,
  vehicles,
  images,
  audit,
  settings,
  repository,
  clock,
  captures,
  siteFacts,
}: FacesServiceDeps) {
  /** A photo sent, or the capture cited for it (issue 14; 404 when not citable). */
  const photoOf = async (actor: Actor, image?: string, captureId?: string) =>
    image !== undefined
      ? decodeImagePayload(image).bytes
      : captureId !== undefined
        ? await captures.readCapture(actor, captureId)
        : null;

  /**
   * Compares with the approved vehicle's driver: against the enrolled descriptor when there is one
   * (only the live photo is analysed), else against the photo on file.
   */
  async function compareWithEnrolled(
    faces: FaceEngine,
    actor: Actor,
    live: Uint8Array,
    approvedVehicleId: string,
  ) {
    const reference = await vehicles.getDriverReference(actor, approvedVehicleId);
    if (reference.descriptor) {
      const result = await faces.compareFaceToDescriptor(live, reference.descriptor, {
        antispoof: true,
      });
      if (!result.ok) {
        throw new AppError('UNPROCESSABLE', result.error.message, { cause: result.error });
      }
      return {
        matchScore: result.matchScore,
        live: result.face.box,
        reference: null,
        liveness: result.face.antispoof?.real ?? null,
        kind: 'descriptor' as const,
        vehicle: reference.vehicle,
      };
    }
    if (!reference.photoKey)
      throw new AppError('UNPROCESSABLE', 'No driver photo on file for comparison.');
    return {
      ...(await compareTwoPhotos(faces, live, await images.readImage(actor, reference.photoKey))),
      kind: 'photo' as const,
      vehicle: reference.vehicle,
    };
  }

  /**
   * The reference photo is embedded first, then the live photo is compared with its descriptor:
   * the same two embeddings as a plain comparison, and the live face also gets its anti-spoofing
   * score (which only the live capture needs).
   */
  async function compareTwoPhotos(faces: FaceEngine, live: Uint8Array, photo: Uint8Array) {
    const reference = await faces.embedFace(photo);
    if (!reference.ok) {
      throw new AppError('UNPROCESSABLE', reference.error.message, { cause: reference.error });
    }
    const result = await faces.compareFaceToDescriptor(live, reference.descriptor, {
      antispoof: true,
    });
    if (!result.ok) {
      throw new AppError('UNPROCESSABLE', result.error.message, { cause: result.error });
    }
    return {
      matchScore: result.matchScore,
      live: result.face.box,
      reference: reference.box,
      liveness: result.face.antispoof?.real ?? null,
    };
  }

  /**
   * Compares the live face with the reference (a photo, or the approved vehicle's enrolled
   * driver) and decides, without recording anything. No face, or more than one, is a 422.
   */
  async function compare(
    actor: Actor,
    live: Uint8Array,
    reference: { image: Uint8Array } | { approvedVehicleId: string },
  ): Promise<FaceComparisonResult> {
    // The tenant's anti-spoofing settings are read while the engine compares (the gate waits on
    // the comparison, not on one more round trip before it).
    const settingsRead = database.withTenant(actor.tenantId, (tx) =>
      settings.settingsOf(tx, actor.tenantId),
    );
    const faces = engine.forUser(actor.userId);
    const comparing = (
      'image' in reference
        ? compareTwoPhotos(faces, live, reference.image).then((r) => ({
            ...r,
            kind: 'image' as const,
            vehicle: null,
          }))
        : compareWithEnrolled(faces, actor, live, reference.approvedVehicleId)
    ).catch((error: unknown) => {
      throw error instanceof AppError ? error : visionErrorToAppError(error);
    });
    const [tenantSettings, result] = await Promise.all([settingsRead, comparing]);
    const matchScore = round1(result.matchScore);
    const liveness = result.liveness === null ? null : Math.round(result.liveness * 1000) / 1000;
    return {
      matchScore,
      liveness,
      ...decideComparison(matchScore, liveness, tenantSettings),
      faces: { live: result.live, reference: result.reference },
      reference: result.kind,
      approvedVehicleId: result.vehicle?.id ?? null,
      driverId: result.vehicle?.driverId ?? null,
    };
  }

  /**
   * Writes the comparison's record and its audit event in the caller's transaction. The live
   * face's capture, when there is one, is cited by the record (kept while the comparison cites it;
   * released on retention or erasure, faces.personal-data.ts).
   */
  async function record(
    tx: DbExecutor,
    actor: Actor,
    result: FaceComparisonResult,
    {
      usedByEntryId,
      liveCaptureId,
      ip,
    }: { usedByEntryId?: string; liveCaptureId?: string | null; ip?: string },
  ): Promise<string> {
    const id = newId();
    const comparedAt = clock.now();
    if (liveCaptureId)
      await captures.resolveImage(tx, actor, { image: null, captureId: liveCaptureId });
    await repository.insert(tx, {
      tenantId: actor.tenantId,
      id,
      comparedAt,
      comparedBy: actor.userId,
      approvedVehicleId: result.approvedVehicleId,
      driverId: result.driverId,
      reference: result.reference,
      matchScore: result.matchScore,
      decision: result.decision,
      liveness: result.liveness,
      antispoofGating: result.antispoof.gating,
      antispoofThreshold: result.antispoof.threshold,
      antispoofPassed: result.antispoof.passed,
      usedByEntryId: usedByEntryId ?? null,
      liveCaptureId: liveCaptureId ?? null,
    });
    // Issue 28 (site node): the comparison goes to central (the entry that claims it names it).
    await siteFacts?.record(tx, {
      tenantId: actor.tenantId,
      gateId: null,
      kind: 'face_comparison',
      recordedAt: comparedAt,
      rowId: id,
    });
    await audit.record(tx, {
      tenantId: actor.tenantId,
      actorUserId: actor.userId,
      action: FACE_COMPARED_ACTION,
      targetType: result.approvedVehicleId ? 'approved_vehicle' : undefined,
      targetId: result.approvedVehicleId ?? undefined,
      ip,
      details: {
        comparisonId: id,
        matchScore: result.matchScore,
        decision: result.decision,
        liveness: result.liveness,
        antispoof: result.antispoof,
        ...(usedByEntryId ? { entryId: usedByEntryId } : {}),
      },
    });
    return id;
  }

  /**
   * The live face sent inline is stored once, as a capture (issue 14), while it is compared:
   * grant-entry cites it (`driverFaceImageCaptureId`) instead of uploading it again. A cited
   * capture is read and its id echoed. The capture's object is removed again if the comparison
   * fails (a photo without one face is a 422).
   */
  async function compareLiveCapture(
    actor: Actor,
    live: { image: string; bytes: Uint8Array } | { captureId: string | undefined },
    compareLive: (live: Uint8Array) => Promise<FaceComparisonResult>,
  ): Promise<{ image1CaptureId: string; result: FaceComparisonResult }> {
    if ('image' in live) {
      const { captureId, result } = await captures.create(
        actor,
        { image: live.image, type: 'face' },
        async () => ({ reading: null, result: await compareLive(live.bytes) }),
      );
      return { image1CaptureId: captureId, result };
    }
    if (live.captureId === undefined)
      throw new AppError('INVALID', 'Send either image1 or image1CaptureId');
    return {
      image1CaptureId: live.captureId,
      result: await compareLive(await captures.readCapture(actor, live.captureId)),
    };
  }

  return {
    /**
     * POST /api/face-comparison: compares and records. Never returns a score without a face in
     * each photo: "no face" and "more than one face" are 422 errors, never a match.
     */
    async compareFaces(
      actor: Actor,
      request: FaceComparisonRequest,
      ip?: string,
    ): Promise<FaceComparisonResponse> {
      // The photos are checked (format, size, pixel budget) and the reference read before the
      // live face is stored: a refused request leaves nothing behind.
      const live =
        request.image1 !== undefined
          ? { image: request.image1, bytes: decodeImagePayload(request.image1).bytes }
          : { captureId: request.image1CaptureId };
      const reference = await photoOf(actor, request.image2, request.image2CaptureId);
      const compareLive = (liveBytes: Uint8Array) =>
        compare(
          actor,
          liveBytes,
          reference !== null
            ? { image: reference }
            : { approvedVehicleId: request.approvedVehicleId ?? '' },
        );
      const { image1CaptureId, result } = await compareLiveCapture(actor, live, compareLive);
      const comparisonId = await database.withTenant(actor.tenantId, (tx) =>
        record(tx, actor, result, { ip, liveCaptureId: image1CaptureId }),
      );
      return {
        matchScore: result.matchScore,
        threshold: FACE_MATCH_THRESHOLD,
        decision: result.decision,
        faces: result.faces,
        liveness: result.liveness,
        antispoof: result.antispoof,
        comparisonId,
        image1CaptureId,
      };
    },

    /** grant-entry's own comparison of the face sent with an entry (recorded with `record`). */
    compareWithVehicle: (actor: Actor, live: Uint8Array, approvedVehicleId: string) =>
      compare(actor, live, { approvedVehicleId }),

    record,

    /** The comparison backing an entry, if any (issue 15: the entry detail). */
    findForEntry: (tx: DbExecutor, tenantId: string, entryId: string) =>
      repository.findForEntry(tx, tenantId, entryId),

    /**
     * The face evidence a cited comparison gives an entry: the caller's own (same user), recent,
     * made against the entry's vehicle when that vehicle has a driver on file, and backing no
     * other entry (claimed here, in the entry's transaction, for `entryId`).
     */
    async claimForEntry(
      tx: DbExecutor,
      actor: Actor,
      comparisonId: string,
      {
        entryId,
        vehicle,
      }: { entryId: string; vehicle: { id: string; hasReference: boolean } | null },
    ): Promise<FaceEvidence> {
      const row = await repository.find(tx, actor.tenantId, comparisonId);
      const isUsable =
        row !== undefined &&
        row.comparedBy === actor.userId &&
        clock.now().getTime() - row.comparedAt.getTime() <= FACE_COMPARISON_VALID_MS;
      if (!isUsable)
        throw new AppError(
          'INVALID',
          'The face comparison was not found or has expired: compare the face again.',
        );
      // A vehicle with a driver on file must be verified against that driver, not against a photo
      // the client chose (a two-photo comparison has no target).
      if ((row.approvedVehicleId || vehicle?.hasReference) && row.approvedVehicleId !== vehicle?.id)
        throw new AppError('INVALID', 'The face comparison was made for another vehicle.');
      const claimed = await repository.claim(tx, actor.tenantId, row.id, entryId);
      if (!claimed)
        throw new AppError(
          'INVALID',
          'The face comparison already backs another entry: compare the face again.',
        );
      return {
        comparisonId: row.id,
        faceVerified: row.decision === 'match',
        matchScore: row.matchScore,
      };
    },
  };
}
