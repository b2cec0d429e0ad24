import { z } from 'zod';

export const ErrorCodeSchema = z.enum([
  'INVALID',
  'UNAUTHENTICATED',
  /** Signed in, but this request needs the password given again (POST /api/auth/reauth). */
  'REAUTH_REQUIRED',
  'FORBIDDEN',
  /** Issue 18: this device was revoked by an admin; the app wipes its queue and cached data. */
  'DEVICE_REVOKED',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'UNPROCESSABLE',
  'RATE_LIMITED',
  'UNAVAILABLE',
  'INTERNAL',
]);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

/** Every non-2xx body. `message` is a sentence a person can read; `issues` lists field problems. */
export const ApiErrorSchema = z.object({
  error: z.object({
    code: ErrorCodeSchema,
    message: z.string(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  }),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;
