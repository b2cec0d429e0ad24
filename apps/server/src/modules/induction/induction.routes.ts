import { Readable } from 'node:stream';

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import {
  AssignmentIdParamsSchema,
  CreateInductionAssignmentBodySchema,
  CreateSafetyVideoBodySchema,
  type InductionAssignment,
  InductionAssignmentListSchema,
  InductionAssignmentSchema,
  InductionProgressBodySchema,
  InductionProgressSchema,
  InductionResultSchema,
  InductionValidityQuerySchema,
  InductionValiditySchema,
  MAX_VIDEO_BYTES,
  type SafetyVideo,
  SafetyVideoSchema,
  type SafetyVideoSummary,
  SafetyVideoSummaryListSchema,
  SafetyVideoSummarySchema,
  SubmitInductionBodySchema,
  UploadedVideoFileSchema,
  VIDEO_CONTENT_TYPES,
  VideoIdParamsSchema,
} from '@boomgate/contracts/induction';
import type { LanguageCode } from '@boomgate/contracts/preferences';
import { EmptyBodySchema, NoContentSchema } from '@boomgate/contracts/primitives';

import type { ImagesService } from '@/modules/images';
import { ALL_ROLES, rolesAccess } from '@/platform/access';
import { AppError } from '@/platform/errors';
import { errorBody } from '@/platform/http';
import { IMAGE_BODY_LIMIT_BYTES } from '@/platform/images';

import type { InductionService } from './induction.service';
import type { InductionAssignmentRow, SafetyVideoRow } from './induction.table';
import { parseByteRange } from './byte-range';

/** Videos, quizzes and assignments are managed by the office; super_admin as everywhere else. */
const managers = rolesAccess(['super_admin', 'tenant_admin', 'back_office']);
/** Spec §2: the induction is a signed-in route; a driver takes it on any signed-in (kiosk) session. */
const anySignedIn = rolesAccess(ALL_ROLES);

const fileUrl = (videoId: string) => `/api/safety-videos/${videoId}/file`;
/** Every answer of the file route reads at most this much at a time, whatever was asked. */
const VIDEO_CHUNK_BYTES = 2 * 1024 * 1024;

/** The rest of a video after its first chunk, read one chunk at a time. */
async function* videoChunks(
  file: { size: number; read(start: number, end: number): Promise<Buffer> },
  first: Buffer,
): AsyncGenerator<Buffer> {
  yield first;
  for (let start = first.length; start < file.size; start += VIDEO_CHUNK_BYTES) {
    yield await file.read(start, Math.min(file.size, start + VIDEO_CHUNK_BYTES) - 1);
  }
}

/** The public shape: questions and options only, never which option is correct. */
export function toSafetyVideo(video: SafetyVideoRow): SafetyVideo {
  return {
    id: video.id,
    title: video.title,
    description: video.description,
    videoUrl: video.source === 'upload' ? fileUrl(video.id) : (video.videoUrl ?? ''),
    passScore: video.passScore,
    durationSeconds: video.durationSeconds,
    questions: video.questions.map(({ question, options }) => ({ question, options })),
    language: video.language,
    translationOf: video.translationOf,
  };
}

function toSummary(video: SafetyVideoRow & { assignmentCount: number }): SafetyVideoSummary {
  const { questions: _questions, ...shown } = toSafetyVideo(video);
  return {
    ...shown,
    source: video.source,
    questionCount: video.questions.length,
    assignmentCount: video.assignmentCount,
    createdAt: video.createdAt.toISOString(),
  };
}

