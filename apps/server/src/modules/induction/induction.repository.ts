import { and, count, desc, eq, isNotNull, isNull, or } from 'drizzle-orm';

import type { LanguageCode } from '@boomgate/contracts/preferences';

import type { SealedColumns } from '@/modules/keys';
import { type DbExecutor, takeOne } from '@/platform/db';
import { type ColumnSealer, SA_ID_NUMBER } from '@/platform/sealing';

import {
  type InductionAssignmentRow,
  type NewInductionAssignmentRow,
  type NewInductionAttemptRow,
  type NewSafetyVideoRow,
  type SafetyVideoRow,
  inductionAssignments,
  inductionAttempts,
  safetyVideoUploads,
  safetyVideos,
} from './induction.table';

export type InductionRepository = ReturnType<typeof createInductionRepository>;

const DRIVER_ID_NUMBER = 'induction_assignments.driver_id_number';

/** What the keys module's jobs seal (assignments stored before issue 26) and re-seal. */
export const INDUCTION_SEALED_COLUMNS: SealedColumns = {
  table: 'induction_assignments',
  id: 'id',
  tenant: 'tenant_id',
  columns: [
    { column: 'driver_id_number', hash: { column: 'driver_id_number_hash', domain: SA_ID_NUMBER } },
  ],
  unsealedTenants: 'induction_assignments_unsealed_tenants',
};

/**
 * Every query runs in a tenant transaction and also names the tenant (RLS is the second lock).
 * Issue 26: the driver's ID number is sealed on the way in and opened only for the rows a call
 * returns; the gate's validity lookup and data-subject requests go by its keyed hash.
 */
