import { z } from 'zod';

import { ImagePayloadSchema, ImageUrlSchema } from './images';
import { LanguageSchema } from './preferences';
import { IdSchema, TimestampSchema } from './primitives';

/** Uploaded safety videos: mp4 or webm, checked by their first bytes, at most 50 MiB. */
export const MAX_VIDEO_BYTES = 50 * 1024 * 1024;
export const VIDEO_CONTENT_TYPES = ['video/mp4', 'video/webm'] as const;
export const VideoContentTypeSchema = z.enum(VIDEO_CONTENT_TYPES);
export type VideoContentType = z.infer<typeof VideoContentTypeSchema>;

/** A video longer than this is refused: an induction is meant to be watched in one sitting. */
export const MAX_VIDEO_SECONDS = 2 * 3600;

/** Spec §5: the South African ID number (13); letters allowed for foreign documents. */
export const DriverIdNumberSchema = z
  .string()
  .transform((value) => value.replace(/[^0-9A-Za-z]/g, '').toUpperCase())
  .pipe(
    z.string().min(1, 'ID number is required').max(13, 'ID number must be at most 13 characters'),
  );

// ---- Safety videos ---------------------------------------------------------------------------

/** What a manager writes: the question, its options and the index of the correct one. */
export const QuizQuestionInputSchema = z
  .object({
    question: z.string().trim().min(1, 'Question text is required').max(300),
    options: z
      .array(z.string().trim().min(1, 'Options may not be empty').max(200))
      .min(2, 'A question needs at least 2 options')
      .max(6, 'A question may have at most 6 options'),
    correctIndex: z.number().int().min(0),
  })
  .strict()
  .refine((q) => q.correctIndex < q.options.length, {
    message: 'The correct option must be one of the options',
    path: ['correctIndex'],
  });
export type QuizQuestionInput = z.infer<typeof QuizQuestionInputSchema>;

/** What a driver sees before submitting: never the correct option. */
export const QuizQuestionSchema = z.object({
  question: z.string(),
  options: z.array(z.string()),
});
export type QuizQuestion = z.infer<typeof QuizQuestionSchema>;

export const VideoSourceInputSchema = z.discriminatedUnion('kind', [
  /** A file sent first to POST /api/safety-videos/files (its key comes back from there). */
  z.object({ kind: z.literal('upload'), fileKey: z.string().max(200) }).strict(),
  /** A video hosted elsewhere; its length cannot be read by the server, so the manager enters it. */
  z
    .object({
      kind: z.literal('url'),
      url: z
        .url({ protocol: /^https$/, message: 'The video URL must start with https://' })
        .max(2000),
      durationSeconds: z
        .number()
        .positive('Enter the video length in seconds')
        .max(MAX_VIDEO_SECONDS, 'The video may be at most 2 hours long'),
    })
    .strict(),
]);
export type VideoSourceInput = z.infer<typeof VideoSourceInputSchema>;

export const CreateSafetyVideoBodySchema = z
  .object({
    title: z.string().trim().min(1, 'Title is required').max(120),
    description: z.string().trim().max(2000).default(''),
    passScore: z
      .number()
      .int()
      .min(1, 'Pass score must be between 1 and 100')
      .max(100, 'Pass score must be between 1 and 100'),
    questions: z
      .array(QuizQuestionInputSchema)
      .min(1, 'Add at least one question')
      .max(50, 'A quiz may have at most 50 questions'),
    video: VideoSourceInputSchema,
    /** The language the video speaks and its quiz is written in (issue 19). */
    language: LanguageSchema.default('en'),
    /** The original video this one is a version of in another language, if it is one. */
    translationOf: IdSchema.nullish(),
  })
  .strict();
export type CreateSafetyVideoBody = z.input<typeof CreateSafetyVideoBodySchema>;

/** POST /api/safety-videos/files (raw video/mp4 or video/webm body). */
export const UploadedVideoFileSchema = z.object({
  fileKey: z.string(),
  contentType: VideoContentTypeSchema,
  sizeBytes: z.number().int(),
  durationSeconds: z.number(),
});
export type UploadedVideoFile = z.infer<typeof UploadedVideoFileSchema>;

/** GET /api/safety-videos/{videoId} (spec §7): what the induction page plays and asks. */
export const SafetyVideoSchema = z.object({
  id: IdSchema,
  title: z.string(),
  description: z.string(),
  /** The authorised file route for uploads, or the https URL. */
  videoUrl: z.string(),
  passScore: z.number().int(),
  durationSeconds: z.number(),
  questions: z.array(QuizQuestionSchema),
  language: LanguageSchema,
  /** The original video when this is its version in another language, else null. */
  translationOf: IdSchema.nullable(),
});
export type SafetyVideo = z.infer<typeof SafetyVideoSchema>;

