/**
 * Approved vehicles: the register of contracted vehicles and their expected drivers, with the
 * driver photo (stored only with recorded consent) and the approval's end date.
 * Owns: approved_vehicles.
 */
import type { ImagesService } from '@/modules/images';

import { createApprovedVehiclesRepository } from './approved-vehicles.repository';
import { approvedVehiclesRoutes } from './approved-vehicles.routes';
import {
  type ApprovedVehiclesServiceDeps,
  createApprovedVehiclesService,
} from './approved-vehicles.service';

export type { ApprovedVehiclesService } from './approved-vehicles.service';
export { approvalStatus } from './approval';

export function createApprovedVehiclesModule(
  deps: Omit<ApprovedVehiclesServiceDeps, 'repository' | 'images'> & {
    images: ApprovedVehiclesServiceDeps['images'] & Pick<ImagesService, 'urlFor'>;
  },
) {
  const service = createApprovedVehiclesService({
    ...deps,
    repository: createApprovedVehiclesRepository(),
  });
  return { service, routes: approvedVehiclesRoutes(service, deps.images) };
}
