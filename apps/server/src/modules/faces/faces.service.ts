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
  engine: Pick<GateVisionEngine, 'compareFaces'>;
  database: Pick<Database, 'withTenant'>;
  vehicles: Pick<ApprovedVehiclesService, 'getVehicle'>;
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
  /** The driver photo on file for an approved vehicle; 422 when the vehicle has none. */
  async function referencePhoto(actor: Actor, approvedVehicleId: string): Promise<Uint8Array> {
    const vehicle = await vehicles.getVehicle(actor, approvedVehicleId);
    if (!vehicle.driverPhotoKey)
      throw new AppError('UNPROCESSABLE', 'No driver photo on file for comparison.');
    return images.readImage(actor, vehicle.driverPhotoKey);
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
        request.image2 !== undefined
          ? decodeImagePayload(request.image2).bytes
          : await referencePhoto(actor, request.approvedVehicleId ?? '');
      const result = await engine.compareFaces(live, reference).catch((error: unknown) => {
        throw visionErrorToAppError(error);
      });
      if (!result.ok) throw new AppError('UNPROCESSABLE', result.error.message);

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
          details: { matchScore, decision },
        }),
      );
      const [liveFace, referenceFace] = result.faces;
      return {
        matchScore,
        threshold: FACE_MATCH_THRESHOLD,
        decision,
        faces: { live: liveFace.box, reference: referenceFace.box },
        liveness: liveFace.antispoof?.real ?? null,
      };
    },
  };
}
