/**
 * SEC-66: every API route declares zod schemas for what it reads and what it answers. A response
 * schema for its success status, so Fastify's serializer drops fields the contract does not name
 * and the OpenAPI document describes the answer; a params schema when its URL has parameters; a
 * body schema for POST, PUT and PATCH (except the uploads and bodiless actions listed below); a
 * querystring schema when its handler reads the query. Walks the routes registered on the app
 * (`declaredRoutes`, as the authorization matrix does); the success status of each is the
 * matrix's `allowed` status when that is a 2xx.
 */
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type DeclaredRoute, declaredRoutes } from '@/platform/access';
import { type TestApp, createTestApp } from '@/testing/test-app';

import { ACCESS_MATRIX } from './access-matrix';

/**
 * Routes that answer a file or a stream rather than JSON: a JSON response schema would not describe
 * them (and a serializer would get in the way of the bytes). Each states what it sends. An entry
 * that names no route, or a route that has since got a response schema, fails the test.
 */
const FILE_ROUTES: Record<string, string> = {
  'GET /api/images/:tenantId/:kind/:file': 'a stored image (re-encoded JPEG) as bytes, image/jpeg',
  'GET /api/onboarding/template.csv': 'the import template as a CSV download',
  'GET /api/onboarding/template.xlsx': 'the import template as an XLSX workbook',
  'POST /api/onboarding/import/errors.csv': 'the rejected rows of an upload as a CSV download',
  'GET /api/exports/entry-logs': 'entries of a date range, streamed as CSV or an XLSX workbook',
  'GET /api/exports/refusals': 'refused entries of a date range, streamed as CSV or XLSX',
  'GET /api/exports/weighbridge-tickets':
    'entries with a weighbridge ticket of a date range, streamed as CSV or XLSX',
  'GET /api/exports/watchlist-hits': 'watchlist hits of a date range, streamed as CSV or XLSX',
  'GET /api/safety-videos/:videoId/file':
    'the safety video, streamed, with single HTTP ranges (206)',
  'GET /api/alerts/stream': 'server-sent events (text/event-stream): the bell’s unread count',
  'GET /api/agent/connect':
    "a site agent's WebSocket (JSON frames, packages/contracts/src/barriers.ts); plain HTTP gets a 400 error",
};

/**
 * POST/PUT/PATCH routes without a body schema. An upload is parsed by its own code (multipart, or
 * raw bytes checked by their magic numbers), which a JSON schema cannot describe; an action takes
 * nothing but its URL, and its handler must not read a body. An entry that names no route, a
 * route that has since got a body schema, or an action whose handler reads the body fails.
 */
const BODY_EXCEPTIONS: Record<string, { kind: 'upload' | 'action'; why: string }> = {
  'POST /api/onboarding/import/preview': { kind: 'upload', why: 'a CSV/XLSX file, multipart' },
  'POST /api/onboarding/import': { kind: 'upload', why: 'a CSV/XLSX file, multipart' },
  'POST /api/onboarding/import/errors.csv': { kind: 'upload', why: 'a CSV/XLSX file, multipart' },
  'POST /api/safety-videos/files': { kind: 'upload', why: 'raw video/mp4 or video/webm bytes' },
  'POST /api/integrations/secret': { kind: 'action', why: 'creates or rotates the secret' },
  'POST /api/gates/:id/agent-token': {
    kind: 'action',
    why: "creates or rotates the gate's agent token",
  },
  'POST /api/integrations/deliveries/:id/replay': {
    kind: 'action',
    why: 'sends the delivery named in the URL again',
  },
  'POST /api/devices/:id/revoke': {
    kind: 'action',
    why: 'revokes the guard device named in the URL (issue 18)',
  },
};

/**
 * Whether a handler reads the query string (or the body), from its source text:
 * `request.query`. Reliable for this codebase, where every handler names its argument `request`
 * and reads the query itself; a handler that passed the whole request to a helper reading the
 * query, or destructured it, would not be seen. (A bare `.query` would also match
 * `pool.query(...)` in the health check.)
 */
