import {
  FACE_MATCH_THRESHOLD,
  type FaceComparisonRequest,
  type FaceComparisonResponse,
} from '@boomgate/contracts/faces';

import type { ApprovedVehiclesService } from '@/modules/approved-vehicles';
import type { AuditService } from '@/modules/audit';
import type { CapturesService } from '@/modules/captures';
import type { ImagesService } from '@/modules/images';
import type { Actor } from '@/modules/sessions';
import type { SettingsService } from '@/modules/settings';
import { type GateVisionEngine, visionErrorToAppError } from '@/modules/vision';
import type { Database } from '@/platform/db';
import { AppError } from '@/platform/errors';
import { decodeImagePayload } from '@/platform/images';

export type FacesServiceDeps = {
  engine: Pick<GateVisionEngine, 'embedFace' | 'compareFaceToDescriptor'>;
  database: Pick<Database, 'withTenant'>;
  vehicles: Pick<ApprovedVehiclesService, 'getDriverReference'>;
  images: Pick<ImagesService, 'readImage'>;
  audit: Pick<AuditService, 'record'>;
  settings: Pick<SettingsService, 'settingsOf'>;
  captures: Pick<CapturesService, 'readCapture'>;
};

export type FacesService = ReturnType<typeof createFacesService>;

const round1 = (value: number) => Math.round(value * 10) / 10;

/** The audit action of a comparison; grant-entry reads these records back (`faceComparisonId`). */
export const FACE_COMPARED_ACTION = 'face.compared';

export function createFacesService({
  engine,
  database,
  vehicles,
  images,
  audit,
  settings,
  captures,
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
  async function compareWithEnrolled(actor: Actor, live: Uint8Array, approvedVehicleId: string) {
    const reference = await vehicles.getDriverReference(actor, approvedVehicleId);
    if (reference.descriptor) {
      const result = await engine.compareFaceToDescriptor(live, reference.descriptor, {
        antispoof: true,
      });
      if (!result.ok) throw new AppError('UNPROCESSABLE', result.error.message);
      return {
        matchScore: result.matchScore,
        live: result.face.box,
        reference: null,
        liveness: result.face.antispoof?.real ?? null,
      };
    }
    if (!reference.photoKey)
      throw new AppError('UNPROCESSABLE', 'No driver photo on file for comparison.');
    return compareTwoPhotos(live, await images.readImage(actor, reference.photoKey));
  }

  /**
   * The reference photo is embedded first, then the live photo is compared with its descriptor:
   * the same two embeddings as a plain comparison, and the live face also gets its anti-spoofing
   * score (which only the live capture needs).
   */
  async function compareTwoPhotos(live: Uint8Array, photo: Uint8Array) {
    const reference = await engine.embedFace(photo);
    if (!reference.ok) throw new AppError('UNPROCESSABLE', reference.error.message);
    const result = await engine.compareFaceToDescriptor(live, reference.descriptor, {
      antispoof: true,
    });
    if (!result.ok) throw new AppError('UNPROCESSABLE', result.error.message);
    return {
      matchScore: result.matchScore,
      live: result.face.box,
      reference: reference.box,
      liveness: result.face.antispoof?.real ?? null,
    };
  }

  return {
    /**
     * Compares the live face with the reference. Never returns a score without a face in each
     * photo: "no face" and "more than one face" are 422 errors, never a match.
     */
    async compareFaces(
      actor: Actor,
      request: FaceComparisonRequest,
      ip?: string,
    ): Promise<FaceComparisonResponse> {
      const live = await photoOf(actor, request.image1, request.image1CaptureId);
      if (live === null) throw new AppError('INVALID', 'Send either image1 or image1CaptureId');
      const reference = await photoOf(actor, request.image2, request.image2CaptureId);
      const { antispoofGating, antispoofThreshold } = await database.withTenant(
        actor.tenantId,
        (tx) => settings.settingsOf(tx, actor.tenantId),
      );
      const result = await (
        reference !== null
          ? compareTwoPhotos(live, reference)
          : compareWithEnrolled(actor, live, request.approvedVehicleId ?? '')
      ).catch((error: unknown) => {
        throw error instanceof AppError ? error : visionErrorToAppError(error);
      });

      const matchScore = round1(result.matchScore);
      const liveness = result.liveness === null ? null : Math.round(result.liveness * 1000) / 1000;
      // Gating fails closed: a live photo whose score could not be measured is not trusted.
      const antispoofPassed = liveness === null ? null : liveness >= antispoofThreshold;
      const decision =
        antispoofGating && antispoofPassed !== true
          ? 'spoof_suspected'
          : matchScore >= FACE_MATCH_THRESHOLD
            ? 'match'
            : 'no_match';
      const antispoof = {
        gating: antispoofGating,
        threshold: antispoofThreshold,
        passed: antispoofPassed,
      };
      const comparisonId = await database.withTenant(actor.tenantId, (tx) =>
        audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: FACE_COMPARED_ACTION,
          targetType: request.approvedVehicleId ? 'approved_vehicle' : undefined,
          targetId: request.approvedVehicleId,
          ip,
          details: { matchScore, decision, liveness, antispoof },
        }),
      );
      return {
        matchScore,
        threshold: FACE_MATCH_THRESHOLD,
        decision,
        faces: { live: result.live, reference: result.reference },
        liveness,
        antispoof,
        comparisonId,
      };
    },
  };
}
