import type { FastifyServerOptions } from 'fastify';

/** Paths whose values never reach the logs: credentials, session ids, personal numbers, images. */
export const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["webhook-signature"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.idNumber',
  '*.identityNumber',
  '*.image',
];

// Runs of 9 or more digits in a URL: SA ID numbers (13 digits, e.g. the query of
// GET /api/induction/status?idNumber=; the data-subject routes take theirs in the JSON body) and
// phone numbers. Plates and ids never have that many digits in a row.
const LONG_NUMBER = /\d{9,}/g;

/** Never headers (cookies) or bodies; the client address for security events (SEC-50). */
export const LOG_SERIALIZERS = {
  req: (request: { method: string; url: string; id: string; ip?: string }) => ({
    method: request.method,
    url: request.url.replace(LONG_NUMBER, '[redacted]'),
    id: request.id,
    remoteAddress: request.ip,
  }),
};

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: LOG_SERIALIZERS,
  };
}
