import {
  type CreateInductionAssignmentBody,
  type CreateSafetyVideoBody,
  type InductionProgressBody,
  type InductionResult,
  type InductionValidity,
  MAX_VIDEO_BYTES,
  MAX_VIDEO_SECONDS,
  type SubmitInductionBody,
  type UploadedVideoFile,
  type VideoContentType,
} from '@boomgate/contracts/induction';
import type { LanguageCode } from '@boomgate/contracts/preferences';

import { sql } from 'drizzle-orm';

import type { AuditService } from '@/modules/audit';
import type { ImagesService } from '@/modules/images';
import type { Actor } from '@/modules/sessions';
import type { TenantsRepository } from '@/modules/tenants';
import { drainInBatches } from '@/platform/batches';
import type { Clock } from '@/platform/clock';
import type { Database, DbExecutor } from '@/platform/db';
import { AppError, findPgError } from '@/platform/errors';
import { newId } from '@/platform/ids';
import type { ObjectStorage } from '@/platform/storage';

import type { InductionRepository } from './induction.repository';
import type { InductionAssignmentRow, SafetyVideoRow, StoredQuestion } from './induction.table';
import { readVideoDuration, sniffVideoType } from './video-files';
import { creditHeartbeat, isVideoComplete } from './watch-progress';

export type InductionServiceDeps = {
  database: Pick<Database, 'withTenant' | 'db'>;
  repository: InductionRepository;
  tenants: Pick<TenantsRepository, 'find'>;
  images: Pick<ImagesService, 'storeOptional' | 'deleteImage'>;
  storage: ObjectStorage;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  /** The server default (BIOMETRIC_RETENTION_DAYS) for tenants without their own period. */
  biometricRetentionDays: number;
};

export type InductionService = ReturnType<typeof createInductionService>;

const DAY_MS = 86_400_000;
/** Rows a retention or cleanup job handles per lookup. */
const PURGE_BATCH = 500;
const EXTENSIONS: Record<VideoContentType, string> = { 'video/mp4': 'mp4', 'video/webm': 'webm' };

// Another tenant's ids answer exactly like ids that do not exist.
const videoNotFound = () => new AppError('NOT_FOUND', 'Video not found.');
const assignmentNotFound = () => new AppError('NOT_FOUND', 'Assignment not found.');
const versionExists = () =>
  new AppError('CONFLICT', 'This video already has a version in that language.');

/** Scores a submission on the server: the correct options never leave it. */
export function scoreQuiz(
  questions: readonly StoredQuestion[],
  responses: readonly number[],
  passScore: number,
): InductionResult {
  if (responses.length !== questions.length) {
    throw new AppError('INVALID', 'Please answer all questions before submitting.');
  }
  let correctAnswers = 0;
  questions.forEach((question, index) => {
    const chosen = responses[index] ?? -1;
    if (chosen >= question.options.length) {
      throw new AppError(
        'INVALID',
        `The answer to question ${index + 1} is not one of its options.`,
      );
    }
    if (chosen === question.correctIndex) correctAnswers += 1;
  });
  const totalQuestions = questions.length;
  const score = Math.round((correctAnswers / totalQuestions) * 100);
  return { passed: score >= passScore, score, passScore, correctAnswers, totalQuestions };
}

