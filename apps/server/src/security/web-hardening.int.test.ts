import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';

import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildApp } from '@/app';
import { createModules } from '@/modules';
import { createLazyVisionEngine } from '@/modules/vision';
import { createFakeClock } from '@/platform/clock';
import { APP_ROLE } from '@/platform/database-bootstrap';
import { type Database, createDatabase } from '@/platform/db';
import { createLocalStorage } from '@/platform/storage';
import { aJpegDataUrl } from '@/testing/images';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

// Low limits so the tests reach them; the defaults are 120 uploads a minute and 30 sign-ups an hour.
const UPLOADS_PER_MINUTE = 3;
const REGISTRATIONS_PER_HOUR = 3;

function expectSecurityHeaders(response: LightMyRequestResponse, what: string) {
  const csp = String(response.headers['content-security-policy']);
  const directives = new Map(
    csp.split(';').map((d) => {
      const [name = '', ...values] = d.trim().split(/\s+/);
      return [name, values.join(' ')];
    }),
  );
  expect({ what, csp: directives.get('object-src') }).toEqual({ what, csp: "'none'" });
  expect(directives.get('base-uri')).toBe("'none'");
  expect(directives.get('frame-ancestors')).toBe("'none'");
  expect(directives.get('default-src')).toBe("'self'");
  expect(directives.get('form-action')).toBe("'self'");
  // 'self' plus WebAssembly compilation for the liveness model; never inline script or eval.
  expect(directives.get('script-src')).toBe("'self' 'wasm-unsafe-eval'");
  expect(directives.get('report-uri')).toBe('/api/csp-report');
  expect(response.headers['strict-transport-security']).toMatch(
    /^max-age=(\d+); includeSubDomains/,
  );
  const maxAge = Number(
    /max-age=(\d+)/.exec(String(response.headers['strict-transport-security']))?.[1],
  );
  expect(maxAge).toBeGreaterThanOrEqual(31_536_000);
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['referrer-policy']).toBe('no-referrer');
  expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(response.headers['x-powered-by']).toBeUndefined();
  expect(response.headers.server).toBeUndefined();
}

