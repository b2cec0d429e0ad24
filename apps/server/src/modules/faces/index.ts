/**
 * Faces: compares a driver's live face with the photo on file, with a calibrated score and the
 * spec's threshold of 70. Every comparison is a record (the evidence an entry's face verdict
 * cites) and an audit event (biometric data, POPIA). Owns: face_comparisons.
 */
import type { CapturesService } from '@/modules/captures';

import { createFacesPersonalData } from './faces.personal-data';
import { createFacesRepository } from './faces.repository';
import { facesRoutes } from './faces.routes';
import { type FacesServiceDeps, createFacesService } from './faces.service';

export {
  FACE_COMPARED_ACTION,
  type FaceComparisonResult,
  type FaceEvidence,
  type FacesService,
  decideComparison,
} from './faces.service';

export function createFacesModule(
  deps: Omit<FacesServiceDeps, 'repository'> & {
    captures: FacesServiceDeps['captures'] & Pick<CapturesService, 'imageKeysOf'>;
  },
) {
  const service = createFacesService({ ...deps, repository: createFacesRepository() });
  // The subject's comparisons and their live faces' retention (the privacy module runs them).
  const personalData = createFacesPersonalData({ captures: deps.captures });
  return { service, routes: facesRoutes(service), personalData };
}
