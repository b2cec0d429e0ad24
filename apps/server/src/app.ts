import { existsSync } from 'node:fs';
import path from 'node:path';

import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  type ZodTypeProvider,
  jsonSchemaTransform,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { z } from 'zod';

import type { Env } from '@/config/env';
import type { Modules } from '@/modules';
import { registerManagedCentrally } from '@/modules/site-node';
import { publicAccess, requireAccessDeclarations } from '@/platform/access';
import { CSP_REPORT_PATH, cspReportRoutes } from '@/platform/csp-reports';
import type { Database } from '@/platform/db';
import { AppError } from '@/platform/errors';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  errorBody,
  handleClientError,
  handleError,
  handleFrameworkError,
  registerCrossSiteRequestGuard,
  registerHostAllowlist,
  holdsNulCharacter,
  UNSTORABLE_VALUE_MESSAGE,
} from '@/platform/http';
import { loggerOptions } from '@/platform/logger';
import { registerRateLimits } from '@/platform/rate-limit';
import { responseSerializerCompiler } from '@/platform/response-serializer';

export type BuildAppOptions = {
  env: Env;
  modules: Modules;
  database: Pick<Database, 'pool'>;
  /** Tests pass a logger that writes to memory. */
  logger?: FastifyBaseLogger;
  /** True once main.ts has begun a graceful shutdown: new requests then get 503 (REL-05). */
  isDraining?: () => boolean;
};

// Exempt from the cross-site guard: callers that authenticate by signature, not by cookie, and
// browsers' CSP reports (no cookie, no effect beyond a log line, and not always with fetch metadata).
const CROSS_SITE_EXEMPT: readonly RegExp[] = [
  /^\/api\/csp-report(?:\?|$)/,
  /^\/api\/webhook\/incoming\//,
  /^\/api\/anpr\/[A-Za-z0-9_-]{43}(?:[/?]|$)/,
];

const HealthSchema = z.object({ status: z.literal('ok') });
const ReadySchema = z.object({ status: z.literal('ready') });
/** A readiness probe waits this long for the database before answering 503. */
const READY_DATABASE_TIMEOUT_MS = 2_000;

