import type { ImagesService } from '@/modules/images';
import { type PersonalDataProvider, withImageLinks } from '@/platform/personal-data';

import type { DriversRepository } from './drivers.repository';
import { drivers } from './drivers.table';

/**
 * The driver register: one row per ID number. Erasure deletes the row with its selfie and licence
 * image. Approved vehicles onboarded for the driver refer to the row (driver_id): the link is
 * given to the approved-vehicles provider (driverIds), which erases those vehicles' driver first,
 * and the foreign key sets it to null on delete anyway (ON DELETE SET NULL (driver_id), migration
 * 0026), so it never blocks the erasure. Gate entries keep their own copy of what was checked,
 * which the entry-logs provider anonymises.
 */
export function createDriversPersonalData({
  images,
  repository,
}: {
  images: Pick<ImagesService, 'urlFor'>;
  /** ID numbers are sealed: rows are found by the keyed hash and opened for the export. */
  repository: Pick<DriversRepository, 'whereIdNumber' | 'open'>;
}): PersonalDataProvider {
  return {
    section: 'drivers',

    async link(tx, tenantId, idNumber) {
      const rows = await tx
        .select({ id: drivers.id, licenceNumber: drivers.licenceNumber })
        .from(drivers)
        .where(await repository.whereIdNumber(tenantId, idNumber));
      return {
        licenceNumbers: rows.map((row) => row.licenceNumber).filter((n): n is string => !!n),
        driverIds: rows.map((row) => row.id),
      };
    },

    async exportSubject(tx, { tenantId, idNumber }) {
      const rows = await tx
        .select()
        .from(drivers)
        .where(await repository.whereIdNumber(tenantId, idNumber));
      return (await Promise.all(rows.map(repository.open))).map(({ idNumberHash: _, ...row }) =>
        withImageLinks(row, ['photoKey', 'licenceImageKey'], images.urlFor),
      );
    },

    async eraseBiometrics(tx, { tenantId, idNumber }) {
      const where = await repository.whereIdNumber(tenantId, idNumber);
      const [row] = await tx.select().from(drivers).where(where);
      if (!row?.photoKey) return { rows: 0, imageKeys: [] };
      await tx
        .update(drivers)
        .set({
          photoKey: null,
          photoConsentAt: null,
          photoConsentBy: null,
          photoConsentNotice: null,
          biometricsPurgeAfter: null,
          livenessConfidence: null,
        })
        .where(where);
      return { rows: 1, imageKeys: [row.photoKey] };
    },

    async eraseSubject(tx, { tenantId, idNumber }) {
      const rows = await tx
        .delete(drivers)
        .where(await repository.whereIdNumber(tenantId, idNumber))
        .returning();
      return {
        rows: rows.length,
        imageKeys: rows
          .flatMap((row) => [row.photoKey, row.licenceImageKey])
          .filter((key): key is string => !!key),
      };
    },
  };
}