/** The management list: no questions at all (correct options never leave the server). */
export const SafetyVideoSummarySchema = SafetyVideoSchema.omit({ questions: true }).extend({
  source: z.enum(['upload', 'url']),
  questionCount: z.number().int(),
  assignmentCount: z.number().int(),
  createdAt: TimestampSchema,
});
export type SafetyVideoSummary = z.infer<typeof SafetyVideoSummarySchema>;
export const SafetyVideoSummaryListSchema = z.array(SafetyVideoSummarySchema);

export const VideoIdParamsSchema = z.object({ videoId: IdSchema });

// ---- Assignments -------------------------------------------------------------------------------

export const InductionStatusSchema = z.enum(['assigned', 'in_progress', 'failed', 'passed']);
export type InductionStatus = z.infer<typeof InductionStatusSchema>;

export const InductionAssignmentSchema = z.object({
  id: IdSchema,
  videoId: IdSchema,
  videoTitle: z.string(),
  driverName: z.string(),
  driverIdNumber: z.string(),
  driverImage: ImageUrlSchema.nullable(),
  status: InductionStatusSchema,
  attempts: z.number().int(),
  lastAttemptAt: TimestampSchema.nullable(),
  lastScore: z.number().int().nullable(),
  /** Seconds of the video the server has seen played through (seeking ahead is not counted). */
  watchedSeconds: z.number(),
  videoComplete: z.boolean(),
  passedAt: TimestampSchema.nullable(),
  createdAt: TimestampSchema,
  /** The driver's language as given when assigning (null: not given). */
  driverLanguage: LanguageSchema.nullable(),
  /** The language of the video assigned: the driver's when a version in it exists. */
  videoLanguage: LanguageSchema,
});
export type InductionAssignment = z.infer<typeof InductionAssignmentSchema>;
export const InductionAssignmentListSchema = z.array(InductionAssignmentSchema);

export const CreateInductionAssignmentBodySchema = z
  .object({
    videoId: IdSchema,
    driverName: z.string().trim().min(1, 'Driver name is required').max(120),
    driverIdNumber: DriverIdNumberSchema,
    driverImage: ImagePayloadSchema.nullish(),
    /**
     * The driver's language (issue 19): the assignment is made with the chosen video's version in
     * it when one exists, else with the chosen video.
     */
    driverLanguage: LanguageSchema.nullish(),
  })
  .strict();
export type CreateInductionAssignmentBody = z.input<typeof CreateInductionAssignmentBodySchema>;

export const AssignmentIdParamsSchema = z.object({ assignmentId: IdSchema });

// ---- Taking the induction ----------------------------------------------------------------------

/** POST /api/induction/progress: a heartbeat while the video plays. */
export const InductionProgressBodySchema = z
  .object({
    assignmentId: IdSchema,
    positionSeconds: z.number().min(0).max(MAX_VIDEO_SECONDS),
  })
  .strict();
export type InductionProgressBody = z.infer<typeof InductionProgressBodySchema>;

export const InductionProgressSchema = z.object({
  watchedSeconds: z.number(),
  durationSeconds: z.number(),
  /** True once the whole video has been played through: the quiz may then be submitted. */
  videoComplete: z.boolean(),
});
export type InductionProgress = z.infer<typeof InductionProgressSchema>;

/** POST /api/induction/submit (spec §7). */
export const SubmitInductionBodySchema = z
  .object({
    assignmentId: IdSchema,
    responses: z.array(z.number().int().min(0)).max(50),
    /** What the page measured; informational only: the server counts watched time itself. */
    videoWatchedSeconds: z.number().min(0).optional(),
  })
  .strict();
export type SubmitInductionBody = z.infer<typeof SubmitInductionBodySchema>;

/** Spec §3: the induction result. */
export const InductionResultSchema = z.object({
  passed: z.boolean(),
  score: z.number().int(),
  passScore: z.number().int(),
  correctAnswers: z.number().int(),
  totalQuestions: z.number().int(),
});
export type InductionResult = z.infer<typeof InductionResultSchema>;

// ---- Validity at the gate ----------------------------------------------------------------------

export const InductionValiditySchema = z.object({
  status: z.enum(['valid', 'expired', 'none']),
  passedAt: TimestampSchema.nullable(),
  validUntil: TimestampSchema.nullable(),
});
export type InductionValidity = z.infer<typeof InductionValiditySchema>;

export const InductionValidityQuerySchema = z.object({ idNumber: DriverIdNumberSchema });
