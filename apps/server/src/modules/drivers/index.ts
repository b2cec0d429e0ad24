/**
 * Drivers: the tenant's register of drivers (ID number, names, phone, licence, transport company,
 * optional selfie and licence image in object storage), the signed reference a driver's QR code
 * carries, and the selfie retention purge. Records are created by the onboarding module.
 * Owns: drivers.
 */
import { z } from 'zod';

import type { ImagesService } from '@/modules/images';
import { type ScheduledJob, defineJob } from '@/platform/jobs';

import { createDriverReferenceSigner } from './driver-reference';
import { createDriversRepository } from './drivers.repository';
import { driversRoutes } from './drivers.routes';
import { type DriversServiceDeps, createDriversService } from './drivers.service';
import { createDriversPersonalData } from './drivers.personal-data';

export type { DriversService } from './drivers.service';
export type { DriverRow, NewDriverRow } from './drivers.table';
export { ONBOARDING_ROLES, toDriver } from './drivers.routes';

export function createDriversModule(
  deps: Omit<DriversServiceDeps, 'repository' | 'signer' | 'images'> & {
    images: DriversServiceDeps['images'] & Pick<ImagesService, 'urlFor'>;
    /** The data encryption key; the reference key is derived from it for that purpose only. */
    encryptionKey: Buffer;
  },
) {
  const service = createDriversService({
    ...deps,
    repository: createDriversRepository(),
    signer: createDriverReferenceSigner(deps.encryptionKey),
  });
  // Daily: selfies past their retention period are deleted (the driver record stays).
  const purgeBiometrics = defineJob({
    name: 'drivers.purge-biometrics',
    maxAttempts: 3,
    payload: z.unknown(),
    async run(_payload, { log }) {
      const purged = await service.purgeExpiredBiometrics();
      if (purged > 0) log('info', `purged the selfies of ${purged} driver(s)`);
    },
  });
  const schedules: ScheduledJob[] = [{ job: purgeBiometrics, schedule: '27 3 * * *' }];
  return {
    service,
    routes: driversRoutes(service, deps.images),
    personalData: createDriversPersonalData({ images: deps.images }),
    jobs: [purgeBiometrics],
    schedules,
  };
}
