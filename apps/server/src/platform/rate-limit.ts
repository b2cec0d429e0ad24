import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import { AppError } from './errors';

export type RateLimits = {
  /** Image uploads (OCR, face comparison, documents, registrations with photos…) per user a minute. */
  uploadsPerMinute: number;
  /** New organizations per client address an hour. */
  registrationsPerHour: number;
};

// Signed-in callers are counted per user (a new session does not reset the count), others per
// address (request.ip honours TRUST_PROXY, never a client-chosen X-Forwarded-For).
const callerKey = (request: FastifyRequest) =>
  (request.actor as { userId?: string } | null)?.userId ?? `ip:${request.ip}`;

// A multipart route streams its file past the body limit (the bulk import takes 10 MB and parses
// it), so it counts as an upload whatever its bodyLimit says.
const isMultipart = (schema: unknown) =>
  (schema as { consumes?: readonly string[] } | undefined)?.consumes?.includes(
    'multipart/form-data',
  ) ?? false;

/**
 * Limits the expensive routes: every route that accepts a body larger than the app's default
 * (`defaultBodyLimit`), which is every image upload, every multipart upload (the documented
 * `consumes: ['multipart/form-data']`), and sign-up; each route keeps its own count. Sign-in has
 * its own per-account and per-address throttle (auth module). Counters live in process memory:
 * with several API processes each counts on its own. Must be called before routes are registered.
 */
export async function registerRateLimits(
  app: FastifyInstance,
  { limits, defaultBodyLimit }: { limits: RateLimits; defaultBodyLimit: number },
) {
  // Runs before the plugin's own onRoute hook (registered below), which reads config.rateLimit.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.config?.rateLimit !== undefined) return;
    if (route.url === '/api/auth/register') {
      route.config = {
        ...route.config,
        rateLimit: { max: limits.registrationsPerHour, timeWindow: 3_600_000 },
      };
    } else if ((route.bodyLimit ?? 0) > defaultBodyLimit || isMultipart(route.schema)) {
      route.config = {
        ...route.config,
        rateLimit: { max: limits.uploadsPerMinute, timeWindow: 60_000 },
      };
    }
  });
  await app.register(fastifyRateLimit, {
    global: false,
    keyGenerator: callerKey,
    errorResponseBuilder: (_request, context) =>
      new AppError('RATE_LIMITED', `Too many requests. Please try again in ${context.after}.`, {
        retryAfterSeconds: Math.ceil(context.ttl / 1000),
      }),
  });
}
