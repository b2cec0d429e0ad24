import { and, eq, inArray, isNull, or } from 'drizzle-orm';

import type { ImagesService } from '@/modules/images';
import type { Tx } from '@/platform/db';
import {
  type DataSubject,
  type PersonalDataProvider,
  withImageLinks,
} from '@/platform/personal-data';

import type { InductionRepository } from './induction.repository';
import {
  type InductionAssignmentRow,
  inductionAssignments,
  inductionAttempts,
} from './induction.table';

/**
 * Safety inductions assigned to a driver (by ID number), with every quiz they submitted. Erasure
 * deletes both and the driver's photo: the driver then has no valid induction at the gate, and
 * the audit trail keeps that an induction was assigned, taken and scored (without the driver).
 */
export function createInductionPersonalData({
  images,
  repository,
}: {
  images: Pick<ImagesService, 'urlFor'>;
  repository: Pick<InductionRepository, 'open'>;
}): PersonalDataProvider {
  // Issue 26: by the keyed hash; an assignment stored before sealing by its plain number.
  const assignmentsOf = async (
    tx: Tx,
    { tenantId, idNumber, numberHashes }: DataSubject,
  ): Promise<InductionAssignmentRow[]> =>
    Promise.all(
      (
        await tx
          .select()
          .from(inductionAssignments)
          .where(
            and(
              eq(inductionAssignments.tenantId, tenantId),
              or(
                eq(inductionAssignments.driverIdNumberHash, numberHashes.idNumber),
                and(
                  isNull(inductionAssignments.driverIdNumberHash),
                  eq(inductionAssignments.driverIdNumber, idNumber),
                ),
              ),
            ),
          )
          .orderBy(inductionAssignments.createdAt)
      ).map(repository.open),
    );
  const attemptsOf = (tx: Tx, tenantId: string, assignmentIds: string[]) =>
    assignmentIds.length === 0
      ? Promise.resolve([])
      : tx
          .select()
          .from(inductionAttempts)
          .where(
            and(
              eq(inductionAttempts.tenantId, tenantId),
              inArray(inductionAttempts.assignmentId, assignmentIds),
            ),
          );

  return {
    section: 'inductions',

    async exportSubject(tx, subject) {
      const { tenantId } = subject;
      const assignments = await assignmentsOf(tx, subject);
      const attempts = await attemptsOf(
        tx,
        tenantId,
        assignments.map((row) => row.id),
      );
      return assignments.map(({ driverIdNumberHash: _hash, ...row }) => ({
        ...withImageLinks(row, ['driverPhotoKey'], images.urlFor),
        attempts: attempts.filter((attempt) => attempt.assignmentId === row.id),
      }));
    },

    async eraseBiometrics(tx, subject) {
      const { tenantId } = subject;
      const rows = (await assignmentsOf(tx, subject)).filter((row) => row.driverPhotoKey !== null);
      if (rows.length === 0) return { rows: 0, imageKeys: [] };
      await tx
        .update(inductionAssignments)
        .set({ driverPhotoKey: null })
        .where(
          and(
            eq(inductionAssignments.tenantId, tenantId),
            inArray(
              inductionAssignments.id,
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
      const { tenantId } = subject;
      const assignments = await assignmentsOf(tx, subject);
      const ids = assignments.map((row) => row.id);
      if (ids.length === 0) return { rows: 0, imageKeys: [] };
      await tx
        .delete(inductionAttempts)
        .where(
          and(
            eq(inductionAttempts.tenantId, tenantId),
            inArray(inductionAttempts.assignmentId, ids),
          ),
        );
      await tx
        .delete(inductionAssignments)
        .where(
          and(eq(inductionAssignments.tenantId, tenantId), inArray(inductionAssignments.id, ids)),
        );
      return {
        rows: ids.length,
        imageKeys: assignments
          .map((row) => row.driverPhotoKey)
          .filter((key): key is string => !!key),
      };
    },
  };
}
