import {
  FACE_MATCH_THRESHOLD,
  type FaceComparisonRequest,
  type FaceComparisonResponse,
} from '@boomgate/contracts/faces';

import type { ApprovedVehiclesService } from '@/modules/approved-vehicles';
import type { AuditService } from '@/modules/audit';
import type { ImagesService } from '@/modules/images';
import type { Actor } from '@/modules/sessions';
import { type GateVisionEngine, visionErrorToAppError } from '@/modules/vision';
import type { Database } from '@/platform/db';
import { AppError } from '@/platform/errors';
import { decodeImagePayload } from '@/platform/images';

export type FacesServiceDeps = {
  engine: Pick<GateVisionEngine, 'compareFaces' | 'compareFaceToDescriptor'>;
  database: Pick<Database, 'withTenant'>;
  vehicles: Pick<ApprovedVehiclesService, 'getDriverReference'>;
  images: Pick<ImagesService, 'readImage'>;
  audit: Pick<AuditService, 'record'>;
};

export type FacesService = ReturnType<typeof createFacesService>;

const round1 = (value: number) => Math.round(value * 10) / 10;

export function createFacesService({
  engine,
  database,
  vehicles,
  images,
  audit,
}: FacesServiceDeps) {
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

  async function compareTwoPhotos(live: Uint8Array, photo: Uint8Array) {
    const result = await engine.compareFaces(live, photo);
    if (!result.ok) throw new AppError('UNPROCESSABLE', result.error.message);
    const [liveFace, referenceFace] = result.faces;
    return {
      matchScore: result.matchScore,
      live: liveFace.box,
      reference: referenceFace.box,
      liveness: liveFace.antispoof?.real ?? null,
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
      const result = await (
        request.image2 !== undefined
          ? compareTwoPhotos(live, decodeImagePayload(request.image2).bytes)
          : compareWithEnrolled(actor, live, request.approvedVehicleId ?? '')
      ).catch((error: unknown) => {
        throw error instanceof AppError ? error : visionErrorToAppError(error);
      });

      const matchScore = round1(result.matchScore);
      const decision = matchScore >= FACE_MATCH_THRESHOLD ? 'match' : 'no_match';
      await database.withTenant(actor.tenantId, (tx) =>
        audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'face.compared',
          targetType: request.approvedVehicleId ? 'approved_vehicle' : undefined,
          targetId: request.approvedVehicleId,
          ip,
          details: { matchScore, decision, liveness: result.liveness },
        }),
      );
      return {
        matchScore,
        threshold: FACE_MATCH_THRESHOLD,
        decision,
        faces: { live: result.live, reference: result.reference },
        liveness: result.liveness,
      };
    },
  };
}
