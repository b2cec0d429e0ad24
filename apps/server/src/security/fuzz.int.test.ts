/**
 * SEC-67: every API route, fuzzed from its own zod schemas plus hostile mutations, in-process
 * through app.inject against real PostgreSQL. Properties: never a 5xx; every error in the spec
 * format; every 2xx matches the route's response schema; nothing of another tenant (a canary
 * string, its tenant id) is ever returned. Bounded and seeded: FUZZ_SEED and FUZZ_RUNS reproduce
 * or lengthen a run; a failure prints the seed and the shrunk request.
 */
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ApiErrorSchema } from '@boomgate/contracts/api-error';

import type { Actor } from '@/modules/sessions';
import { createSitesRepository } from '@/modules/sites';
import { type DeclaredRoute, declaredRoutes } from '@/platform/access';
import { aJpegDataUrl } from '@/testing/images';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';
import { aTenantWithSecret, sendEntry, signedHeaders } from '@/testing/webhooks';

import {
  type JsonSchemaOf,
  type Known,
  fromJsonSchema,
  hostileRawBody,
  hostileString,
  hostileValue,
  otherContentType,
} from './fuzz-arbitraries';

// eslint-disable-next-line no-restricted-properties -- test knobs, not app configuration
const { FUZZ_SEED, FUZZ_RUNS } = process.env;
const SEED = Number(FUZZ_SEED ?? 20_261_122);
const RUNS = Number(FUZZ_RUNS ?? 20);
const CANARY = 'CANARY-7f3a9c-other-tenant';

type FuzzRequest = {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** Strings of another tenant the request itself carries (an echo of them is no leak). */
  sent: string;
};

/** encodeURIComponent, except that a lone surrogate (not encodable) becomes U+FFFD. */
function encodePathValue(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(
      value.replace(
        /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
        '\ufffd',
      ),
    );
  }
}

const toJsonSchema = (schema: unknown): JsonSchemaOf | undefined =>
  schema instanceof z.ZodType
    ? (z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchemaOf)
    : undefined;