export function createInductionRepository(sealer: ColumnSealer) {
  const hashOf = (tenantId: string, idNumber: string) =>
    sealer.index(tenantId, SA_ID_NUMBER, idNumber);
  async function open(row: InductionAssignmentRow): Promise<InductionAssignmentRow> {
    return {
      ...row,
      driverIdNumber: await sealer.open(row.tenantId, DRIVER_ID_NUMBER, row.driverIdNumber),
    };
  }
  const assignmentWhere = (tenantId: string, id: string) =>
    and(eq(inductionAssignments.tenantId, tenantId), eq(inductionAssignments.id, id));

  return {
    open,
    hashOf,

    // ---- videos
    async insertVideo(tx: DbExecutor, row: NewSafetyVideoRow): Promise<SafetyVideoRow> {
      return takeOne(await tx.insert(safetyVideos).values(row).returning());
    },

    async findVideo(tx: DbExecutor, tenantId: string, id: string) {
      const rows = await tx
        .select()
        .from(safetyVideos)
        .where(and(eq(safetyVideos.tenantId, tenantId), eq(safetyVideos.id, id)))
        .limit(1);
      return rows[0];
    },

    /** The version of a video (the original `rootId` or one of its translations) in a language. */
    async findVersionInLanguage(
      tx: DbExecutor,
      tenantId: string,
      rootId: string,
      language: LanguageCode,
    ) {
      const rows = await tx
        .select()
        .from(safetyVideos)
        .where(
          and(
            eq(safetyVideos.tenantId, tenantId),
            or(eq(safetyVideos.id, rootId), eq(safetyVideos.translationOf, rootId)),
            eq(safetyVideos.language, language),
          ),
        )
        .limit(1);
      return rows[0];
    },

    async countTranslations(tx: DbExecutor, tenantId: string, videoId: string) {
      const [row] = await tx
        .select({ n: count() })
        .from(safetyVideos)
        .where(and(eq(safetyVideos.tenantId, tenantId), eq(safetyVideos.translationOf, videoId)));
      return Number(row?.n ?? 0);
    },

    // ---- uploads waiting for their video
    async recordUpload(
      tx: DbExecutor,
      row: { tenantId: string; fileKey: string; uploadedAt: Date; uploadedBy: string },
    ) {
      await tx.insert(safetyVideoUploads).values(row);
    },

    /** Takes the pending upload (a video now plays it, or the cleanup removes it): one taker wins. */
    async claimUpload(tx: DbExecutor, tenantId: string, fileKey: string): Promise<boolean> {
      const rows = await tx
        .delete(safetyVideoUploads)
        .where(
          and(eq(safetyVideoUploads.tenantId, tenantId), eq(safetyVideoUploads.fileKey, fileKey)),
        )
        .returning({ fileKey: safetyVideoUploads.fileKey });
      return rows.length > 0;
    },

    /** Whether a video already plays this uploaded file (one file per video). */
    async videoKeyInUse(tx: DbExecutor, tenantId: string, videoKey: string): Promise<boolean> {
      const rows = await tx
        .select({ id: safetyVideos.id })
        .from(safetyVideos)
        .where(and(eq(safetyVideos.tenantId, tenantId), eq(safetyVideos.videoKey, videoKey)))
        .limit(1);
      return rows.length > 0;
    },

    async listVideos(tx: DbExecutor, tenantId: string) {
      const assignmentCounts = tx
        .select({ videoId: inductionAssignments.videoId, n: count().as('n') })
        .from(inductionAssignments)
        .where(eq(inductionAssignments.tenantId, tenantId))
        .groupBy(inductionAssignments.videoId)
        .as('assignment_counts');
      const rows = await tx
        .select({ video: safetyVideos, assignmentCount: assignmentCounts.n })
        .from(safetyVideos)
        .leftJoin(assignmentCounts, eq(assignmentCounts.videoId, safetyVideos.id))
        .where(eq(safetyVideos.tenantId, tenantId))
        .orderBy(desc(safetyVideos.createdAt));
      return rows.map((row) => ({
        ...row.video,
        assignmentCount: Number(row.assignmentCount ?? 0),
      }));
    },

    async countAssignmentsOfVideo(tx: DbExecutor, tenantId: string, videoId: string) {
      const [row] = await tx
        .select({ n: count() })
        .from(inductionAssignments)
        .where(
          and(
            eq(inductionAssignments.tenantId, tenantId),
            eq(inductionAssignments.videoId, videoId),
          ),
        );
      return row?.n ?? 0;
    },

    async deleteVideo(tx: DbExecutor, tenantId: string, id: string) {
      const rows = await tx
        .delete(safetyVideos)
        .where(and(eq(safetyVideos.tenantId, tenantId), eq(safetyVideos.id, id)))
        .returning();
      return rows[0];
    },

    // ---- assignments
    async insertAssignment(tx: DbExecutor, row: NewInductionAssignmentRow) {
      const sealed = {
        ...row,
        driverIdNumber: await sealer.seal(row.tenantId, DRIVER_ID_NUMBER, row.driverIdNumber),
        driverIdNumberHash: await hashOf(row.tenantId, row.driverIdNumber),
      };
      return open(takeOne(await tx.insert(inductionAssignments).values(sealed).returning()));
    },

    /** `forUpdate`: heartbeats and submissions of one assignment take turns. */
    async findAssignment(
      tx: DbExecutor,
      tenantId: string,
      id: string,
      { forUpdate = false } = {},
    ): Promise<InductionAssignmentRow | undefined> {
      const query = tx
        .select()
        .from(inductionAssignments)
        .where(assignmentWhere(tenantId, id))
        .limit(1);
      const rows = forUpdate ? await query.for('update') : await query;
      return rows[0] && open(rows[0]);
    },

    /** Retention: the driver photo's key goes (the caller deletes the file); the key it had. */
    async clearDriverPhoto(tx: DbExecutor, tenantId: string, id: string) {
      const before = await this.findAssignment(tx, tenantId, id, { forUpdate: true });
      if (!before?.driverPhotoKey) return undefined;
      await tx
        .update(inductionAssignments)
        .set({ driverPhotoKey: null })
        .where(assignmentWhere(tenantId, id));
      return before.driverPhotoKey;
    },

    async listAssignments(tx: DbExecutor, tenantId: string) {
      const rows = await tx
        .select({
          assignment: inductionAssignments,
          videoTitle: safetyVideos.title,
          videoLanguage: safetyVideos.language,
        })
        .from(inductionAssignments)
        .innerJoin(
          safetyVideos,
          and(
            eq(safetyVideos.tenantId, inductionAssignments.tenantId),
            eq(safetyVideos.id, inductionAssignments.videoId),
          ),
        )
        .where(eq(inductionAssignments.tenantId, tenantId))
        .orderBy(desc(inductionAssignments.createdAt))
        .limit(500);
      return Promise.all(
        rows.map(async (row) => ({
          ...(await open(row.assignment)),
          videoTitle: row.videoTitle,
          videoLanguage: row.videoLanguage,
        })),
      );
    },

    async updateAssignment(
      tx: DbExecutor,
      tenantId: string,
      id: string,
      patch: Partial<
        Pick<
          InductionAssignmentRow,
          | 'status'
          | 'attempts'
          | 'lastAttemptAt'
          | 'lastScore'
          | 'watchedSeconds'
          | 'lastHeartbeatAt'
          | 'passedAt'
        >
      >,
    ) {
      return open(
        takeOne(
          await tx
            .update(inductionAssignments)
            .set(patch)
            .where(assignmentWhere(tenantId, id))
            .returning(),
        ),
      );
    },

    async deleteAssignment(tx: DbExecutor, tenantId: string, id: string) {
      await tx
        .delete(inductionAttempts)
        .where(
          and(eq(inductionAttempts.tenantId, tenantId), eq(inductionAttempts.assignmentId, id)),
        );
      const rows = await tx
        .delete(inductionAssignments)
        .where(assignmentWhere(tenantId, id))
        .returning();
      return rows[0] && open(rows[0]);
    },

    /** The driver's most recent pass, by ID number, across all their assignments. */
    async latestPass(tx: DbExecutor, tenantId: string, driverIdNumber: string) {
      const rows = await tx
        .select({ passedAt: inductionAssignments.passedAt })
        .from(inductionAssignments)
        .where(
          and(
            eq(inductionAssignments.tenantId, tenantId),
            or(
              eq(inductionAssignments.driverIdNumberHash, await hashOf(tenantId, driverIdNumber)),
              // Stored before sealing, until keys.seal-stored-data has sealed it.
              and(
                isNull(inductionAssignments.driverIdNumberHash),
                eq(inductionAssignments.driverIdNumber, driverIdNumber),
              ),
            ),
            isNotNull(inductionAssignments.passedAt),
          ),
        )
        .orderBy(desc(inductionAssignments.passedAt))
        .limit(1);
      return rows[0]?.passedAt ?? undefined;
    },

    // ---- attempts
    async insertAttempt(tx: DbExecutor, row: NewInductionAttemptRow) {
      await tx.insert(inductionAttempts).values(row);
    },
  };
}
