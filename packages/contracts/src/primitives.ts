import { z } from 'zod';

export const IdSchema = z.uuid();
/** UTC ISO-8601 on the wire, always. */
export const TimestampSchema = z.iso.datetime({ offset: true });

/** Spec §9: the minimum password length. The server may be configured stricter, never weaker. */
export const MIN_PASSWORD_LENGTH = 6;
/** Long enough for passphrases (ASVS asks for at least 64), short enough to bound hashing cost. */
export const MAX_PASSWORD_LENGTH = 128;

export const PasswordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`);

/** Usernames are case-insensitive: stored lower-case so "Thabo" and "thabo" are one account. */
export const UsernameSchema = z
  .string()
  .trim()
  .min(3, 'Username must be at least 3 characters')
  .max(64, 'Username must be at most 64 characters')
  .regex(/^[A-Za-z0-9._@-]+$/, 'Username may contain letters, digits and . _ @ - only')
  .transform((value) => value.toLowerCase());

// Fastify hands a missing body to the validator as null.
export const EmptyBodySchema = z.object({}).strict().nullish();

/** A 204 No Content answer: the route's response schema says there is no body. */
export const NoContentSchema = z.null();

/** Keyset pages, newest first: `cursor` is the `X-Next-Cursor` header of the previous page. */
export const PageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  cursor: z.string().max(100).optional(),
});
export const NEXT_CURSOR_HEADER = 'x-next-cursor';

/** A whole-number count sent in a response header (absent or malformed reads as 0). */
export function readCountHeader(headers: Pick<Headers, 'get'>, name: string): number {
  const value = Number(headers.get(name));
  return Number.isSafeInteger(value) && value >= 0 ? value : 0;
}
