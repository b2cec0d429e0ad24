import { and, eq, inArray, or } from 'drizzle-orm';

import type { ImagesService } from '@/modules/images';
import type { Tx } from '@/platform/db';
import {
  type DataSubject,
  type PersonalDataProvider,
  withImageLinks,
} from '@/platform/personal-data';

import { approvedVehicles } from './approved-vehicles.table';

// The driver photo, its sealed face descriptor and the consent record they rest on.
const NO_BIOMETRICS = {
  driverPhotoKey: null,
  driverFaceDescriptor: null,
  faceModelVersion: null,
  photoConsentAt: null,
  photoConsentBy: null,
  photoConsentNotice: null,
  biometricsPurgeAfter: null,
};

/** What replaces the expected driver's name when they ask to be erased (the column is required). */
export const ERASED_DRIVER_NAME = '[erased]';

/**
 * Approvals name their expected driver by name and licence number, not ID number, and those
 * onboarded for a driver link to the driver record: a subject's approvals are those with one of
 * the subject's licence numbers or driver records. The export leaves out the sealed face
 * descriptor's value (it says whether one exists, its model and purge date). Erasure keeps the
 * vehicle's approval and removes the driver: name, licence number, link, photo, descriptor and
 * consent record. It runs before the drivers provider deletes the record (modules.ts), while the
 * link still finds the vehicle.
 */
export function createApprovedVehiclesPersonalData({
  images,
}: {
  images: Pick<ImagesService, 'urlFor'>;
}): PersonalDataProvider {
  const rowsOf = (tx: Tx, { tenantId, licenceNumbers, driverIds }: DataSubject) =>
    licenceNumbers.length === 0 && driverIds.length === 0
      ? Promise.resolve([])
      : tx
          .select()
          .from(approvedVehicles)
          .where(
            and(
              eq(approvedVehicles.tenantId, tenantId),
              or(
                licenceNumbers.length > 0
                  ? inArray(approvedVehicles.driverLicense, licenceNumbers)
                  : undefined,
                driverIds.length > 0 ? inArray(approvedVehicles.driverId, driverIds) : undefined,
              ),
            ),
          );

  return {
    section: 'approvedVehicles',

    async exportSubject(tx, subject) {
      const rows = await rowsOf(tx, subject);
      return rows.map(({ driverFaceDescriptor, ...row }) => ({
        ...withImageLinks(row, ['driverPhotoKey'], images.urlFor),
        hasFaceEnrolment: driverFaceDescriptor !== null,
      }));
    },

    async eraseBiometrics(tx, subject) {
      const rows = (await rowsOf(tx, subject)).filter(
        (row) => row.driverPhotoKey !== null || row.driverFaceDescriptor !== null,
      );
      if (rows.length === 0) return { rows: 0, imageKeys: [] };
      await tx
        .update(approvedVehicles)
        .set(NO_BIOMETRICS)
        .where(
          and(
            eq(approvedVehicles.tenantId, subject.tenantId),
            inArray(
              approvedVehicles.id,
              rows.map((row) => row.id),
            ),
          ),
        );
      return {
        rows: rows.length,
        imageKeys: rows.map((row) => row.driverPhotoKey).filter((key): key is string => !!key),
      };
    },

    async eraseSubject(tx, subject) {
      const rows = await rowsOf(tx, subject);
      if (rows.length === 0) return { rows: 0, imageKeys: [] };
      await tx
        .update(approvedVehicles)
        .set({
          driverName: ERASED_DRIVER_NAME,
          driverLicense: null,
          driverId: null,
          ...NO_BIOMETRICS,
        })
        .where(
          and(
            eq(approvedVehicles.tenantId, subject.tenantId),
            inArray(
              approvedVehicles.id,
              rows.map((row) => row.id),
            ),
          ),
        );
      return {
        rows: rows.length,
        imageKeys: rows.map((row) => row.driverPhotoKey).filter((key): key is string => !!key),
      };
    },
  };
}
