import {
  FACE_MATCH_THRESHOLD,
  type FaceComparisonRequest,
  type FaceComparisonResponse,
} from '@boomgate/contracts/faces';

import type { ApprovedVehiclesService } from '@/modules/approved-vehicles';
import type { AuditService } from '@/modules/audit';
import type { ImagesService } from '@/modules/images';
import type { Actor } from '@/modules/sessions';
import type { SettingsService } from '@/modules/settings';
import { type UserVisionEngine, visionErrorToAppError } from '@/modules/vision';
import type { Database } from '@/platform/db';
import { AppError } from '@/platform/errors';
import { decodeImagePayload } from '@/platform/images';

export type FacesServiceDeps = {
  engine: {
    forUser(userId: string): Pick<UserEngine, 'embedFace' | 'compareFaceToDescriptor'>;
  };
  database: Pick<Database, 'withTenant'>;
  vehicles: Pick<ApprovedVehiclesService, 'getDriverReference'>;
  images: Pick<ImagesService, 'readImage'>;
  audit: Pick<AuditService, 'record'>;
  settings: Pick<SettingsService, 'settingsOf'>;
};

export type FacesService = ReturnType<typeof createFacesService>;

type UserEngine = ReturnType<UserVisionEngine['forUser']>;
type FaceEngine = Pick<UserEngine, 'embedFace' | 'compareFaceToDescriptor'>;

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
}: FacesServiceDeps) {
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
      };
    }
    if (!reference.photoKey)
      throw new AppError('UNPROCESSABLE', 'No driver photo on file for comparison.');
    return compareTwoPhotos(faces, live, await images.readImage(actor, reference.photoKey));
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
      const live = decodeImagePayload(request.image1).bytes;
      const reference =
        request.image2 !== undefined ? decodeImagePayload(request.image2).bytes : null;
      const { antispoofGating, antispoofThreshold } = await database.withTenant(
        actor.tenantId,
        (tx) => settings.settingsOf(tx, actor.tenantId),
      );
      const faces = engine.forUser(actor.userId);
      const result = await (
        reference !== null
          ? compareTwoPhotos(faces, live, reference)
          : compareWithEnrolled(faces, actor, live, request.approvedVehicleId ?? '')
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