export async function buildApp({
  env,
  modules,
  database,
  logger,
  isDraining = () => false,
}: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: loggerOptions(env.LOG_LEVEL) }),
    trustProxy: env.trustProxy ?? false,
    bodyLimit: 1024 * 1024,
    requestTimeout: 60_000,
    connectionTimeout: 60_000,
    return503OnClosing: true,
    frameworkErrors: handleFrameworkError,
    clientErrorHandler: handleClientError,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // The hot lists skip zod's re-encoding in production only; elsewhere it is checked byte for byte
  // (platform/response-serializer.ts, ADR 0010).
  app.setSerializerCompiler(responseSerializerCompiler({ verify: !env.isProduction }));
  app.setErrorHandler(handleError);

  // JSON is the only request body the API understands; an empty body counts as no body.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      const parsed: unknown = JSON.parse(text);
      if (holdsNulCharacter(text))
        return done(new AppError('INVALID', UNSTORABLE_VALUE_MESSAGE), undefined);
      done(null, parsed);
    } catch {
      done(
        Object.assign(new Error('Invalid JSON'), {
          statusCode: 400,
          code: 'FST_ERR_CTP_INVALID_JSON_BODY',
        }),
        undefined,
      );
    }
  });

  requireAccessDeclarations(app, {
    isApiRoute: (url) => url.startsWith('/api/') && !url.startsWith('/api/docs'),
  });

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // 'wasm-unsafe-eval' lets the page compile WebAssembly (the liveness face model: 56 ms a frame
        // instead of ~650 ms on software WebGL); it does not allow eval of JavaScript.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        // https: a safety video may be hosted elsewhere (a URL); media elements cannot run script.
        mediaSrc: ["'self'", 'blob:', 'https:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        reportUri: [CSP_REPORT_PATH],
      },
    },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(fastifyCookie);

  // Draining before the listener closes: requests already routed here get a clean 503 in the
  // spec's format (and the connection closed) while in-flight ones finish.
  app.addHook('onRequest', async (_request, reply) => {
    if (!isDraining()) return;
    return reply
      .code(503)
      .header('connection', 'close')
      .header('retry-after', '5')
      .send(errorBody('UNAVAILABLE', 'The service is restarting. Please try again shortly.'));
  });

  // Personal data must not linger in browser or proxy caches.
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/') && !request.url.startsWith('/api/docs/static')) {
      void reply.header('cache-control', 'no-store');
    }
  });

  registerHostAllowlist(app, {
    origins: [...(env.PUBLIC_ORIGIN ? [env.PUBLIC_ORIGIN] : []), ...env.allowedOrigins],
    // The load balancer's health check uses whatever Host it likes (often the instance address).
    isExempt: (url) => /^\/api\/(?:health|ready)(?:\?|$)/.test(url),
  });
  registerCrossSiteRequestGuard(app, {
    allowedOrigins: env.allowedOrigins,
    isExempt: (url) => CROSS_SITE_EXEMPT.some((pattern) => pattern.test(url)),
  });
  modules.auth.registerAuthentication(app);
  // Issue 28: a site node refuses master-data edits (central wins); after the access checks.
  if (modules.siteNode.isSiteNode) registerManagedCentrally(app);
  // After authentication (counts per user), before the routes (applies to each as registered).
  await registerRateLimits(app, {
    limits: {
      uploadsPerMinute: env.RATE_LIMIT_UPLOADS_PER_MINUTE,
      registrationsPerHour: env.RATE_LIMIT_REGISTRATIONS_PER_HOUR,
    },
    defaultBodyLimit: app.initialConfig.bodyLimit ?? 1024 * 1024,
    counters: modules.rateLimits.store,
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Boomgate API',
        version: '1.0.0',
        description:
          'Gate, vehicle and driver verification. Browser clients authenticate with the session cookie set by ' +
          '`POST /api/auth/login`. Errors are `{ "error": { "code", "message", "issues"? } }`.',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'bg_session' },
          // A gate's site agent (issue 17): the token POST /api/gates/{id}/agent-token shows once.
          agentToken: { type: 'http', scheme: 'bearer' },
          // A site node (issue 28): the token POST /api/sites/{id}/node-tokens shows once.
          siteToken: { type: 'http', scheme: 'bearer' },
        },
        schemas: { ...modules.webhooks.openApi.schemas },
      },
      tags: [...modules.webhooks.openApi.tags, ...modules.mfa.openApi.tags],
      security: [{ session: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { validatorUrl: null },
  });

  await app.register(
    async (api) => {
      api.get(
        '/health',
        {
          config: publicAccess(),
          schema: { tags: ['system'], operationId: 'health', response: { 200: HealthSchema } },
        },
        async () => {
          await database.pool.query('select 1');
          return { status: 'ok' as const };
        },
      );
      // For a load balancer: ready = not draining (the onRequest hook above answers 503 then) and
      // the database answers in time; anything else is 503, so it stops routing here.
      api.get(
        '/ready',
        {
          config: publicAccess(),
          schema: {
            tags: ['system'],
            operationId: 'ready',
            description:
              'Readiness for a load balancer: 200 while this instance takes traffic (database reachable, not ' +
              'shutting down), 503 in the error format otherwise.',
            response: { 200: ReadySchema },
          },
        },
        async () => {
          let timer: ReturnType<typeof setTimeout> | undefined;
          const timedOut = new Promise<never>((_resolve, reject) => {
            timer = setTimeout(() => reject(new Error('timeout')), READY_DATABASE_TIMEOUT_MS);
          });
          try {
            await Promise.race([database.pool.query('select 1'), timedOut]);
          } catch {
            // As every other route answers while the database is down (REL-06): 503, Retry-After.
            throw new AppError('UNAVAILABLE', 'The database is not reachable.', {
              retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
            });
          } finally {
            clearTimeout(timer);
          }
          return { status: 'ready' as const };
        },
      );
      await api.register(cspReportRoutes);
      await api.register(modules.auth.routes);
      for (const routes of [
        modules.users.routes,
        modules.mfa.routes,
        modules.images.routes,
        modules.approvedVehicles.routes,
        modules.drivers.routes,
        modules.onboarding.routes,
        modules.documents.routes,
        modules.entryLogs.routes,
        modules.entryLogs.exportRoutes,
        modules.reports.routes,
        modules.truckList.routes,
        modules.vision.routes,
        modules.faces.routes,
        modules.webhooks.routes,
        modules.webhooks.incomingRoutes,
        modules.anpr.routes,
        modules.anpr.pushRoutes,
        modules.barriers.routes,
        modules.anprLanes.routes,
        modules.induction.routes,
        modules.settings.routes,
        modules.privacy.routes,
        modules.auditEvents.routes,
        modules.keys.routes,
        modules.alerts.routes,
        modules.watchlist.routes,
        modules.documentRules.routes,
        modules.overridePins.routes,
        modules.sites.routes,
        modules.visits.routes,
        modules.devices.routes,
        // On a site node the node's own status route answers (mode 'site_node'); central's
        // sync routes serve site nodes and exist only at central.
        ...(modules.siteNode.isSiteNode ? [] : [modules.siteSync.routes]),
        modules.siteNode.routes,
      ]) {
        await api.register(routes);
      }
    },
    { prefix: '/api' },
  );

  await registerWebApp(app, env);
  return app;
}

/** Serves the built single-page app; unknown non-API paths get index.html (client routing). */
async function registerWebApp(app: FastifyInstance, env: Env) {
  const root = path.resolve(env.WEB_DIST_DIR);
  const hasWebApp = existsSync(path.join(root, 'index.html'));
  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      maxAge: '1h',
      immutable: false,
      // The web build writes .br/.gz beside each file (apps/web/vite.config.ts): sent as they are.
      preCompressed: true,
    });
  }
  app.setNotFoundHandler((request, reply) => {
    // HEAD answers like GET, without the body (Node drops it), wherever GET works.
    const isPageRequest =
      (request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api');
    if (isPageRequest && hasWebApp) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html', root, { maxAge: 0 });
    }
    return reply.code(404).send(errorBody('NOT_FOUND', 'Not found.'));
  });
}