describe('API fuzzing from the zod schemas (SEC-67)', () => {
  let t: TestApp;
  let caller: Session & { username: string; password: string };
  let tenantAdmin: { username: string; password: string };
  /** A session that has given its password and owes its second factor (SEC-26). */
  let secondStepCookie: string;
  let own: { tenantId: string; secret: string };
  let cameraToken = '';
  let agentToken = '';
  const otherTenant = { id: '', ids: [] as string[], plate: '', imageKey: '' };

  beforeAll(async () => {
    // Limits high enough for the bounded runs: the limits have their own tests.
    t = await createTestApp({
      env: { RATE_LIMIT_UPLOADS_PER_MINUTE: '100000', RATE_LIMIT_REGISTRATIONS_PER_HOUR: '100000' },
    });
    const ownTenant = await aTenantWithSecret(t);
    own = { tenantId: ownTenant.tenantId, secret: ownTenant.secret };
    const user = await t.createSignedInUser(ownTenant.admin, 'back_office');
    await t.ownerQuery(`update users set role = 'super_admin' where username = $1`, [
      user.username,
    ]);
    caller = user;
    tenantAdmin = {
      username: ownTenant.admin.body.user.username,
      password: ownTenant.admin.password,
    };
    // The second-step routes answer only a session that owes its second factor.
    const mfaUser = await t.createSignedInUser(ownTenant.admin, 'back_office');
    const setup = await mfaUser.post('/api/auth/mfa/totp/setup', {});
    const secret = Secret.fromBase32(setup.json<{ secret: string }>().secret);
    await mfaUser.post('/api/auth/mfa/totp/confirm', {
      code: TOTP.generate({ secret, timestamp: t.clock.now().getTime() }),
    });
    secondStepCookie = (await t.login(mfaUser.username, mfaUser.password)).cookie;
    const camera = await ownTenant.admin.post('/api/anpr/cameras', { name: 'Fuzz gate' });
    cameraToken = camera.json<{ token: string }>().token;
    // Issue 17: an automatic lane's reads come with the gate agent's token.
    const { gate } = await t.database.withTenant(own.tenantId, (tx) =>
      createSitesRepository().defaultSite(tx, own.tenantId),
    );
    await ownTenant.admin.patch(`/api/gates/${gate.id}`, {
      lanes: [{ name: 'In', direction: 'in', automatic: true }],
    });
    const agent = await ownTenant.admin.post(`/api/gates/${gate.id}/agent-token`);
    agentToken = agent.json<{ token: string }>().token;

    // Another organization whose every row carries the canary.
    const other = await aTenantWithSecret(t);
    otherTenant.id = other.tenantId;
    const jpeg = await aJpegDataUrl();
    const ids = (r: LightMyRequestResponse) => {
      if (r.statusCode >= 300) throw new Error(`canary fixture: ${r.statusCode} ${r.body}`);
      return r.json<{ id: string }>().id;
    };
    otherTenant.plate = 'CNRY123';
    otherTenant.ids.push(
      ids(
        await other.admin.post('/api/approved-vehicles', {
          plateNumber: otherTenant.plate,
          driverName: CANARY,
          company: CANARY,
        }),
      ),
      ids(
        await other.admin.post('/api/users', {
          username: t.unique('canary'),
          password: 'canary-pass-1',
          fullName: CANARY,
        }),
      ),
      ids(
        await other.admin.post('/api/identity-document', { surname: CANARY, givenNames: CANARY }),
      ),
      ids(await other.admin.post('/api/passport', { surname: CANARY, passportImage: jpeg })),
      ids(await other.admin.post('/api/weighbridge-ticket', { customer: CANARY })),
      ids(
        await other.admin.post('/api/auto-gate/grant-entry', {
          plateNumber: otherTenant.plate,
          driverName: CANARY,
        }),
      ),
      ids(await other.admin.post('/api/anpr/cameras', { name: CANARY })),
      // Issue 16: another organization's site, for every siteId (cameras, pushed entries, exits).
      ids(await other.admin.post('/api/sites', { name: CANARY })),
    );
    const entryId = await sendEntry(t, other, { plateNumber: 'CNRY123', driverName: CANARY });
    otherTenant.ids.push(entryId);
    // A capture (issue 14) the fuzzer may cite in every *CaptureId field: always a 404 here.
    const capture = await t.modules.captures.service.create(
      { tenantId: other.tenantId, userId: other.admin.body.user.id } as Actor,
      { image: jpeg, type: 'plate' },
      async () => ({ reading: null, result: null }),
    );
    otherTenant.ids.push(capture.captureId);
    await other.admin.post(`/api/webhook/process-request/${entryId}`, {
      plateNumber: 'CNRY123',
      driverName: CANARY,
      driverIdNumber: '8001015009087',
    });
    const rows = await t.ownerQuery<{ id: string; image_key: string | null }>(
      `select id, null as image_key from webhook_deliveries where tenant_id = $1
       union all select id, image_key from passports where tenant_id = $1`,
      [other.tenantId],
    );
    otherTenant.ids.push(...rows.map((row) => row.id));
    otherTenant.imageKey = rows.find((row) => row.image_key)?.image_key ?? '';
  });
  afterAll(() => t.close());

  /** A request for the route: schema-shaped, mutated or hostile, as JSON or something else. */
  function requestFor(route: DeclaredRoute): fc.Arbitrary<FuzzRequest> {
    const schema = route.schema as Record<string, unknown> | undefined;
    const known: Known = { ids: otherTenant.ids };
    const paramsSchema = toJsonSchema(schema?.params);
    const querySchema = toJsonSchema(schema?.querystring);
    const bodySchema = toJsonSchema(schema?.body);
    const paramNames = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1] ?? '');

    const paramValue = (name: string): fc.Arbitrary<string> => {
      const shaped = paramsSchema?.properties?.[name]
        ? fromJsonSchema(paramsSchema.properties[name], known).map(String)
        : fc.string();
      const real: string[] = [...otherTenant.ids];
      if (name === 'plate') real.push(otherTenant.plate);
      if (name === 'tenantId') real.push(own.tenantId, otherTenant.id);
      if (name === 'cameraToken') real.push(cameraToken);
      if (name === 'file' && otherTenant.imageKey)
        real.push(otherTenant.imageKey.split('/')[2] ?? '');
      if (name === 'kind') real.push('passport');
      return fc.oneof(
        { weight: 3, arbitrary: shaped },
        { weight: 2, arbitrary: fc.constantFrom(...real) },
        { weight: 1, arbitrary: hostileString },
      );
    };
    // An empty value would route to another route (GET /api/drivers/ is the list).
    const params = fc.tuple(...paramNames.map((name) => paramValue(name).filter((v) => v !== '')));
    const query = querySchema
      ? fc.oneof(
          fromJsonSchema(querySchema, known),
          fc.dictionary(fc.string({ maxLength: 10 }), hostileString, { maxKeys: 3 }),
        )
      : fc.constant({});

    const shapedBody = bodySchema ? fromJsonSchema(bodySchema, known) : fc.constant({});
    const mutatedBody = fc
      .tuple(shapedBody, fc.string({ maxLength: 12 }), hostileValue, fc.nat())
      .map(([body, key, value, pick]) => {
        if (body === null || typeof body !== 'object' || Array.isArray(body)) return value;
        const keys = Object.keys(body);
        const target = keys.length > 0 && pick % 3 !== 0 ? keys[pick % keys.length] : key;
        const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) };
        if (pick % 5 === 4 && target) delete copy[target];
        else if (target) copy[target] = value;
        return copy;
      });
    const jsonBody = fc
      .oneof(
        { weight: 3, arbitrary: shapedBody },
        { weight: 3, arbitrary: mutatedBody },
        { weight: 1, arbitrary: hostileValue },
        // Mass assignment: a tenant id smuggled into the body (SEC-10).
        {
          weight: 1,
          arbitrary: shapedBody.map((b) =>
            b && typeof b === 'object'
              ? { ...b, tenantId: otherTenant.id, tenant_id: otherTenant.id }
              : b,
          ),
        },
      )
      .map((value) => JSON.stringify(value) ?? 'null');
    const body = fc.oneof(
      { weight: 6, arbitrary: jsonBody.map((text) => ({ text, type: 'application/json' })) },
      { weight: 1, arbitrary: hostileRawBody.map((text) => ({ text, type: 'application/json' })) },
      {
        weight: 1,
        arbitrary: fc.tuple(jsonBody, otherContentType).map(([text, type]) => ({ text, type })),
      },
    );

    return fc.tuple(params, query, body).map(([values, queryValue, { text, type }]) => {
      let url = route.url;
      paramNames.forEach((name, i) => {
        url = url.replace(`:${name}`, encodePathValue(values[i] ?? ''));
      });
      const search = new URLSearchParams(
        Object.entries((queryValue ?? {}) as Record<string, unknown>).map(
          ([k, v]): [string, string] => [k, typeof v === 'string' ? v : String(JSON.stringify(v))],
        ),
      ).toString();
      if (search) url += `?${search}`;
      const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
      const headers: Record<string, string> = {};
      if (hasBody) headers['content-type'] = type;
      // Signed with the own tenant's secret, so the body reaches parsing and validation.
      // The gate agent's token, so the fuzzed read reaches the lane's decision.
      if (route.url === '/api/anpr/reads') headers.authorization = `Bearer ${agentToken}`;
      if (route.url.startsWith('/api/webhook/incoming/:tenantId') && hasBody) {
        Object.assign(headers, signedHeaders(own.secret, text, { at: t.clock.now() }), {
          'content-type': type,
        });
      }
      return {
        method: route.method,
        url,
        headers,
        payload: hasBody ? text : undefined,
        sent: `${url} ${hasBody ? text : ''}`,
      };
    });
  }

  function problemsWith(
    route: DeclaredRoute,
    request: FuzzRequest,
    response: LightMyRequestResponse,
  ) {
    const problems: string[] = [];
    if (response.statusCode >= 500)
      problems.push(`status ${response.statusCode}: ${response.body}`);
    const isJson = String(response.headers['content-type'] ?? '').startsWith('application/json');
    if (response.statusCode >= 400) {
      const parsed = isJson ? ApiErrorSchema.safeParse(response.json()) : undefined;
      if (!parsed?.success)
        problems.push(`error not in the spec format: ${response.body.slice(0, 300)}`);
    } else if (isJson && response.body.length > 0) {
      const responses = (route.schema as { response?: Record<number, unknown> } | undefined)
        ?.response;
      const schema = responses?.[response.statusCode];
      if (schema instanceof z.ZodType) {
        const parsed = schema.safeParse(response.json());
        if (!parsed.success)
          problems.push(`2xx does not match its schema: ${parsed.error.message}`);
      }
    }
    const body = response.body;
    for (const secret of [CANARY, otherTenant.id, ...otherTenant.ids]) {
      if (secret && body.includes(secret) && !request.sent.includes(secret)) {
        problems.push(`returned another tenant's data (${secret})`);
      }
    }
    if (
      route.url.startsWith('/api/images/') &&
      request.url.includes(otherTenant.id) &&
      response.statusCode < 300
    ) {
      problems.push("served another tenant's image");
    }
    if (({} as Record<string, unknown>).polluted !== undefined)
      problems.push('Object.prototype polluted');
    return problems;
  }

  /**
   * The caller is a super_admin, except on routes a super_admin may not call (the data-subject
   * export and erasures: tenant_admin only, with a sign-in of the last 15 minutes; a supervisor's
   * override of an entry, issue 21): those get a
   * tenant_admin signed in just now, so the fuzzed requests get past the access check.
   */
  const isSuperAdminRoute = (route: DeclaredRoute) =>
    !('roles' in route.access) || route.access.roles.includes('super_admin');
  async function cookieFor(route: DeclaredRoute): Promise<string> {
    if ('secondFactor' in route.access && route.access.secondFactor) return secondStepCookie;
    if (isSuperAdminRoute(route)) return caller.cookie;
    if (!('roles' in route.access) || !route.access.roles.includes('tenant_admin')) {
      throw new Error(`${route.method} ${route.url}: no fuzz caller for its roles`);
    }
    // A fuzzed PATCH /api/settings may have required MFA of admins, which would limit this
    // sign-in to enrolment (SEC-26, tested in mfa.routes.int.test.ts).
    await t.ownerQuery(
      'update tenants set require_mfa_for_admins = false, require_mfa_for_everyone = false',
    );
    return (await t.login(tenantAdmin.username, tenantAdmin.password)).cookie;
  }

  it('covers every registered API route', () => {
    const routes = declaredRoutes(t.app);
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.filter((r) => r.url.startsWith('/api/docs'))).toEqual([]);
  });

  it('refuses a body over each route’s limit with 413, never a 5xx', async () => {
    const results: string[] = [];
    for (const route of declaredRoutes(t.app)) {
      if (route.method === 'GET' || route.method === 'DELETE') continue;
      const limit = route.bodyLimit ?? t.app.initialConfig.bodyLimit ?? 1024 * 1024;
      const url = route.url
        .replace(':tenantId', own.tenantId)
        .replace(':cameraToken', cameraToken)
        .replace(/:\w+/g, crypto.randomUUID());
      const response = await t.inject({
        method: route.method,
        url,
        headers: { 'content-type': 'application/json', cookie: await cookieFor(route) },
        payload: JSON.stringify({ padding: 'x'.repeat(limit + 1) }),
      });
      if (
        response.statusCode !== 413 &&
        response.statusCode !== 401 &&
        response.statusCode !== 404
      ) {
        results.push(
          `${route.method} ${route.url}: ${response.statusCode} ${response.body.slice(0, 200)}`,
        );
      }
    }
    expect(results).toEqual([]);
  }, 120_000);

  it('answers the inputs earlier runs found with a 4xx', async () => {
    const cases: [string, string, unknown, string?][] = [
      ['POST', '/api/passport', { issuingCountry: 'ZA\u0000' }],
      ['POST', '/api/identity-document', { surname: '\u0000' }],
      // Issue 26: sealed columns hold ciphertext, so the edge refuses a NUL the database no
      // longer sees.
      ['POST', '/api/identity-document', { identityNumber: '8001015009087\u0000' }],
      [
        'POST',
        '/api/users',
        { username: t.unique('nul'), password: 'pass-word-1', fullName: 'a\u0000b' },
      ],
      ['POST', '/api/onboarding/import/preview', { a: 1 }, 'multipart/form-data; boundary=x'],
      ['GET', `/api/images/${own.tenantId}/-b/${'data:x'.repeat(40)}`, undefined],
      ['GET', '/api/verify-vehicle/%ED%A0%80', undefined],
      ['DELETE', '/api/approved-vehicles/%00', undefined],
      // Issue 23: dates a report must refuse before it reads a row.
      ['GET', '/api/reports/summary?from=0001-01-01&to=9999-12-31', undefined],
      ['GET', '/api/reports/summary?from=2026-02-29&to=2026-03-01', undefined],
      ['GET', '/api/exports/refusals?from=2026-02-29&to=2026-03-01', undefined],
      ['GET', '/api/exports/weighbridge-tickets?from=2026-03-02&to=2026-03-01', undefined],
      ['GET', '/api/exports/watchlist-hits?from=2026-03-01&to=2026-03-01&format=pdf', undefined],
      ['PATCH', '/api/reports/schedule', { frequency: 'daily', recipients: ['not an address'] }],
      ['PATCH', '/api/reports/schedule', { frequency: 'hourly', recipients: [] }],
      ['PATCH', '/api/reports/schedule', { frequency: 'weekly', recipients: [] }],
    ];
    const statuses: string[] = [];
    for (const [method, url, body, type] of cases) {
      const response = await t.inject({
        method: method,
        url,
        headers: { cookie: caller.cookie, 'content-type': type ?? 'application/json' },
        payload: body === undefined ? undefined : JSON.stringify(body),
      });
      statuses.push(`${url.slice(0, 40)}: ${response.statusCode}`);
      expect(ApiErrorSchema.safeParse(response.json()).success).toBe(true);
    }
    expect(statuses.filter((s) => !/: 4\d\d$/.test(s))).toEqual([]);
  });

  const routeKeys = () =>
    declaredRoutes(t.app).map((route) => [`${route.method} ${route.url}`, route] as const);

  it('answers every route with a 4xx in the spec format or a valid 2xx, never a 5xx or a leak', async () => {
    const failures: string[] = [];
    /** Routes fuzzed as a fresh tenant_admin, with how many answers got past the access check. */
    const pastAccessCheck = new Map<string, number>();
    for (const [key, route] of routeKeys()) {
      const routeCookie = await cookieFor(route);
      if (!isSuperAdminRoute(route)) pastAccessCheck.set(key, 0);
      const details = await fc.check(
        fc.asyncProperty(requestFor(route), async (request) => {
          // Signing out would end the shared session: that route gets a session of its own.
          const cookie =
            key === 'POST /api/auth/logout'
              ? (await t.login(caller.username, caller.password)).cookie
              : routeCookie;
          const response = await t.inject({
            method: request.method,
            url: request.url,
            headers: { cookie, ...request.headers },
            payload: request.payload,
          });
          const problems = problemsWith(route, request, response);
          if (problems.length > 0) throw new Error(problems.join('; '));
          const reached = pastAccessCheck.get(key);
          if (reached !== undefined && response.statusCode !== 401 && response.statusCode !== 403) {
            pastAccessCheck.set(key, reached + 1);
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      if (details.failed) {
        failures.push(
          `${key} (seed ${SEED}, path ${details.counterexamplePath}): ${String(
            details.errorInstance instanceof Error
              ? details.errorInstance.message
              : details.errorInstance,
          ).slice(
            0,
            500,
          )}\n  request: ${JSON.stringify(details.counterexample?.[0]).slice(0, 500)}`,
        );
      }
    }
    expect(failures).toEqual([]);
    // The tenant_admin-only routes were really fuzzed, not refused at the door every time.
    expect([...pastAccessCheck.keys()].sort()).toEqual([
      'GET /api/gates/:id/barrier',
      // Issue 23: data-subject requests by e-mail address.
      'POST /api/data-subjects/email/erase',
      'POST /api/data-subjects/email/export',
      'POST /api/data-subjects/erase',
      'POST /api/data-subjects/erase-biometrics',
      'POST /api/data-subjects/export',
      // Issue 21: a supervisor's override (tenant_admin, back_office).
      'POST /api/entry-logs/:id/override',
      // Issue 21: a guard's override with a supervisor's PIN, and issuing the PIN.
      'POST /api/entry-logs/:id/pin-override',
      'POST /api/gates/:id/agent-token',
      'POST /api/gates/:id/open',
      'POST /api/overrides/pins',
    ]);
    expect([...pastAccessCheck].filter(([, reached]) => reached === 0)).toEqual([]);
  }, 600_000);
});
