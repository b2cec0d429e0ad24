import type { ErrorCode } from '@boomgate/contracts/api-error';

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  INVALID: 400,
  UNAUTHENTICATED: 401,
  REAUTH_REQUIRED: 401,
  FORBIDDEN: 403,
  DEVICE_REVOKED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
  INTERNAL: 500,
};

/**
 * An error a person can read. The HTTP edge turns `code` into a status. `cause` (optional) is what
 * went wrong underneath, for the logs only (a library's message the person must not see).
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: { retryAfterSeconds?: number; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'AppError';
  }
}

type PgError = { code?: string; constraint?: string };

/** True when Postgres refused a row because of the named unique constraint or index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const pgError = findPgError(error);
  return pgError?.code === '23505' && (!constraint || pgError.constraint === constraint);
}

/** Drizzle wraps driver errors; the Postgres fields live on the cause. */
export function findPgError(error: unknown): PgError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const candidate = current as PgError & { cause?: unknown };
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code))
      return candidate;
    current = candidate.cause;
  }
  return undefined;
}