export function createInductionService({
  database,
  repository,
  tenants,
  images,
  storage,
  audit,
  clock,
  biometricRetentionDays,
}: InductionServiceDeps) {
  const videoKeyPattern = (tenantId: string) =>
    new RegExp(`^${tenantId}/safety-videos/[0-9a-f-]{36}\\.(mp4|webm)$`);

  function describeVideo(bytes: Buffer): {
    contentType: VideoContentType;
    durationSeconds: number;
  } {
    const contentType = sniffVideoType(bytes);
    if (!contentType) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Only MP4 and WebM videos are accepted.');
    }
    const durationSeconds = readVideoDuration(bytes, contentType);
    if (durationSeconds === undefined) {
      throw new AppError(
        'UNPROCESSABLE',
        'The length of this video could not be read. Save it again as MP4 or WebM and retry.',
      );
    }
    // Heartbeats stop at MAX_VIDEO_SECONDS, so a longer video could never be completed.
    if (durationSeconds > MAX_VIDEO_SECONDS) {
      throw new AppError(
        'UNPROCESSABLE',
        'This video is longer than 2 hours. A safety video may be at most 2 hours long.',
      );
    }
    return { contentType, durationSeconds };
  }

  async function loadAssignment(
    actor: Actor,
    tx: Parameters<Parameters<Database['withTenant']>[1]>[0],
    id: string,
    forUpdate = false,
  ) {
    const assignment = await repository.findAssignment(tx, actor.tenantId, id, { forUpdate });
    if (!assignment) throw assignmentNotFound();
    const video = await repository.findVideo(tx, actor.tenantId, assignment.videoId);
    if (!video) throw assignmentNotFound();
    return { assignment, video };
  }

  /**
   * A translation names an original video (never another translation: one level keeps "the
   * versions of a video" a single lookup) and a language it does not have yet.
   */
  async function assertCanTranslate(
    tx: DbExecutor,
    tenantId: string,
    originalId: string,
    language: LanguageCode,
  ) {
    const original = await repository.findVideo(tx, tenantId, originalId);
    if (!original) {
      throw new AppError('INVALID', 'The video this one translates was not found.');
    }
    if (original.translationOf) {
      throw new AppError(
        'INVALID',
        'Choose the original video, not one of its versions in another language.',
      );
    }
    if (await repository.findVersionInLanguage(tx, tenantId, originalId, language)) {
      throw versionExists();
    }
  }

  /** The driver's latest pass against the tenant's validity period, in the caller's transaction. */
  async function validityWithin(
    tx: DbExecutor,
    tenantId: string,
    driverIdNumber: string,
  ): Promise<InductionValidity> {
    const passedAt = await repository.latestPass(tx, tenantId, driverIdNumber);
    if (!passedAt) return { status: 'none', passedAt: null, validUntil: null };
    const tenant = await tenants.find(tx, tenantId);
    const validityDays = tenant?.inductionValidityDays ?? 365;
    const validUntil = new Date(passedAt.getTime() + validityDays * DAY_MS);
    return {
      status: validUntil.getTime() > clock.now().getTime() ? 'valid' : 'expired',
      passedAt: passedAt.toISOString(),
      validUntil: validUntil.toISOString(),
    };
  }

  return {
    /** A raw upload: checked by magic bytes and length, stored, and answered with its key. */
    async uploadVideoFile(
      actor: Actor,
      bytes: Buffer,
      declaredType: string | undefined,
    ): Promise<UploadedVideoFile> {
      if (bytes.length === 0) throw new AppError('INVALID', 'The video file is empty.');
      if (bytes.length > MAX_VIDEO_BYTES) {
        throw new AppError('PAYLOAD_TOO_LARGE', 'Please upload a video smaller than 50MB.');
      }
      const { contentType, durationSeconds } = describeVideo(bytes);
      if (declaredType && declaredType !== contentType) {
        throw new AppError(
          'UNSUPPORTED_MEDIA_TYPE',
          `The file says it is ${declaredType} but its content is ${contentType}.`,
        );
      }
      const fileKey = `${actor.tenantId}/safety-videos/${newId()}.${EXTENSIONS[contentType]}`;
      // Recorded before it is stored: whatever happens next (a crash, a storage error), the
      // cleanup knows the key, and deleting a key that was never stored is harmless.
      await database.withTenant(actor.tenantId, (tx) =>
        repository.recordUpload(tx, {
          tenantId: actor.tenantId,
          fileKey,
          uploadedAt: clock.now(),
          uploadedBy: actor.userId,
        }),
      );
      await storage.put(fileKey, bytes);
      return { fileKey, contentType, sizeBytes: bytes.length, durationSeconds };
    },

    async createVideo(
      actor: Actor,
      body: Omit<CreateSafetyVideoBody, 'description'> & { description: string },
      ip?: string,
    ): Promise<SafetyVideoRow & { assignmentCount: number }> {
      let source: Pick<
        SafetyVideoRow,
        'source' | 'videoKey' | 'videoUrl' | 'contentType' | 'sizeBytes' | 'durationSeconds'
      >;
      if (body.video.kind === 'upload') {
        const key = body.video.fileKey;
        const bytes = videoKeyPattern(actor.tenantId).test(key)
          ? await storage.get(key).catch(() => undefined)
          : undefined;
        if (!bytes)
          throw new AppError('INVALID', 'The uploaded video was not found. Upload it again.');
        const { contentType, durationSeconds } = describeVideo(bytes);
        source = {
          source: 'upload',
          videoKey: key,
          videoUrl: null,
          contentType,
          sizeBytes: bytes.length,
          durationSeconds,
        };
      } else {
        source = {
          source: 'url',
          videoKey: null,
          videoUrl: body.video.url,
          contentType: null,
          sizeBytes: null,
          durationSeconds: body.video.durationSeconds,
        };
      }
      const language = body.language ?? 'en';
      const translationOf = body.translationOf ?? null;
      return database
        .withTenant(actor.tenantId, async (tx) => {
          if (translationOf) await assertCanTranslate(tx, actor.tenantId, translationOf, language);
          // Deleting either of two videos on one file would delete the other's file too. Two
          // concurrent creates with the same key can still both pass this check; only the
          // uploader holds the key, so that needs the same admin racing themselves.
          if (
            source.videoKey &&
            (await repository.videoKeyInUse(tx, actor.tenantId, source.videoKey))
          ) {
            throw new AppError(
              'CONFLICT',
              'This uploaded video is already used by another video. Upload it again.',
            );
          }
          // Left for more than a day, the cleanup may have taken the file in the meantime.
          if (
            source.videoKey &&
            !(await repository.claimUpload(tx, actor.tenantId, source.videoKey))
          )
            throw new AppError('INVALID', 'The uploaded video was not found. Upload it again.');
          const video = await repository.insertVideo(tx, {
            tenantId: actor.tenantId,
            id: newId(),
            title: body.title,
            description: body.description,
            ...source,
            passScore: body.passScore,
            questions: body.questions.map(({ question, options, correctIndex }) => ({
              question,
              options,
              correctIndex,
            })),
            createdAt: clock.now(),
            createdBy: actor.userId,
            language,
            translationOf,
          });
          await audit.record(tx, {
            tenantId: actor.tenantId,
            actorUserId: actor.userId,
            action: 'safety-video.created',
            targetType: 'safety_video',
            targetId: video.id,
            ip,
            details: {
              source: video.source,
              questions: video.questions.length,
              language,
              translationOf,
            },
          });
          return { ...video, assignmentCount: 0 };
        })
        .catch((error: unknown) => {
          // Two versions in one language created at once: the unique index keeps one.
          if (findPgError(error)?.code === '23505') throw versionExists();
          throw error;
        });
    },

    listVideos: (actor: Actor) =>
      database.withTenant(actor.tenantId, (tx) => repository.listVideos(tx, actor.tenantId)),

    async getVideo(actor: Actor, videoId: string): Promise<SafetyVideoRow> {
      const video = await database.withTenant(actor.tenantId, (tx) =>
        repository.findVideo(tx, actor.tenantId, videoId),
      );
      if (!video) throw videoNotFound();
      return video;
    },

    /** The stored file of an uploaded video (same tenant only), read by byte ranges. */
    async openVideoFile(actor: Actor, videoId: string) {
      const video = await this.getVideo(actor, videoId);
      const key = video.videoKey;
      if (video.source !== 'upload' || !key || !video.sizeBytes) throw videoNotFound();
      return {
        size: video.sizeBytes,
        contentType: (video.contentType ?? 'video/mp4') as VideoContentType,
        async read(start: number, end: number): Promise<Buffer> {
          const bytes = await storage.getRange(key, start, end).catch(() => undefined);
          if (!bytes) throw videoNotFound();
          return bytes;
        },
      };
    },

    async deleteVideo(actor: Actor, videoId: string, ip?: string) {
      const stillAssigned = () =>
        new AppError('CONFLICT', 'This video still has assignments. Remove its assignments first.');
      const video = await database
        .withTenant(actor.tenantId, async (tx) => {
          const found = await repository.findVideo(tx, actor.tenantId, videoId);
          if (!found) throw videoNotFound();
          if ((await repository.countAssignmentsOfVideo(tx, actor.tenantId, videoId)) > 0) {
            throw stillAssigned();
          }
          if ((await repository.countTranslations(tx, actor.tenantId, videoId)) > 0) {
            throw new AppError(
              'CONFLICT',
              'This video has versions in other languages. Delete them first.',
            );
          }
          await repository.deleteVideo(tx, actor.tenantId, videoId);
          await audit.record(tx, {
            tenantId: actor.tenantId,
            actorUserId: actor.userId,
            action: 'safety-video.deleted',
            targetType: 'safety_video',
            targetId: videoId,
            ip,
            details: { title: found.title },
          });
          return found;
        })
        .catch((error: unknown) => {
          // An assignment inserted after the count (no row lock: the app role has no UPDATE on
          // safety_videos, which FOR UPDATE needs) makes the delete fail its foreign key.
          if (findPgError(error)?.code === '23503') throw stillAssigned();
          throw error;
        });
      // After the commit: a failed delete leaves an unreferenced file, never a row without its file.
      if (video.videoKey) await storage.delete(video.videoKey).catch(() => undefined);
    },

    async createAssignment(
      actor: Actor,
      body: Omit<CreateInductionAssignmentBody, 'driverIdNumber'> & { driverIdNumber: string },
      ip?: string,
    ) {
      const driverPhotoKey = await images.storeOptional(
        actor.tenantId,
        'driver-photos',
        body.driverImage,
      );
      try {
        return await database.withTenant(actor.tenantId, async (tx) => {
          const chosen = await repository.findVideo(tx, actor.tenantId, body.videoId);
          if (!chosen) throw videoNotFound();
          // Issue 19: the driver watches and answers in their language when a version exists.
          const driverLanguage = body.driverLanguage ?? null;
          const video =
            (driverLanguage &&
              (await repository.findVersionInLanguage(
                tx,
                actor.tenantId,
                chosen.translationOf ?? chosen.id,
                driverLanguage,
              ))) ||
            chosen;
          const assignment = await repository.insertAssignment(tx, {
            tenantId: actor.tenantId,
            id: newId(),
            videoId: video.id,
            driverName: body.driverName,
            driverIdNumber: body.driverIdNumber,
            driverPhotoKey,
            createdAt: clock.now(),
            createdBy: actor.userId,
            driverLanguage,
          });
          await audit.record(tx, {
            tenantId: actor.tenantId,
            actorUserId: actor.userId,
            action: 'induction.assigned',
            targetType: 'induction_assignment',
            targetId: assignment.id,
            ip,
            details: {
              videoId: video.id,
              hasDriverPhoto: driverPhotoKey !== null,
              driverLanguage,
              videoLanguage: video.language,
            },
          });
          return { ...assignment, video };
        });
      } catch (error) {
        // Best-effort cleanup: a failed delete leaves an orphan file and must not hide the cause.
        if (driverPhotoKey) await images.deleteImage(driverPhotoKey).catch(() => undefined);
        // The video was deleted between the lookup and the insert.
        if (findPgError(error)?.code === '23503') throw videoNotFound();
        throw error;
      }
    },

    listAssignments: (actor: Actor) =>
      database.withTenant(actor.tenantId, (tx) => repository.listAssignments(tx, actor.tenantId)),

    getAssignment: (actor: Actor, id: string) =>
      database.withTenant(actor.tenantId, async (tx) => {
        const { assignment, video } = await loadAssignment(actor, tx, id);
        return { ...assignment, video };
      }),

    async deleteAssignment(actor: Actor, id: string, ip?: string) {
      const removed = await database.withTenant(actor.tenantId, async (tx) => {
        const found = await repository.deleteAssignment(tx, actor.tenantId, id);
        if (!found) throw assignmentNotFound();
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'induction.assignment-deleted',
          targetType: 'induction_assignment',
          targetId: id,
          ip,
          details: { status: found.status, attempts: found.attempts },
        });
        return found;
      });
      // After the commit: the assignment is gone; a failed file delete only leaves an orphan.
      if (removed.driverPhotoKey) {
        await images.deleteImage(removed.driverPhotoKey).catch(() => undefined);
      }
    },

    /** A heartbeat from the playing video: credits watched time by the server's clock. */
    recordProgress: (actor: Actor, body: InductionProgressBody) =>
      database.withTenant(actor.tenantId, async (tx) => {
        const { assignment, video } = await loadAssignment(actor, tx, body.assignmentId, true);
        if (assignment.status === 'passed') return { ...assignment, video };
        const next = creditHeartbeat(assignment, {
          positionSeconds: body.positionSeconds,
          now: clock.now(),
          durationSeconds: video.durationSeconds,
        });
        const updated = await repository.updateAssignment(tx, actor.tenantId, assignment.id, {
          ...next,
          status: assignment.status === 'assigned' ? 'in_progress' : assignment.status,
        });
        return { ...updated, video };
      }),

    async submit(actor: Actor, body: SubmitInductionBody, ip?: string): Promise<InductionResult> {
      return database.withTenant(actor.tenantId, async (tx) => {
        const { assignment, video } = await loadAssignment(actor, tx, body.assignmentId, true);
        if (assignment.status === 'passed') {
          throw new AppError('CONFLICT', 'This induction has already been passed.');
        }
        if (!isVideoComplete(assignment.watchedSeconds, video.durationSeconds)) {
          throw new AppError('CONFLICT', 'Watch the whole video before submitting the quiz.');
        }
        const result = scoreQuiz(video.questions, body.responses, video.passScore);
        const now = clock.now();
        const attempts = assignment.attempts + 1;
        await repository.updateAssignment(tx, actor.tenantId, assignment.id, {
          status: result.passed ? 'passed' : 'failed',
          attempts,
          lastAttemptAt: now,
          lastScore: result.score,
          passedAt: result.passed ? now : null,
        });
        await repository.insertAttempt(tx, {
          tenantId: actor.tenantId,
          id: newId(),
          assignmentId: assignment.id,
          submittedAt: now,
          submittedBy: actor.userId,
          responses: body.responses,
          correctAnswers: result.correctAnswers,
          totalQuestions: result.totalQuestions,
          score: result.score,
          passScore: result.passScore,
          passed: result.passed,
          watchedSeconds: assignment.watchedSeconds,
          reportedWatchedSeconds: body.videoWatchedSeconds ?? null,
        });
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'induction.submitted',
          targetType: 'induction_assignment',
          targetId: assignment.id,
          ip,
          details: { attempt: attempts, score: result.score, passed: result.passed },
        });
        return result;
      });
    },

    /** Spec §4: "rewatch the video (a retake call resets progress)". */
    retake: (actor: Actor, id: string, ip?: string) =>
      database.withTenant(actor.tenantId, async (tx) => {
        const { assignment } = await loadAssignment(actor, tx, id, true);
        if (assignment.status === 'passed') {
          throw new AppError('CONFLICT', 'This induction has already been passed.');
        }
        await repository.updateAssignment(tx, actor.tenantId, id, {
          watchedSeconds: 0,
          lastHeartbeatAt: null,
          status: 'assigned',
        });
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'induction.retake',
          targetType: 'induction_assignment',
          targetId: id,
          ip,
          details: { attempts: assignment.attempts },
        });
      }),

    /** Whether a driver (by ID number) has a passed induction within the tenant's validity period. */
    validity: (actor: Actor, driverIdNumber: string): Promise<InductionValidity> =>
      database.withTenant(actor.tenantId, (tx) =>
        validityWithin(tx, actor.tenantId, driverIdNumber),
      ),

    /** The same answer, for other modules inside their own tenant transaction (the plate lookup). */
    validityWithin,

    isComplete: (
      assignment: Pick<InductionAssignmentRow, 'watchedSeconds'>,
      video: Pick<SafetyVideoRow, 'durationSeconds'>,
    ) => isVideoComplete(assignment.watchedSeconds, video.durationSeconds),

    /**
     * The daily cleanup: a file uploaded for a video that was never saved (the form abandoned) is
     * deleted a day later, with its pending row; the file goes before the commit, so a storage
     * failure leaves the row for the next run.
     */
    purgeAbandonedUploads: (batch = PURGE_BATCH): Promise<number> =>
      drainInBatches({
        batch,
        nextBatch: async (limit) =>
          (
            await database.db.execute<{ tenant_id: string; file_key: string }>(
              sql`select * from safety_video_uploads_abandoned(${new Date(clock.now().getTime() - DAY_MS).toISOString()}::timestamptz, ${limit}::int)`,
            )
          ).rows,
        handle: ({ tenant_id: tenantId, file_key: fileKey }) =>
          database.withTenant(tenantId, async (tx) => {
            if (!(await repository.claimUpload(tx, tenantId, fileKey))) return false;
            await storage.delete(fileKey);
            return true;
          }),
      }),

    /**
     * The retention job: ends every assignment's driver photo whose biometric period (the
     * tenant's, else the server default) has passed since the assignment, tenant by tenant; the
     * assignment and its result stay. The file is deleted inside the row's transaction, before the
     * commit: a storage failure rolls the clearing back and the next run finds the key again.
     */
    purgeExpiredDriverPhotos: (batch = PURGE_BATCH): Promise<number> =>
      drainInBatches({
        batch,
        nextBatch: async (limit) =>
          (
            await database.db.execute<{ tenant_id: string; assignment_id: string }>(
              sql`select * from induction_assignments_due_photo_purge(${clock.now().toISOString()}::timestamptz, ${biometricRetentionDays}::int, ${limit}::int)`,
            )
          ).rows,
        handle: ({ tenant_id: tenantId, assignment_id: id }) =>
          database.withTenant(tenantId, async (tx) => {
            const photoKey = await repository.clearDriverPhoto(tx, tenantId, id);
            if (!photoKey) return false;
            await images.deleteImage(photoKey);
            await audit.record(tx, {
              tenantId,
              actorUserId: null,
              action: 'biometrics.purged',
              targetType: 'induction_assignment',
              targetId: id,
              details: { reason: 'retention period ended' },
            });
            return true;
          }),
      }),
  };
}
