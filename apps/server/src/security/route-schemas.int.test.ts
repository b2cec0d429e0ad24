/**
 * SEC-66: every API route declares a zod response schema for its success status, so Fastify's
 * serializer drops fields the contract does not name and the OpenAPI document describes the
 * answer. Walks the routes registered on the app (`declaredRoutes`, as the authorization matrix
 * does); the success status of each is the matrix's `allowed` status when that is a 2xx.
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
  'GET /api/safety-videos/:videoId/file':
    'the safety video, streamed, with single HTTP ranges (206)',
};

const keyOf = (route: DeclaredRoute) => `${route.method} ${route.url}`;
const isSuccess = (status: number) => status >= 200 && status < 300;

describe('response schemas on every route (SEC-66)', () => {
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

  it('keeps the list of file routes true: each names a route without a response schema', () => {
    const routes = new Map(declaredRoutes(t.app).map((route) => [keyOf(route), route]));

    const stale = Object.keys(FILE_ROUTES).filter((key) => {
      const route = routes.get(key);
      return !route || route.schema?.response !== undefined;
    });

    expect(stale).toEqual([]);
  });
});
