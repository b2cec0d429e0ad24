import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';

import type { Logger } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { inject } from 'vitest';

import type { AuthResponse } from '@boomgate/contracts/auth';

import { buildApp } from '@/app';
import { type Env, loadEnv } from '@/config/env';
import { createModules } from '@/modules';
import { type GateVisionEngine, createLazyVisionEngine } from '@/modules/vision';
import { APP_ROLE } from '@/platform/database-bootstrap';
import { type FakeClock, createFakeClock } from '@/platform/clock';
import { type Database, createDatabase } from '@/platform/db';
import { LOG_SERIALIZERS, REDACTED_PATHS } from '@/platform/logger';
import { loadRootKey, previousMastersOf } from '@/platform/root-key';
import { type ObjectStorage, createLocalStorage } from '@/platform/storage';

import { withDatabase } from './global-setup';

type Body = Record<string, unknown> | unknown[] | string | undefined;

export type Session = {
  cookie: string;
  body: AuthResponse;
  get(url: string, options?: Partial<InjectOptions>): Promise<LightMyRequestResponse>;
  post(url: string, body?: Body, options?: Partial<InjectOptions>): Promise<LightMyRequestResponse>;
  patch(
    url: string,
    body?: Body,
    options?: Partial<InjectOptions>,
  ): Promise<LightMyRequestResponse>;
  put(url: string, body?: Body, options?: Partial<InjectOptions>): Promise<LightMyRequestResponse>;
  delete(url: string, options?: Partial<InjectOptions>): Promise<LightMyRequestResponse>;
};

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

let counter = 0;
const unique = (prefix: string) =>
  `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(2).toString('hex')}`;

/**
 * A real app on a fresh clone of the migrated template database, connected as the restricted
 * role, with a fake clock and logs captured in memory (for tests that check what is logged).
 */
