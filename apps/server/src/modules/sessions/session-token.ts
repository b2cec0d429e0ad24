import { createHmac } from 'node:crypto';

/**
 * The database keeps only an HMAC of the cookie's token: a leaked sessions table (or backup)
 * cannot be replayed as cookies without the server's secret as well.
 */
export function hashSessionToken(token: string, secret: string): string {
  return createHmac('sha256', secret).update(token).digest('base64url');
}

/** Tokens we issue are 43 base64url characters (256 bits); anything else is not worth a query. */
export function isWellFormedToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}
