import { z } from 'zod';

import { IdSchema, PasswordSchema, UsernameSchema } from './primitives';
import { DEFAULT_ROLE, RoleSchema } from './roles';

const FullNameSchema = z.string().trim().max(120, 'Full name must be at most 120 characters');
const EmailSchema = z.email('Enter a valid email address').max(254);

export const UserSchema = z.object({
  id: IdSchema,
  username: z.string(),
  fullName: z.string().nullable(),
  email: z.string().nullable(),
  role: RoleSchema,
  isActive: z.boolean(),
  /** Issue 16: the sites the user works at (empty: a guard works at the default site). */
  siteIds: z.array(IdSchema).optional(),
});
export type User = z.infer<typeof UserSchema>;

export const UserListSchema = z.array(UserSchema);

export const CreateUserBodySchema = z
  .object({
    username: UsernameSchema,
    password: PasswordSchema,
    fullName: FullNameSchema.optional().transform((value) => value || undefined),
    email: z
      .union([EmailSchema, z.literal('')])
      .optional()
      .transform((value) => value || undefined),
    role: RoleSchema.default(DEFAULT_ROLE),
    siteIds: z.array(IdSchema).max(100).optional(),
  })
  .strict();
export type CreateUserBody = z.infer<typeof CreateUserBodySchema>;

/** Spec §5: only non-empty fields are sent; a blank password keeps the current one. */
export const UpdateUserBodySchema = z
  .object({
    fullName: FullNameSchema.min(1).optional(),
    email: EmailSchema.optional(),
    role: RoleSchema.optional(),
    password: PasswordSchema.optional(),
    /** Replaces the user's site assignments. */
    siteIds: z.array(IdSchema).max(100).optional(),
  })
  .strict();
export type UpdateUserBody = z.infer<typeof UpdateUserBodySchema>;

export const UserIdParamsSchema = z.object({ id: IdSchema });
