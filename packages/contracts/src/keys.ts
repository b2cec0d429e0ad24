import { z } from 'zod';

import { IdSchema, TimestampSchema } from './primitives';

/**
 * Issue 26: a tenant's data-key rotation. A tenant_admin rotates its own organization's key (no
 * `tenantId`, or its own); a super_admin names the organization in `tenantId`.
 */
export const RotateKeysBodySchema = z.object({ tenantId: IdSchema.optional() }).strict();
export type RotateKeysBody = z.infer<typeof RotateKeysBodySchema>;

/** 202: the new key seals from now on; the job re-seals what the old one sealed, then erases it. */
export const RotateKeysResponseSchema = z.object({
  tenantId: IdSchema,
  /** The new active data key's version. */
  version: z.number().int().positive(),
  rotatedAt: TimestampSchema,
  job: z.object({
    id: z.string(),
    name: z.literal('keys.reseal'),
    state: z.literal('queued'),
  }),
});
export type RotateKeysResponse = z.infer<typeof RotateKeysResponseSchema>;

export const TenantKeySchema = z.object({
  /** `data` seals personal data (rotated); `index` keys the lookup hashes; `audit` seals the trail. */
  purpose: z.enum(['data', 'index', 'audit']),
  version: z.number().int().positive(),
  /** `retiring`: still opens what it sealed until the rotation's job has re-sealed it; `retired`: erased. */
  state: z.enum(['active', 'retiring', 'retired']),
  createdAt: TimestampSchema,
  retiredAt: TimestampSchema.nullable(),
  /** Whether the current master key (ENCRYPTION_KEY) wraps it; false until the re-wrap job has run. */
  wrappedByCurrentMaster: z.boolean(),
});

export const KeyStatusSchema = z.object({
  tenantId: IdSchema,
  /** Null until the organization's first keys exist (they are made when it first seals). */
  activeVersion: z.number().int().positive().nullable(),
  keys: z.array(TenantKeySchema),
  /** The latest data-key rotation (null: never rotated). `finishedAt` null while it is running. */
  lastRotation: z
    .object({
      version: z.number().int().positive(),
      startedAt: TimestampSchema,
      finishedAt: TimestampSchema.nullable(),
    })
    .nullable(),
  rotationInProgress: z.boolean(),
  /** What is still sealed with a data key other than the active one, per table and in storage. */
  leftOnOldVersions: z.object({
    rows: z.record(z.string(), z.number().int().nonnegative()),
    objects: z.number().int().nonnegative(),
  }),
});
export type KeyStatus = z.infer<typeof KeyStatusSchema>;
