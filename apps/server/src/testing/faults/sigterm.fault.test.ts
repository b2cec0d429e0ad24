import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import {
  type ServerProcess,
  apiClient,
  killServer,
  sleep,
  slowRequest,
  startServer,
  stopLeftoverPostgres,
} from './harness';

/**
 * REL-05: on SIGTERM a request already in flight finishes with its normal answer, requests that
 * arrive during the drain get 503 in the spec's error format, later connections are refused, and
 * the process exits 0.
 */
describe('SIGTERM', () => {
  let dataDir = '';
  let server: ServerProcess | undefined;
  afterAll(async () => {
    if (server) await killServer(server);
    await stopLeftoverPostgres(dataDir);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('finishes in-flight requests, answers new ones 503 and exits 0', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'boomgate-fault-sigterm-'));
    server = await startServer({ dataDir, env: { SHUTDOWN_DRAIN_MS: '1500' } });
    const admin = apiClient(server.url);
    await admin.register();

    // Headers and half the body are sent: the request is in flight when the signal arrives.
    const inFlight = slowRequest(server.url, {
      path: '/api/auto-gate/grant-entry',
      cookie: admin.cookie,
      body: { plateNumber: 'CA555111', driverName: 'In Flight' },
    });
    await sleep(300);
    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    await sleep(300);

    const during = await Promise.all([
      apiClient(server.url).call('health', 'GET', '/api/health'),
      apiClient(server.url).call('ready', 'GET', '/api/ready'),
      admin.call('grant', 'POST', '/api/auto-gate/grant-entry', { plateNumber: 'CA555222' }),
    ]);
    await sleep(1800); // past the drain: the listener is closed, the slow request still open
    const afterDrain = await apiClient(server.url).call('health', 'GET', '/api/health');
    inFlight.finish();
    const finished = await inFlight.answer;
    const exitCode = await server.exited;
    const exitMs = Date.now() - signalledAt;
    server = undefined;

    console.info(
      `SIGTERM: in-flight ${finished.status}, during drain ${during.map((a) => a.status).join('/')}, ` +
        `after drain ${afterDrain.status ?? afterDrain.error}, exit ${exitCode} after ${exitMs} ms`,
    );
    expect(finished.status).toBe(201);
    expect(JSON.parse(finished.body)).toMatchObject({ plateNumber: 'CA555111' });
    for (const answer of during) {
      expect(answer.status).toBe(503);
      expect(answer.code).toBe('UNAVAILABLE');
      expect(answer.retryAfter).toBe('5');
    }
    expect(afterDrain.status).toBeNull();
    expect(afterDrain.error).toMatch(/ECONNREFUSED|fetch failed/);
    expect(exitCode).toBe(0);
    expect(exitMs).toBeLessThan(15_000);
  });
});
