import { and, eq, inArray } from 'drizzle-orm';

import type { PersonalDataProvider } from '@/platform/personal-data';

import { faceComparisons } from './faces.table';

/**
 * Face comparisons name a driver only by the driver record (`driver_id`); they hold no image, name
 * or number. Export lists the subject's comparisons; erasure (and withdrawn consent) unlinks them
 * from the driver, so what stays — score, decision, vehicle, the entry it backed — is the site's
 * record of a check, no longer about a person (the entry itself is anonymised by its provider).
 */
export function createFacesPersonalData(): PersonalDataProvider {
  const ofSubject = (tenantId: string, driverIds: string[]) =>
    and(eq(faceComparisons.tenantId, tenantId), inArray(faceComparisons.driverId, driverIds));

  const unlink: NonNullable<PersonalDataProvider['eraseBiometrics']> = async (
    tx,
    { tenantId, driverIds },
  ) => {
    if (driverIds.length === 0) return { rows: 0, imageKeys: [] };
    const changed = await tx
      .update(faceComparisons)
      .set({ driverId: null })
      .where(ofSubject(tenantId, driverIds))
      .returning({ id: faceComparisons.id });
    return { rows: changed.length, imageKeys: [] };
  };

  return {
    section: 'faceComparisons',

    async exportSubject(tx, { tenantId, driverIds }) {
      if (driverIds.length === 0) return [];
      return tx
        .select()
        .from(faceComparisons)
        .where(ofSubject(tenantId, driverIds))
        .orderBy(faceComparisons.comparedAt);
    },

    eraseSubject: unlink,
    eraseBiometrics: unlink,
  };
}
