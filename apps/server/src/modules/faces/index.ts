/**
 * Faces: compares a driver's live face with the photo on file, with a calibrated score and the
 * spec's threshold of 70; every comparison is audited (biometric data, POPIA). Owns no table yet.
 */
import { facesRoutes } from './faces.routes';
import { type FacesServiceDeps, createFacesService } from './faces.service';

export { FACE_COMPARED_ACTION, type FacesService } from './faces.service';

export function createFacesModule(deps: FacesServiceDeps) {
  const service = createFacesService(deps);
  return { service, routes: facesRoutes(service) };
}
