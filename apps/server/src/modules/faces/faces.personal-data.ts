import { and, eq, inArray, or } from 'drizzle-orm';

import type { CapturesService } from '@/modules/captures';
import type {
  DataSubject,
  ImageRetentionProvider,
  PersonalDataProvider,
} from '@/platform/personal-data';

import { faceComparisons } from './faces.table';

/**
 * Face comparisons name a driver by the driver record (`driver_id`) or through the entry they
 * backed (`used_by_entry_id`), and cite the live face's capture (`live_capture_id`); they hold no
 * name or number. Export lists the subject's comparisons; erasure (and withdrawn consent) unlinks
 * them from the driver and releases the live face's capture, so what stays — score, decision,
 * vehicle, the entry it backed — is the site's record of a check, no longer about a person (the
 * entry itself is anonymised by its provider). The live face also ends with the tenant's
 * biometric period (retention type `face_comparison`, migration 0038).
 */
export function createFacesPersonalData({
  captures,
}: {
  captures: Pick<CapturesService, 'imageKeysOf'>;
}): PersonalDataProvider & ImageRetentionProvider {
  const ofSubject = ({ tenantId, driverIds, entryIds }: DataSubject) => {
    const links = [
      ...(driverIds.length > 0 ? [inArray(faceComparisons.driverId, driverIds)] : []),
      ...(entryIds.length > 0 ? [inArray(faceComparisons.usedByEntryId, entryIds)] : []),
    ];
    return links.length > 0 ? and(eq(faceComparisons.tenantId, tenantId), or(...links)) : null;
  };

  const unlink: NonNullable<PersonalDataProvider['eraseBiometrics']> = async (tx, subject) => {
    const where = ofSubject(subject);
    if (!where) return { rows: 0, imageKeys: [] };
    const rows = await tx
      .select({
        id: faceComparisons.id,
        driverId: faceComparisons.driverId,
        liveCaptureId: faceComparisons.liveCaptureId,
      })
      .from(faceComparisons)
      .where(where)
      .for('update');
    const linked = rows.filter((row) => row.driverId !== null || row.liveCaptureId !== null);
    if (linked.length === 0) return { rows: 0, imageKeys: [] };
    const captureIds = linked.flatMap((row) => (row.liveCaptureId ? [row.liveCaptureId] : []));
    const imageKeys = await captures.imageKeysOf(tx, subject.tenantId, captureIds);
    await tx
      .update(faceComparisons)
      .set({ driverId: null, liveCaptureId: null })
      .where(
        and(
          eq(faceComparisons.tenantId, subject.tenantId),
          inArray(
            faceComparisons.id,
            linked.map((row) => row.id),
          ),
        ),
      );
    return { rows: linked.length, imageKeys };
  };

  return {
    section: 'faceComparisons',

    async exportSubject(tx, subject) {
      const where = ofSubject(subject);
      if (!where) return [];
      return tx.select().from(faceComparisons).where(where).orderBy(faceComparisons.comparedAt);
    },

    eraseSubject: unlink,
    eraseBiometrics: unlink,

    recordTypes: ['face_comparison'],
    biometricTypes: { face_comparison: 'face_comparisons' },

    async expireImages(tx, tenantId, recordType, recordId) {
      if (recordType !== 'face_comparison') return [];
      const where = and(eq(faceComparisons.tenantId, tenantId), eq(faceComparisons.id, recordId));
      const [row] = await tx
        .select({ liveCaptureId: faceComparisons.liveCaptureId })
        .from(faceComparisons)
        .where(where)
        .for('update');
      if (!row?.liveCaptureId) return [];
      const keys = await captures.imageKeysOf(tx, tenantId, [row.liveCaptureId]);
      await tx.update(faceComparisons).set({ liveCaptureId: null }).where(where);
      return keys;
    },
  };
}
