import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import pg from 'pg';
import type { TestProject } from 'vitest/node';

import { prepareDatabase } from '@/platform/database-bootstrap';
import { startEmbeddedPostgres } from '@/platform/embedded-postgres';

export const TEMPLATE_DATABASE = 'boomgate_test_template';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: { adminUrl: string; templateDatabase: string; appPassword: string };
  }
}

/**
 * Integration tests run against a real PostgreSQL: the embedded one (a throwaway cluster in a
 * temp folder), or the server named by TEST_DATABASE_URL (an admin URL; CI uses PostgreSQL 15).
 * Migrations run once into a template database; each test file clones it (fast, isolated).
 */
export default async function setup(project: TestProject) {
  const appPassword = randomBytes(18).toString('base64url');
  let adminUrl = process.env.TEST_DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  let tempDir: string | undefined;

  if (!adminUrl) {
    tempDir = await mkdtemp(path.join(os.tmpdir(), 'boomgate-test-pg-'));
    const embedded = await startEmbeddedPostgres({
      dataDir: tempDir,
      password: randomBytes(18).toString('base64url'),
    });
    adminUrl = embedded.ownerUrl;
    stopEmbedded = () => embedded.stop();
  }

  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${TEMPLATE_DATABASE} with (force)`);
    await admin.query(`create database ${TEMPLATE_DATABASE}`);
  } finally {
    await admin.end();
  }
  await prepareDatabase({ ownerUrl: withDatabase(adminUrl, TEMPLATE_DATABASE), appPassword });

  project.provide('testDatabase', { adminUrl, templateDatabase: TEMPLATE_DATABASE, appPassword });

  return async () => {
    await stopEmbedded?.();
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
  };
}

export function withDatabase(
  url: string,
  database: string,
  credentials?: { user: string; password: string },
) {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  if (credentials) {
    parsed.username = credentials.user;
    parsed.password = credentials.password;
  }
  return parsed.toString();
}
