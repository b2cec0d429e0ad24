/**
 * Faces: compares a driver's live face with the photo on file, with a calibrated score and the
 * spec's threshold of 70. Every comparison is a record (the evidence an entry's face verdict
 * cites) and an audit event (biometric data, POPIA). Owns: face_comparisons.
 */
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

export function createFacesModule(deps: Omit<FacesServiceDeps, 'repository'>) {
  const service = createFacesService({ ...deps, repository: createFacesRepository() });
  // The subject's comparisons, by driver record (the privacy module runs it).
  return { service, routes: facesRoutes(service), personalData: createFacesPersonalData() };
}
