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

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      // Never headers (cookies) or bodies; the client address for security events (SEC-50).
      req: (request: { method: string; url: string; id: string; ip?: string }) => ({
        method: request.method,
        url: request.url,
        id: request.id,
        remoteAddress: request.ip,
      }),
    },
  };
}