const readsQuery = (route: DeclaredRoute) => /\brequest\.query\b/.test(String(route.handler));
const readsBody = (route: DeclaredRoute) => /\brequest\.body\b/.test(String(route.handler));
const schemaOf = (route: DeclaredRoute) =>
  (route.schema ?? {}) as { params?: unknown; body?: unknown; querystring?: unknown };

const keyOf = (route: DeclaredRoute) => `${route.method} ${route.url}`;
const isSuccess = (status: number) => status >= 200 && status < 300;

describe('request and response schemas on every route (SEC-66)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('declares a zod response schema for the success status of every route', () => {
    const routes = declaredRoutes(t.app);
    const problems: string[] = [];

    for (const route of routes) {
      const key = keyOf(route);
      if (key in FILE_ROUTES) continue;
      const responses =
        (route.schema as { response?: Record<string, unknown> } | undefined)?.response ?? {};
      const declared = Object.entries(responses).filter(([status]) => isSuccess(Number(status)));
      const allowed = ACCESS_MATRIX[key]?.allowed;
      // The matrix's status is the success status unless the matrix deliberately stops short of
      // success (a slow inference refused as 415, say); then any declared 2xx will do.
      const expected = allowed !== undefined && isSuccess(allowed) ? [String(allowed)] : [];

      if (declared.length === 0) problems.push(`${key}: no response schema for a 2xx`);
      for (const status of expected) {
        if (!(status in responses)) problems.push(`${key}: no response schema for ${status}`);
      }
      for (const [status, schema] of declared) {
        if (!(schema instanceof z.ZodType)) problems.push(`${key}: ${status} is not a zod schema`);
      }
    }

    expect(routes.length).toBeGreaterThan(40);
    expect(problems).toEqual([]);
  });

  it('declares a zod params schema for every route whose URL has parameters', () => {
    const routes = declaredRoutes(t.app).filter((route) => /[:*]/.test(route.url));

    const problems = routes
      .filter((route) => !(schemaOf(route).params instanceof z.ZodType))
      .map(keyOf);

    expect(routes.length).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  });

  it('declares a zod body schema for every POST, PUT and PATCH route but the listed uploads and actions', () => {
    const routes = declaredRoutes(t.app).filter((route) =>
      ['POST', 'PUT', 'PATCH'].includes(route.method),
    );

    const problems = routes
      .filter((route) => !(keyOf(route) in BODY_EXCEPTIONS))
      .filter((route) => !(schemaOf(route).body instanceof z.ZodType))
      .map(keyOf);

    expect(routes.length).toBeGreaterThan(20);
    expect(problems).toEqual([]);
  });

  it('keeps the body exceptions true: each names a route without a body schema, actions read no body', () => {
    const routes = new Map(declaredRoutes(t.app).map((route) => [keyOf(route), route]));

    const stale = Object.entries(BODY_EXCEPTIONS).filter(([key, { kind }]) => {
      const route = routes.get(key);
      if (!route || schemaOf(route).body !== undefined) return true;
      return kind === 'action' && readsBody(route);
    });

    expect(stale.map(([key]) => key)).toEqual([]);
  });

  it('declares a zod querystring schema for every route whose handler reads the query', () => {
    const routes = declaredRoutes(t.app);
    const readers = routes.filter(readsQuery).map(keyOf);

    const problems = routes
      .filter(readsQuery)
      .filter((route) => !(schemaOf(route).querystring instanceof z.ZodType))
      .map(keyOf);

    // The detection itself works: these handlers are known to read the query.
    expect(readers).toEqual(
      expect.arrayContaining([
        'GET /api/entry-logs',
        'GET /api/webhook/pending-requests',
        'GET /api/integrations/deliveries',
      ]),
    );
    expect(problems).toEqual([]);
  });

  it('keeps the list of file routes true: each names a route without a response schema', () => {
    const routes = new Map(declaredRoutes(t.app).map((route) => [keyOf(route), route]));

    const stale = Object.keys(FILE_ROUTES).filter((key) => {
      const route = routes.get(key);
      return !route || route.schema?.response !== undefined;
    });

    expect(stale).toEqual([]);
  });
});