export function inductionRoutes(
  service: InductionService,
  images: Pick<ImagesService, 'urlFor'>,
): FastifyPluginAsyncZod {
  const toAssignment = (
    row: InductionAssignmentRow & { videoTitle: string; videoLanguage: LanguageCode },
    video?: Pick<SafetyVideoRow, 'durationSeconds'>,
  ): InductionAssignment => ({
    id: row.id,
    videoId: row.videoId,
    videoTitle: row.videoTitle,
    driverName: row.driverName,
    driverIdNumber: row.driverIdNumber,
    driverImage: images.urlFor(row.driverPhotoKey),
    status: row.status,
    attempts: row.attempts,
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    lastScore: row.lastScore,
    watchedSeconds: Math.round(row.watchedSeconds * 10) / 10,
    videoComplete: video ? service.isComplete(row, video) : row.status === 'passed',
    passedAt: row.passedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    driverLanguage: row.driverLanguage,
    videoLanguage: row.videoLanguage,
  });
  const withVideo = (row: InductionAssignmentRow & { video: SafetyVideoRow }) =>
    toAssignment(
      { ...row, videoTitle: row.video.title, videoLanguage: row.video.language },
      row.video,
    );

  return async (app) => {
    // ---- management ------------------------------------------------------------------------
    app.get(
      '/safety-videos',
      {
        config: managers,
        schema: {
          tags: ['induction'],
          operationId: 'listSafetyVideos',
          response: { 200: SafetyVideoSummaryListSchema },
        },
      },
      async (request) => (await service.listVideos(request.actor)).map(toSummary),
    );

    // The raw video body is parsed only in this child plugin, with its own size limit.
    await app.register(async (uploads) => {
      uploads.addContentTypeParser(
        [...VIDEO_CONTENT_TYPES],
        { parseAs: 'buffer', bodyLimit: MAX_VIDEO_BYTES },
        (_request, body, done) => done(null, body),
      );
      uploads.post(
        '/safety-videos/files',
        {
          config: managers,
          bodyLimit: MAX_VIDEO_BYTES,
          schema: {
            tags: ['induction'],
            operationId: 'uploadSafetyVideoFile',
            summary: 'Upload a video file (raw video/mp4 or video/webm body, at most 50 MiB)',
            consumes: [...VIDEO_CONTENT_TYPES],
            response: { 201: UploadedVideoFileSchema },
          },
        },
        async (request, reply) => {
          if (!Buffer.isBuffer(request.body)) {
            throw new AppError(
              'UNSUPPORTED_MEDIA_TYPE',
              'Send the video file itself as video/mp4 or video/webm.',
            );
          }
          const declared = request.headers['content-type']?.split(';')[0]?.trim();
          const file = await service.uploadVideoFile(request.actor, request.body, declared);
          return reply.code(201).send(file);
        },
      );
    });

    app.post(
      '/safety-videos',
      {
        config: managers,
        schema: {
          tags: ['induction'],
          operationId: 'createSafetyVideo',
          body: CreateSafetyVideoBodySchema,
          response: { 201: SafetyVideoSummarySchema },
        },
      },
      async (request, reply) => {
        const video = await service.createVideo(request.actor, request.body, request.ip);
        return reply.code(201).send(toSummary(video));
      },
    );

    app.delete(
      '/safety-videos/:videoId',
      {
        config: managers,
        schema: {
          tags: ['induction'],
          operationId: 'deleteSafetyVideo',
          params: VideoIdParamsSchema,
          response: { 204: NoContentSchema },
        },
      },
      async (request, reply) => {
        await service.deleteVideo(request.actor, request.params.videoId, request.ip);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/induction/assignments',
      {
        config: managers,
        schema: {
          tags: ['induction'],
          operationId: 'listInductionAssignments',
          response: { 200: InductionAssignmentListSchema },
        },
      },
      async (request) =>
        (await service.listAssignments(request.actor)).map((row) => toAssignment(row)),
    );

    app.post(
      '/induction/assignments',
      {
        config: managers,
        bodyLimit: IMAGE_BODY_LIMIT_BYTES,
        schema: {
          tags: ['induction'],
          operationId: 'createInductionAssignment',
          body: CreateInductionAssignmentBodySchema,
          response: { 201: InductionAssignmentSchema },
        },
      },
      async (request, reply) => {
        const row = await service.createAssignment(request.actor, request.body, request.ip);
        return reply.code(201).send(withVideo(row));
      },
    );

    app.delete(
      '/induction/assignments/:assignmentId',
      {
        config: managers,
        schema: {
          tags: ['induction'],
          operationId: 'deleteInductionAssignment',
          params: AssignmentIdParamsSchema,
          response: { 204: NoContentSchema },
        },
      },
      async (request, reply) => {
        await service.deleteAssignment(request.actor, request.params.assignmentId, request.ip);
        return reply.code(204).send(null);
      },
    );

    // ---- taking the induction (spec §7) ------------------------------------------------------
    app.get(
      '/induction/assignment/:assignmentId',
      {
        config: anySignedIn,
        schema: {
          tags: ['induction'],
          operationId: 'getInductionAssignment',
          params: AssignmentIdParamsSchema,
          response: { 200: InductionAssignmentSchema },
        },
      },
      async (request) =>
        withVideo(await service.getAssignment(request.actor, request.params.assignmentId)),
    );

    app.get(
      '/safety-videos/:videoId',
      {
        config: anySignedIn,
        schema: {
          tags: ['induction'],
          operationId: 'getSafetyVideo',
          params: VideoIdParamsSchema,
          response: { 200: SafetyVideoSchema },
        },
      },
      async (request) =>
        toSafetyVideo(await service.getVideo(request.actor, request.params.videoId)),
    );

    app.get(
      '/safety-videos/:videoId/file',
      {
        config: anySignedIn,
        schema: {
          tags: ['induction'],
          operationId: 'getSafetyVideoFile',
          summary: 'The uploaded video file; supports a single HTTP Range (browsers seek with it)',
          params: VideoIdParamsSchema,
        },
      },
      async (request, reply) => {
        const file = await service.openVideoFile(request.actor, request.params.videoId);
        void reply
          .type(file.contentType)
          .header('accept-ranges', 'bytes')
          .header('content-disposition', 'inline')
          .header('content-security-policy', 'sandbox');
        const range = parseByteRange(request.headers.range, file.size);
        if (range === 'unsatisfiable') {
          return reply
            .code(416)
            .type('application/json')
            .header('content-range', `bytes */${file.size}`)
            .send(errorBody('INVALID', 'The requested range is outside the video.'));
        }
        if (!range) {
          // The whole file, streamed a chunk at a time so memory stays bounded by the chunk size.
          // The first chunk is read before answering, so a missing file is still a 404.
          const first = await file.read(0, Math.min(file.size, VIDEO_CHUNK_BYTES) - 1);
          return reply
            .header('content-length', file.size)
            .send(Readable.from(videoChunks(file, first)));
        }
        // Every range is answered at most one chunk long, with the Content-Range actually sent
        // (RFC 9110 §14.4): browsers then ask for the rest, and no request reads a whole file.
        const end = Math.min(range.end, range.start + VIDEO_CHUNK_BYTES - 1);
        return reply
          .code(206)
          .header('content-range', `bytes ${range.start}-${end}/${file.size}`)
          .send(await file.read(range.start, end));
      },
    );

    app.post(
      '/induction/progress',
      {
        config: anySignedIn,
        schema: {
          tags: ['induction'],
          operationId: 'recordInductionProgress',
          summary:
            'A heartbeat while the video plays; watched time is credited by the server clock',
          body: InductionProgressBodySchema,
          response: { 200: InductionProgressSchema },
        },
      },
      async (request) => {
        const row = await service.recordProgress(request.actor, request.body);
        return {
          watchedSeconds: Math.round(row.watchedSeconds * 10) / 10,
          durationSeconds: row.video.durationSeconds,
          videoComplete: row.status === 'passed' || service.isComplete(row, row.video),
        };
      },
    );

    app.post(
      '/induction/submit',
      {
        config: anySignedIn,
        schema: {
          tags: ['induction'],
          operationId: 'submitInduction',
          body: SubmitInductionBodySchema,
          response: { 200: InductionResultSchema },
        },
      },
      async (request) => service.submit(request.actor, request.body, request.ip),
    );

    app.post(
      '/induction/retake/:assignmentId',
      {
        config: anySignedIn,
        schema: {
          tags: ['induction'],
          operationId: 'retakeInduction',
          params: AssignmentIdParamsSchema,
          body: EmptyBodySchema,
          response: { 204: NoContentSchema },
        },
      },
      async (request, reply) => {
        await service.retake(request.actor, request.params.assignmentId, request.ip);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/induction/status',
      {
        config: anySignedIn,
        schema: {
          tags: ['induction'],
          operationId: 'getInductionValidity',
          summary: "A driver's induction at the gate: valid, expired or none (by ID number)",
          querystring: InductionValidityQuerySchema,
          response: { 200: InductionValiditySchema },
        },
      },
      async (request) => service.validity(request.actor, request.query.idNumber),
    );
  };
}
