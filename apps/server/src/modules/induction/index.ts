/**
 * Safety induction: safety videos with their quizzes, assignments of a video to a driver, the
 * watched-time heartbeats, server-side scoring and the validity of a driver's induction at the gate.
 * Owns: safety_videos, induction_assignments, induction_attempts.
 */
import type { ImagesService } from '@/modules/images';

import { createInductionPersonalData } from './induction.personal-data';
import { createInductionRepository } from './induction.repository';
import { inductionRoutes } from './induction.routes';
import { type InductionServiceDeps, createInductionService } from './induction.service';

export type { InductionService } from './induction.service';

export function createInductionModule(
  deps: Omit<InductionServiceDeps, 'repository' | 'images'> & {
    images: InductionServiceDeps['images'] & Pick<ImagesService, 'urlFor'>;
  },
) {
  const service = createInductionService({ ...deps, repository: createInductionRepository() });
  return {
    service,
    routes: inductionRoutes(service, deps.images),
    personalData: createInductionPersonalData({ images: deps.images }),
  };
}
