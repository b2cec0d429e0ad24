/**
 * Vision: reads documents and checks face captures through packages/vision (offline engines in
 * worker threads). Owns no table; reading an identity document leaves an audit event.
 */
import { visionRoutes } from './vision.routes';
import { type VisionServiceDeps, createVisionService } from './vision.service';

export { createLazyVisionEngine, type GateVisionEngine } from './lazy-engine';
export {
  createVisionAdmission,
  withVisionAdmission,
  type UserVisionEngine,
  type VisionAdmission,
} from './vision-admission';
export { toAppError as visionErrorToAppError } from './vision.service';
export type { VisionService } from './vision.service';

export function createVisionModule(deps: VisionServiceDeps) {
  const service = createVisionService(deps);
  return { service, routes: visionRoutes(service) };
}