export async function createTestApp({
  env: envOverrides = {},
  queryLogger,
  storage: wrapStorage = (storage) => storage,
  visionEngine: wrapVisionEngine = (engine) => engine,
  sameDatabaseAs,
}: {
  env?: Record<string, string>;
  /** Receives every statement the app sends through Drizzle, with its parameters. */
  queryLogger?: Logger;
  /** Wraps the app's storage (a local folder), e.g. to make it fail on cue. */
  storage?: (storage: ObjectStorage) => ObjectStorage;
  /**
   * Wraps (or replaces) the vision engine under the app's admission queue: to count calls, or to
   * give a face comparison an exact score where the test is about the threshold, not the engine.
   * Tests of the engine's verdicts use it unwrapped.
   */
  visionEngine?: (engine: GateVisionEngine) => GateVisionEngine;
  /**
   * A second API process on another app's database (cluster tests): its own pool, modules and
   * in-memory state; the first app drops the database, so close this one first.
   */
  sameDatabaseAs?: {
    databaseName: string;
    secrets: { sessionSecret: string; encryptionKey: Buffer };
  };
} = {}) {
  const { adminUrl, templateDatabase, appPassword } = inject('testDatabase');
  const databaseName = sameDatabaseAs?.databaseName ?? unique('test_');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  if (!sameDatabaseAs) {
    await admin.query(`create database ${databaseName} template ${templateDatabase}`);
  }

  const ownerUrl = withDatabase(adminUrl, databaseName);
  const appUrl = withDatabase(adminUrl, databaseName, { user: APP_ROLE, password: appPassword });
  const env: Env = loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATA_DIR: '.tmp/test-data',
    ...envOverrides,
  });
  const clock: FakeClock = createFakeClock(new Date());
  // Every process of one deployment shares these (secrets.json or the environment).
  const secrets = sameDatabaseAs?.secrets ?? {
    sessionSecret: randomBytes(32).toString('base64url'),
    encryptionKey: randomBytes(32),
  };
  const database: Database = createDatabase({
    url: appUrl,
    poolMax: 4,
    ...(queryLogger ? { logger: queryLogger } : {}),
  });
  const owner = new pg.Pool({ connectionString: ownerUrl, max: 2 });
  owner.on('error', () => undefined); // dropped with the test database at close()

  const logLines: string[] = [];
  const logger = pino(
    {
      level: 'info',
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: LOG_SERIALIZERS, // as in production
    },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString('utf8'));
        done();
      },
    }),
  );

  // The real engine, started only by the tests that read an image (one worker thread).
  const visionEngine = wrapVisionEngine(createLazyVisionEngine({ threads: 1 }));
  const storageDir = await mkdtemp(path.join(os.tmpdir(), 'boomgate-test-storage-'));
  const files = createLocalStorage(storageDir);
  // As at start-up (platform/infrastructure.ts): the root key, wrapped by the master key.
  const rootKey = await loadRootKey({
    ownerUrl,
    master: secrets.encryptionKey,
    previousMasters: previousMastersOf(env.ENCRYPTION_KEY_PREVIOUS),
  });
  const modules = createModules({
    env,
    database,
    clock,
    ...secrets,
    rootKey,
    storage: wrapStorage(files),
    visionEngine: wrapVisionEngine(visionEngine),
  });
  const app: FastifyInstance = await buildApp({ env, modules, database, logger });
  await app.ready();

  const request = (options: InjectOptions) => app.inject(options);

  function sessionFor(cookie: string, body: AuthResponse): Session {
    const call = (
      method: InjectOptions['method'],
      url: string,
      payload?: Body,
      options: Partial<InjectOptions> = {},
    ) => request({ method, url, payload, ...options, headers: { cookie, ...options.headers } });
    return {
      cookie,
      body,
      get: (url, options) => call('GET', url, undefined, options),
      post: (url, payload, options) => call('POST', url, payload, options),
      patch: (url, payload, options) => call('PATCH', url, payload, options),
      put: (url, payload, options) => call('PUT', url, payload, options),
      delete: (url, options) => call('DELETE', url, undefined, options),
    };
  }

  function cookieFrom(response: LightMyRequestResponse): string {
    const cookie = response.cookies.find((c) => c.name === 'bg_session');
    if (!cookie)
      throw new Error(`No session cookie in response ${response.statusCode}: ${response.body}`);
    return `bg_session=${cookie.value}`;
  }

  return {
    app,
    clock,
    env,
    database,
    modules,
    /** The schema owner's URL of this test database (the job queue connects as the owner). */
    ownerUrl,
    databaseName,
    secrets,
    /** The stored objects as they are (not through the test's storage wrapper): for assertions. */
    files,
    /** The storage folder itself: tests count the objects in it. */
    storageDir,
    logLines,
    inject: request,
    unique,
    /** Rows as the schema owner sees them (bypasses RLS): for assertions only. */
    ownerQuery: async <Row extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
      (await owner.query<Row>(text, values)).rows,

    /** Registers a new organization; returns its admin's session. */
    async registerTenant(
      overrides: Partial<
        Record<'organizationName' | 'fullName' | 'username' | 'password', string>
      > = {},
    ) {
      const body = {
        organizationName: unique('Org '),
        fullName: 'Thandi Admin',
        username: unique('admin'),
        password: 'correct-horse-1',
        ...overrides,
      };
      const response = await request({ method: 'POST', url: '/api/auth/register', payload: body });
      if (response.statusCode !== 201)
        throw new Error(`register failed: ${response.statusCode} ${response.body}`);
      return {
        ...sessionFor(cookieFrom(response), response.json<AuthResponse>()),
        password: body.password,
      };
    },

    async login(username: string, password: string) {
      const response = await request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username, password },
      });
      if (response.statusCode !== 200)
        throw new Error(`login failed: ${response.statusCode} ${response.body}`);
      return sessionFor(cookieFrom(response), response.json<AuthResponse>());
    },

    /** Creates a user through the admin API and signs them in through the forced password change. */
    async createSignedInUser(admin: Session, role: string, password = 'first-pass-1') {
      const username = unique('user');
      const created = await admin.post('/api/users', { username, password, role });
      if (created.statusCode !== 201)
        throw new Error(`create failed: ${created.statusCode} ${created.body}`);
      const first = await this.login(username, password);
      const changed = await first.post('/api/auth/change-password', {
        currentPassword: password,
        newPassword: 'own-pass-22',
      });
      if (changed.statusCode !== 200)
        throw new Error(`change failed: ${changed.statusCode} ${changed.body}`);
      return {
        ...sessionFor(cookieFrom(changed), changed.json<AuthResponse>()),
        username,
        password: 'own-pass-22',
      };
    },

    async close() {
      await app.close();
      await modules.webhooks.close();
      await database.close();
      await owner.end();
      if (!sameDatabaseAs)
        await admin.query(`drop database if exists ${databaseName} with (force)`);
      await admin.end();
      await rm(storageDir, { recursive: true, force: true });
      await visionEngine.close();
    },
  };
}
