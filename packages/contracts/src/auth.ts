import { z } from 'zod';

import { IdSchema, MAX_PASSWORD_LENGTH, PasswordSchema, UsernameSchema } from './primitives';
import { LanguageSchema } from './preferences';
import { UserSchema } from './users';

export const TenantSchema = z.object({ id: IdSchema, name: z.string() });
export type Tenant = z.infer<typeof TenantSchema>;

/** GET /api/auth/me and the body of login/register/change-password responses. */
export const AuthResponseSchema = z.object({
  /** `language`: the user's chosen language (issue 19), null until they choose one. */
  user: UserSchema.extend({ language: LanguageSchema.nullable().optional() }),
  tenant: TenantSchema,
  requirePasswordChange: z.boolean().optional(),
  /**
   * SEC-26: the organization requires a second factor this account has not set up. The session
   * reaches only enrolment (POST /api/auth/mfa/totp/setup, …) until one is set up.
   */
  requireMfaEnrolment: z.boolean().optional(),
});
export type AuthResponse = z.infer<typeof AuthResponseSchema>;

/** The second sign-in step's methods: an authenticator code, a passkey, a recovery code. */
export const MfaMethodSchema = z.enum(['totp', 'passkey', 'recovery']);
export type MfaMethod = z.infer<typeof MfaMethodSchema>;

/**
 * POST /api/auth/login for an account with a second factor: the password was right, and the
 * session (cookie) can only complete the second step (POST /api/auth/mfa/verify or the passkey pair).
 */
export const MfaChallengeResponseSchema = z.object({
  mfaRequired: z.literal(true),
  methods: z.array(MfaMethodSchema),
});
export type MfaChallengeResponse = z.infer<typeof MfaChallengeResponseSchema>;

/** POST /api/auth/login: signed in, or the second step is owed. */
export const LoginResponseSchema = z.union([MfaChallengeResponseSchema, AuthResponseSchema]);
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

export const isMfaChallenge = (response: LoginResponse): response is MfaChallengeResponse =>
  'mfaRequired' in response;

// Login checks presence only: length rules belong to setting a password, not to typing one.
export const LoginBodySchema = z
  .object({
    username: z.string().trim().min(1, 'Please enter both username and password').max(64),
    password: z.string().min(1, 'Please enter both username and password').max(MAX_PASSWORD_LENGTH),
  })
  .strict();
export type LoginBody = z.infer<typeof LoginBodySchema>;

export const RegisterBodySchema = z
  .object({
    organizationName: z
      .string()
      .trim()
      .min(1, 'Please fill in all required fields')
      .max(120, 'Organization name must be at most 120 characters'),
    fullName: z
      .string()
      .trim()
      .min(1, 'Please fill in all required fields')
      .max(120, 'Full name must be at most 120 characters'),
    email: z
      .union([z.email('Enter a valid email address').max(254), z.literal('')])
      .optional()
      .transform((value) => value || undefined),
    username: UsernameSchema,
    password: PasswordSchema,
  })
  .strict();
export type RegisterBody = z.infer<typeof RegisterBodySchema>;

export const ChangePasswordBodySchema = z
  .object({
    currentPassword: z.string().min(1, 'Please fill in all fields').max(MAX_PASSWORD_LENGTH),
    newPassword: PasswordSchema,
  })
  .strict();
export type ChangePasswordBody = z.infer<typeof ChangePasswordBodySchema>;

/** POST /api/auth/reauth: the signed-in user's password again, before a sensitive request. */
export const ReauthBodySchema = z
  .object({ password: z.string().min(1, 'Password is required').max(MAX_PASSWORD_LENGTH) })
  .strict();
export type ReauthBody = z.infer<typeof ReauthBodySchema>;

export const LogoutResponseSchema = z.object({ ok: z.literal(true) });

// Forms (web): the spec's messages, checked in the order the spec lists them.
export const LoginFormSchema = z.object({
  username: z.string().trim().min(1, 'Please enter both username and password'),
  password: z.string().min(1, 'Please enter both username and password'),
});
export type LoginForm = z.infer<typeof LoginFormSchema>;

export const ChangePasswordFormSchema = z
  .object({
    newPassword: z.string().min(1, 'Please fill in all fields'),
    confirmPassword: z.string().min(1, 'Please fill in all fields'),
  })
  .pipe(
    z
      .object({ newPassword: PasswordSchema, confirmPassword: z.string() })
      .refine((form) => form.newPassword === form.confirmPassword, {
        message: 'Passwords do not match',
        path: ['confirmPassword'],
      }),
  );
export type ChangePasswordForm = z.input<typeof ChangePasswordFormSchema>;

export const RegisterFormSchema = z
  .object({
    organizationName: z.string().trim().min(1, 'Please fill in all required fields'),
    fullName: z.string().trim().min(1, 'Please fill in all required fields'),
    email: z.string().trim(),
    username: z.string().trim().min(1, 'Please fill in all required fields'),
    password: z.string().min(1, 'Please fill in all required fields'),
    confirmPassword: z.string().min(1, 'Please fill in all required fields'),
  })
  .pipe(
    z
      .object({
        organizationName: z.string(),
        fullName: z.string(),
        email: z.string(),
        username: z.string(),
        password: PasswordSchema,
        confirmPassword: z.string(),
      })
      .refine((form) => form.password === form.confirmPassword, {
        message: 'Passwords do not match',
        path: ['confirmPassword'],
      }),
  );
export type RegisterForm = z.input<typeof RegisterFormSchema>;
