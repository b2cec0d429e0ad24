import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import { AppError } from './errors';

/** The shared counters (modules/rate-limits): one statement counts a hit and decides. */
export type CounterStore = {
  hit(
    key: string,
    rule: { limit: number; windowMs: number },
  ): Promise<{ allowed: boolean; hits: number; resetMs: number }>;
};

type IncrCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * A @fastify/rate-limit store over the shared counters, so every API process counts together and
 * concurrent requests cannot slip past the limit. Each route (`child`) keeps its own count.
 */
function sharedStore(counters: CounterStore) {
  class SharedStore {
    private prefix = 'route:';

    incr(key: string, callback: IncrCallback, timeWindow: number, max: number) {
      counters.hit(this.prefix + key, { limit: max, windowMs: timeWindow }).then(
        (hit) => callback(null, { current: hit.allowed ? hit.hits : max + 1, ttl: hit.resetMs }),
        (error: Error) => callback(error),
      );
    }

    // The plugin passes the route's merged limit options, the route itself under `routeInfo`.
    child(routeOptions: object) {
      const route =
        (routeOptions as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo ??
        {};
      const store = new SharedStore();
      store.prefix = `route:${String(route.method ?? '')} ${route.url ?? ''}:`;
      return store;
    }
  }
  return SharedStore;
}

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
 * its own per-account and per-address throttle (auth module). Counters live in PostgreSQL
 * (rate_limit_counters), shared by every API process. Must be called before routes are registered.
 */
export async function registerRateLimits(
  app: FastifyInstance,
  {
    limits,
    defaultBodyLimit,
    counters,
  }: { limits: RateLimits; defaultBodyLimit: number; counters: CounterStore },
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
    store: sharedStore(counters),
    keyGenerator: callerKey,
    errorResponseBuilder: (_request, context) =>
      new AppError('RATE_LIMITED', `Too many requests. Please try again in ${context.after}.`, {
        retryAfterSeconds: Math.ceil(context.ttl / 1000),
      }),
  });
}
