/**
 * Approved vehicles: the register of contracted vehicles and their expected drivers, with the
 * driver photo (stored only with recorded consent) and the approval's end date.
 * Owns: approved_vehicles.
 */
import { z } from 'zod';

import type { ImagesService } from '@/modules/images';
import { type ScheduledJob, defineJob } from '@/platform/jobs';

import { createApprovedVehiclesRepository } from './approved-vehicles.repository';
import { approvedVehiclesRoutes } from './approved-vehicles.routes';
import {
  type ApprovedVehiclesServiceDeps,
  createApprovedVehiclesService,
} from './approved-vehicles.service';
import { createApprovedVehiclesPersonalData } from './approved-vehicles.personal-data';

export type { ApprovedVehiclesService } from './approved-vehicles.service';
export { approvalStatus } from './approval';
export { toApprovedVehicleDto } from './approved-vehicles.routes';

export function createApprovedVehiclesModule(
  deps: Omit<ApprovedVehiclesServiceDeps, 'repository' | 'images'> & {
    db: Parameters<typeof createApprovedVehiclesRepository>[0];
    images: ApprovedVehiclesServiceDeps['images'] & Pick<ImagesService, 'urlFor'>;
  },
) {
  const service = createApprovedVehiclesService({
    ...deps,
    repository: createApprovedVehiclesRepository(deps.db),
  });
  // Daily: driver photos and face descriptors past their retention period are purged.
  const purgeBiometrics = defineJob({
    name: 'approved-vehicles.purge-biometrics',
    maxAttempts: 3,
    payload: z.unknown(),
    async run(_payload, { log }) {
      const purged = await service.purgeExpiredBiometrics();
      if (purged > 0) log('info', `purged the biometric data of ${purged} approved vehicle(s)`);
    },
  });
  const schedules: ScheduledJob[] = [{ job: purgeBiometrics, schedule: '17 3 * * *' }];
  return {
    service,
    routes: approvedVehiclesRoutes(service, deps.images),
    personalData: createApprovedVehiclesPersonalData({ images: deps.images }),
    jobs: [purgeBiometrics],
    schedules,
  };
}
