import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import type { LanguageCode } from '@boomgate/contracts/preferences';

import { tenants } from '@/modules/tenants/tenants.table';

export type StoredQuestion = { question: string; options: string[]; correctIndex: number };

/** A safety video with its quiz. The correct options live only here, never in a response. */
export const safetyVideos = pgTable(
  'safety_videos',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    id: uuid().notNull(),
    title: text().notNull(),
    description: text().notNull().default(''),
    /** 'upload': `videoKey` in object storage; 'url': an https `videoUrl` hosted elsewhere. */
    source: text({ enum: ['upload', 'url'] }).notNull(),
    videoKey: text(),
    videoUrl: text(),
    contentType: text(),
    sizeBytes: integer(),
    /** Read from the file for uploads, entered by the manager for URLs. */
    durationSeconds: real().notNull(),
    passScore: integer().notNull(),
    questions: jsonb().$type<StoredQuestion[]>().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid(),
    /** The language the video speaks and its quiz is written in (issue 19). */
    language: text().$type<LanguageCode>().notNull().default('en'),
    /** The original video when this is its version in another language. */
    translationOf: uuid(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({
      columns: [t.tenantId, t.translationOf],
      foreignColumns: [t.tenantId, t.id],
    }),
    // One version per language of a video: the original and its translations share the root id.
    uniqueIndex('safety_videos_tenant_root_language_idx').on(
      t.tenantId,
      sql`coalesce(${t.translationOf}, ${t.id})`,
      t.language,
    ),
  ],
);

/**
 * A video file uploaded but not yet part of a safety video (the upload comes first, the form's
 * save second). Creating the video claims the row; a daily job deletes files left unclaimed for a
 * day (an abandoned form), so uploads never pile up in storage.
 */
export const safetyVideoUploads = pgTable(
  'safety_video_uploads',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    fileKey: text().notNull(),
    uploadedAt: timestamp({ withTimezone: true }).notNull(),
    uploadedBy: uuid(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.fileKey] }),
    index('safety_video_uploads_uploaded_idx').on(t.uploadedAt),
  ],
);

/** A video assigned to a driver: progress, attempts and the outcome. */
export const inductionAssignments = pgTable(
  'induction_assignments',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    id: uuid().notNull(),
    videoId: uuid().notNull(),
    driverName: text().notNull(),
    /**
     * Normalised (alphanumerics, upper case) before sealing. Issue 26: sealed (`sv1.…`); the gate
     * looks validity up by driverIdNumberHash, its keyed hash (domain sa_id_number).
     */
    driverIdNumber: text().notNull(),
    driverIdNumberHash: text(),
    driverPhotoKey: text(),
    status: text({ enum: ['assigned', 'in_progress', 'failed', 'passed'] })
      .notNull()
      .default('assigned'),
    attempts: integer().notNull().default(0),
    lastAttemptAt: timestamp({ withTimezone: true }),
    lastScore: integer(),
    /** The furthest point played through continuously, as credited by heartbeats. */
    watchedSeconds: real().notNull().default(0),
    lastHeartbeatAt: timestamp({ withTimezone: true }),
    passedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid(),
    /** The driver's language as given when assigning; the video is its version in it if any. */
    driverLanguage: text().$type<LanguageCode>(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({
      columns: [t.tenantId, t.videoId],
      foreignColumns: [safetyVideos.tenantId, safetyVideos.id],
    }),
    index('induction_assignments_tenant_video_idx').on(t.tenantId, t.videoId),
    index('induction_assignments_tenant_driver_hash_idx').on(
      t.tenantId,
      t.driverIdNumberHash,
      t.passedAt,
    ),
    index('induction_assignments_tenant_created_idx').on(t.tenantId, t.createdAt),
  ],
);

/** Every submitted quiz, kept as the record of what the driver answered and scored. */
export const inductionAttempts = pgTable(
  'induction_attempts',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    id: uuid().notNull(),
    assignmentId: uuid().notNull(),
    submittedAt: timestamp({ withTimezone: true }).notNull(),
    submittedBy: uuid(),
    responses: jsonb().$type<number[]>().notNull(),
    correctAnswers: integer().notNull(),
    totalQuestions: integer().notNull(),
    score: integer().notNull(),
    passScore: integer().notNull(),
    passed: boolean().notNull(),
    watchedSeconds: real().notNull(),
    /** What the page reported (spec §7 `videoWatchedSeconds`); kept for comparison only. */
    reportedWatchedSeconds: real(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({
      columns: [t.tenantId, t.assignmentId],
      foreignColumns: [inductionAssignments.tenantId, inductionAssignments.id],
    }),
    index('induction_attempts_tenant_assignment_idx').on(t.tenantId, t.assignmentId),
  ],
);

export type SafetyVideoRow = typeof safetyVideos.$inferSelect;
export type NewSafetyVideoRow = typeof safetyVideos.$inferInsert;
export type InductionAssignmentRow = typeof inductionAssignments.$inferSelect;
export type NewInductionAssignmentRow = typeof inductionAssignments.$inferInsert;
export type NewInductionAttemptRow = typeof inductionAttempts.$inferInsert;