/** A 127.0.0.1 port nothing listens on: connections to it are refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('web and session hardening', () => {
  let t: TestApp;
  let webRoot: string;
  let admin: Awaited<ReturnType<TestApp['registerTenant']>>;

  beforeAll(async () => {
    webRoot = await mkdtemp(path.join(os.tmpdir(), 'boomgate-web-'));
    await mkdir(path.join(webRoot, 'assets'));
    await writeFile(path.join(webRoot, 'index.html'), '<!doctype html><title>Boomgate</title>');
    await writeFile(path.join(webRoot, 'assets', 'app.js'), 'console.log("app")');
    // The web build writes a brotli copy beside each file; here the copy marks itself.
    await writeFile(
      path.join(webRoot, 'assets', 'app.js.br'),
      brotliCompressSync('console.log("app, from the .br copy")'),
    );
    t = await createTestApp({
      env: {
        WEB_DIST_DIR: webRoot,
        RATE_LIMIT_UPLOADS_PER_MINUTE: String(UPLOADS_PER_MINUTE),
        RATE_LIMIT_REGISTRATIONS_PER_HOUR: String(REGISTRATIONS_PER_HOUR),
      },
    });
    admin = await t.registerTenant(); // sign-up 1 of 3
  });
  afterAll(async () => {
    await t.close();
    await rm(webRoot, { recursive: true, force: true });
  });

  describe('security headers (SEC-37, SEC-38, SEC-39)', () => {
    it('are sent on success, 401, 403, 404, 400, 413, 415, 500 and on the web app’s files', async () => {
      const guard = await t.createSignedInUser(admin, 'security_guard');
      const responses: [string, LightMyRequestResponse][] = [
        ['200 api', await admin.get('/api/auth/me')],
        ['401', await t.inject({ method: 'GET', url: '/api/users' })],
        ['403', await guard.get('/api/users')],
        ['404 api', await t.inject({ method: 'GET', url: '/api/no-such-route' })],
        ['400', await admin.post('/api/users', { username: 'x' })],
        ['413', await admin.post('/api/users', { username: 'x'.repeat(1024 * 1024) })],
        [
          '415',
          await admin.post('/api/users', 'a=b', { headers: { 'content-type': 'text/plain' } }),
        ],
        ['index.html', await t.inject({ method: 'GET', url: '/' })],
        ['spa fallback', await t.inject({ method: 'GET', url: '/registered-vehicles' })],
        ['static file', await t.inject({ method: 'GET', url: '/assets/app.js' })],
      ];

      for (const [what, response] of responses) expectSecurityHeaders(response, what);
      expect(responses.map(([what, r]) => `${what}: ${r.statusCode}`)).toEqual([
        '200 api: 200',
        '401: 401',
        '403: 403',
        '404 api: 404',
        '400: 400',
        '413: 413',
        '415: 415',
        'index.html: 200',
        'spa fallback: 200',
        'static file: 200',
      ]);
    });

    it('answers a URL the router cannot read in the error format, with the headers', async () => {
      const badEncoding = await t.inject({
        method: 'GET',
        url: '/api/approved-vehicles/plate/%E0%A4%A',
      });
      const tooLong = await t.inject({
        method: 'GET',
        url: `/api/approved-vehicles/plate/${'a'.repeat(600)}`,
      });

      expect([badEncoding.statusCode, tooLong.statusCode]).toEqual([400, 414]);
      for (const response of [badEncoding, tooLong]) {
        expect(response.json()).toEqual({
          error: { code: 'INVALID', message: expect.stringMatching(/^The address is/) },
        });
        expect(response.headers['content-security-policy']).toContain("default-src 'none'");
        expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
        expect(response.headers['x-content-type-options']).toBe('nosniff');
        expect(response.headers['strict-transport-security']).toMatch(/max-age=31536000/);
        expect(response.headers['cache-control']).toBe('no-store');
      }
    });

    it('answers an unexpected failure with a generic 500 that still carries the headers (SEC-41)', async () => {
      // A real database error the app does not expect: the API role loses a privilege.
      await t.ownerQuery(`revoke select on entry_logs from ${APP_ROLE}`);
      try {
        const response = await admin.get('/api/entry-logs');

        expect(response.statusCode).toBe(500);
        expect(response.json()).toEqual({
          error: {
            code: 'INTERNAL',
            message: 'Something went wrong on our side. Please try again.',
          },
        });
        expect(response.body).not.toMatch(/select|entry_logs|42501|permission| at /i);
        expectSecurityHeaders(response, '500');
        expect(response.headers['cache-control']).toBe('no-store');
        expect(t.logLines.join('\n')).toContain('permission denied');
      } finally {
        await t.ownerQuery(`grant select on entry_logs to ${APP_ROLE}`);
      }
    });
  });

  describe('answers before routing', () => {
    it('answers headers too large (431) in the error format, with the security headers', async () => {
      const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = new URL(address);
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.write(
            `GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
          );
        });
        let received = '';
        socket.on('data', (chunk) => (received += chunk.toString('utf8')));
        socket.on('end', () => resolve(received));
        socket.on('error', reject);
      });
      const [head = '', body = ''] = raw.split('\r\n\r\n');
      const headers = new Map(
        head
          .split('\r\n')
          .slice(1)
          .map((line) => [
            line.slice(0, line.indexOf(':')).toLowerCase(),
            line.slice(line.indexOf(':') + 1).trim(),
          ]),
      );

      expect(head.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
      expect(JSON.parse(body)).toEqual({
        error: { code: 'INVALID', message: 'The request headers are too large.' },
      });
      expect(headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(headers.get('x-content-type-options')).toBe('nosniff');
      expect(headers.get('strict-transport-security')).toMatch(/^max-age=31536000/);
      expect(headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(headers.get('referrer-policy')).toBe('no-referrer');
    });

    it('refuses a foreign Host, even with a matching Origin, in the error format', async () => {
      const forged = { host: 'evil.example', origin: 'http://evil.example' };

      const post = await admin.post('/api/users', { username: 'x' }, { headers: forged });
      const page = await t.inject({ method: 'GET', url: '/', headers: { host: 'evil.example' } });

      for (const response of [post, page]) {
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({
          error: { code: 'INVALID', message: 'This server does not answer for that host.' },
        });
        expectSecurityHeaders(response, 'foreign host');
      }
    });

    it('answers this machine, an address and the health check from any Host', async () => {
      const responses = [
        await t.inject({ method: 'GET', url: '/', headers: { host: 'localhost:5000' } }),
        await t.inject({ method: 'GET', url: '/', headers: { host: '10.0.0.5:5000' } }),
        await t.inject({ method: 'GET', url: '/api/health', headers: { host: 'evil.example' } }),
      ];

      expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200]);
    });

    it('answers HEAD like GET, without the body, wherever GET works', async () => {
      const head = (url: string, headers: Record<string, string> = {}) =>
        t.inject({ method: 'HEAD', url, headers });

      const responses = [
        await head('/'),
        await head('/login'),
        await head('/assets/app.js'),
        await head('/api/health'),
        await head('/api/auth/me', { cookie: admin.cookie }),
      ];

      expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200, 200, 200]);
      expect(responses.map((response) => response.body)).toEqual(['', '', '', '', '']);
      expect(responses[0]?.headers['content-type']).toMatch(/^text\/html/);
      expectSecurityHeaders(responses[1] as LightMyRequestResponse, 'HEAD /login');
    });
  });

  describe('503 answers (REL-05, REL-06)', () => {
    /** Another app like the test's, on the given database, draining or not (main.ts's shutdown). */
    async function anotherApp(database: Database, isDraining = () => false) {
      const storageDir = await mkdtemp(path.join(os.tmpdir(), 'boomgate-503-'));
      const modules = createModules({
        env: t.env,
        database,
        clock: createFakeClock(new Date()),
        sessionSecret: randomBytes(32).toString('base64url'),
        encryptionKey: randomBytes(32),
        rootKey: randomBytes(32),
        storage: createLocalStorage(storageDir),
        visionEngine: createLazyVisionEngine({ threads: 1 }),
      });
      const app = await buildApp({
        env: t.env,
        modules,
        database,
        logger: pino({ level: 'silent' }),
        isDraining,
      });
      await app.ready();
      return {
        app,
        close: async () => {
          await app.close();
          await rm(storageDir, { recursive: true, force: true });
        },
      };
    }

    /** GET health, a signed-in read and a sign-in: each must reach the database, or be refused first. */
    const askEverything = (app: FastifyInstance) =>
      Promise.all([
        app.inject({ method: 'GET', url: '/api/health' }),
        app.inject({ method: 'GET', url: '/api/users', headers: { cookie: admin.cookie } }),
        app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: admin.body.user.username, password: admin.password },
        }),
      ]);

    function expectUnavailable(responses: LightMyRequestResponse[], what: string) {
      for (const response of responses) {
        expect({ what, status: response.statusCode }).toEqual({ what, status: 503 });
        expect(response.json()).toMatchObject({ error: { code: 'UNAVAILABLE' } });
        expect(response.headers['retry-after']).toBe('5');
        expect(response.headers['cache-control']).toBe('no-store');
        expectSecurityHeaders(response, what);
      }
    }

    it('carry the security headers while the database is unreachable', async () => {
      const unreachable = createDatabase({
        url: `postgres://${APP_ROLE}:x@127.0.0.1:${await closedPort()}/boomgate`,
        poolMax: 2,
      });
      const down = await anotherApp(unreachable);
      try {
        expectUnavailable(await askEverything(down.app), 'database unreachable');
      } finally {
        await down.close();
        await unreachable.close();
      }
    });

    it('carry the security headers while the server drains for a shutdown', async () => {
      const draining = await anotherApp(t.database, () => true);
      try {
        const responses = await askEverything(draining.app);

        expectUnavailable(responses, 'draining');
        for (const response of responses) expect(response.headers.connection).toBe('close');
      } finally {
        await draining.close();
      }
    });
  });

  describe('built files', () => {
    it('sends the precompressed copy to a browser that accepts brotli, the plain file otherwise', async () => {
      const br = await t.inject({
        method: 'GET',
        url: '/assets/app.js',
        headers: { 'accept-encoding': 'gzip, deflate, br' },
      });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toMatch(/javascript/);
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(
        'console.log("app, from the .br copy")',
      );
      expectSecurityHeaders(br, 'precompressed static file');

      const plain = await t.inject({ method: 'GET', url: '/assets/app.js' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe('console.log("app")');
    });
  });

  describe('cross-origin requests (SEC-33, SEC-35)', () => {
    it('grants no CORS access to another origin, preflight or not', async () => {
      const preflight = await t.inject({
        method: 'OPTIONS',
        url: '/api/users',
        headers: {
          origin: 'https://evil.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      const read = await admin.get('/api/users', { headers: { origin: 'https://evil.example' } });
      const write = await admin.post(
        '/api/users',
        { username: t.unique('cors'), password: 'cors-pass-1' },
        { headers: { origin: 'https://evil.example' } },
      );

      for (const response of [preflight, read, write]) {
        expect(response.headers['access-control-allow-origin']).toBeUndefined();
        expect(response.headers['access-control-allow-credentials']).toBeUndefined();
      }
      expect(write.statusCode).toBe(403);
    });
  });

  describe('caching (SEC-40)', () => {
    it('marks every API answer no-store with a JSON charset, personal data included', async () => {
      for (const url of [
        '/api/auth/me',
        '/api/users',
        '/api/entry-logs',
        '/api/approved-vehicles',
      ]) {
        const response = await admin.get(url);

        expect({ url, cache: response.headers['cache-control'] }).toEqual({
          url,
          cache: 'no-store',
        });
        expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      }
      const login = await t.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: admin.body.user.username, password: admin.password },
      });
      expect(login.headers['cache-control']).toBe('no-store');
    });

    it('lets the browser cache the app shell only after revalidation', async () => {
      const page = await t.inject({ method: 'GET', url: '/' });

      // The shell holds no personal data; max-age=0 makes the browser revalidate every time.
      expect(page.headers['cache-control']).toMatch(/no-cache|max-age=0/);
    });
  });

  describe('timeouts (REL-09)', () => {
    it('never leaves HTTP requests or database statements without a time limit', async () => {
      const settings = await t.database.pool.query<{ name: string; setting: string }>(
        `select name, setting from pg_settings
         where name in ('statement_timeout', 'idle_in_transaction_session_timeout') order by name`,
      );

      expect((t.app.initialConfig as { requestTimeout?: number }).requestTimeout).toBeGreaterThan(
        0,
      );
      expect(t.app.initialConfig.connectionTimeout).toBeGreaterThan(0);
      expect(settings.rows).toEqual([
        { name: 'idle_in_transaction_session_timeout', setting: '15000' },
        { name: 'statement_timeout', setting: '15000' },
      ]);
    });

    it('has the database cancel a statement, and end a transaction left idle, past the limit', async () => {
      const url = (t.database.pool as unknown as { options: { connectionString: string } }).options
        .connectionString;
      const quick = createDatabase({ url, poolMax: 1, statementTimeoutMs: 200 });
      try {
        const started = Date.now();
        await expect(quick.pool.query('select pg_sleep(5)')).rejects.toMatchObject({
          code: '57014',
        });
        expect(Date.now() - started).toBeLessThan(2000);

        const client = await quick.pool.connect();
        client.on('error', () => undefined);
        try {
          await client.query('begin');
          await new Promise((resolve) => setTimeout(resolve, 600));
          await expect(client.query('select 1')).rejects.toThrow();
        } finally {
          client.release(true);
        }
      } finally {
        await quick.close();
      }
    });
  });

  describe('rate limits (SEC-29, SEC-30, SEC-43)', () => {
    it('limits image uploads per user with a 429 in the error format and Retry-After', async () => {
      const guard = await t.createSignedInUser(admin, 'security_guard');
      const colleague = await t.createSignedInUser(admin, 'security_guard');
      const upload = (who: Session) =>
        who.post('/api/ocr', { image: 'data:image/jpeg;base64,PGh0bWw+', type: 'plate' });

      const statuses: number[] = [];
      for (let i = 0; i < UPLOADS_PER_MINUTE; i++) statuses.push((await upload(guard)).statusCode);
      const limited = await upload(guard);
      // Another session of the same user shares the count; another user does not.
      const sameUser = await t.login(guard.username, guard.password);
      const sameUserAgain = await upload(sameUser);
      const other = await upload(colleague);

      expect(statuses).toEqual(Array(UPLOADS_PER_MINUTE).fill(415));
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({
        error: { code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many requests/) },
      });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expectSecurityHeaders(limited, '429');
      expect(sameUserAgain.statusCode).toBe(429);
      expect(other.statusCode).toBe(415);
    });

    it('applies the upload limit to every route that accepts images', async () => {
      const { declaredRoutes } = await import('@/platform/access');
      const uploadRoutes = declaredRoutes(t.app).filter(
        (route) => (route.bodyLimit ?? 0) > 1024 * 1024,
      );
      const guard = await t.createSignedInUser(admin, 'back_office');
      const jpeg = await aJpegDataUrl();

      const passport = [];
      for (let i = 0; i <= UPLOADS_PER_MINUTE; i++) {
        passport.push((await guard.post('/api/passport', { passportImage: jpeg })).statusCode);
      }

      expect(uploadRoutes.map((r) => `${r.method} ${r.url}`)).toEqual(
        expect.arrayContaining([
          'POST /api/ocr',
          'POST /api/face-comparison',
          'POST /api/passport',
          'POST /api/identity-document',
          'POST /api/approved-vehicles',
          'POST /api/auto-gate/grant-entry',
          'POST /api/anpr/:cameraToken',
        ]),
      );
      expect(passport).toEqual([...Array(UPLOADS_PER_MINUTE).fill(201), 429]);
    });

    it('limits the bulk-file uploads (multipart) per user and route', async () => {
      const office = await t.createSignedInUser(admin, 'back_office');
      const colleague = await t.createSignedInUser(admin, 'back_office');
      const send = async (who: Session, url: string) => {
        const form = new FormData();
        form.append('file', new Blob(['Driver Name\r\n'], { type: 'text/csv' }), 'f.csv');
        const request = new Request('http://localhost/', { method: 'POST', body: form });
        const payload = Buffer.from(await request.arrayBuffer());
        const headers = { 'content-type': request.headers.get('content-type') ?? '' };
        return (await who.post(url, undefined, { payload, headers })).statusCode;
      };

      const routes = [
        '/api/onboarding/import/preview',
        '/api/onboarding/import',
        '/api/onboarding/import/errors.csv',
      ];
      const statuses: Record<string, number[]> = {};
      for (const url of routes) {
        statuses[url] = [];
        for (let i = 0; i <= UPLOADS_PER_MINUTE; i++) statuses[url].push(await send(office, url));
      }
      const other = await send(colleague, routes[0] ?? '');

      for (const url of routes) {
        expect({ url, statuses: statuses[url]?.slice(0, -1).includes(429) }).toEqual({
          url,
          statuses: false,
        });
        expect({ url, last: statuses[url]?.at(-1) }).toEqual({ url, last: 429 });
      }
      expect(other).not.toBe(429);
    });

    it('limits sign-ups per address, whatever X-Forwarded-For says', async () => {
      const register = (i: number) =>
        t.inject({
          method: 'POST',
          url: '/api/auth/register',
          remoteAddress: '203.0.113.9',
          headers: { 'x-forwarded-for': `198.51.100.${i}` },
          payload: {
            organizationName: t.unique('Org '),
            fullName: 'Rate Limited',
            username: t.unique('rl'),
            password: 'correct-horse-1',
          },
        });

      const statuses = [];
      for (let i = 0; i <= REGISTRATIONS_PER_HOUR; i++)
        statuses.push((await register(i)).statusCode);

      expect(statuses).toEqual([...Array(REGISTRATIONS_PER_HOUR).fill(201), 429]);
    });
  });
});
