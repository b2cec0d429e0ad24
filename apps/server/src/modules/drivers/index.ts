/**
 * Drivers: the tenant's register of drivers (ID number, names, phone, licence, transport company,
 * optional selfie and licence image in object storage), the signed reference a driver's QR code
 * carries, and the selfie retention purge. Records are created by the onboarding module.
 * Owns: drivers.
 */
import { z } from 'zod';

import type { ImagesService } from '@/modules/images';
import type { SealedColumns } from '@/modules/keys';
import { type ScheduledJob, defineJob } from '@/platform/jobs';
import { type ColumnSealer, SA_ID_NUMBER } from '@/platform/sealing';

import { createDriverReferenceSigner } from './driver-reference';
import { createDriversRepository } from './drivers.repository';
import { driversRoutes } from './drivers.routes';
import { type DriversServiceDeps, createDriversService } from './drivers.service';
import { createDriversPersonalData } from './drivers.personal-data';

export type { DriversService } from './drivers.service';
export type { DriverRow } from './drivers.table';
export type { DriverInput as NewDriverRow } from './drivers.repository';
export { ONBOARDING_ROLES, toDriver } from './drivers.routes';

export function createDriversModule(
  deps: Omit<DriversServiceDeps, 'repository' | 'signer' | 'images'> & {
    images: DriversServiceDeps['images'] & Pick<ImagesService, 'urlFor'>;
    /** The data encryption key; the reference key is derived from it for that purpose only. */
    encryptionKey: Buffer;
    /** The tenant keyring: ID numbers are sealed at rest (issue 26). */
    sealer: ColumnSealer;
  },
) {
  const repository = createDriversRepository(deps.sealer);
  const service = createDriversService({
    ...deps,
    repository,
    signer: createDriverReferenceSigner(deps.encryptionKey),
  });
  // What the keys module's jobs seal (rows stored before issue 26) and re-seal (a rotation).
  const sealedColumns: SealedColumns = {
    table: 'drivers',
    id: 'id',
    tenant: 'tenant_id',
    columns: [{ column: 'id_number', hash: { column: 'id_number_hash', domain: SA_ID_NUMBER } }],
    unsealedTenants: 'drivers_unsealed_tenants',
  };
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
    personalData: createDriversPersonalData({ images: deps.images, repository }),
    sealedColumns,
    jobs: [purgeBiometrics],
    schedules,
  };
}
