import { describe, expect, it } from 'vitest';

import { startServer } from '../../../scripts/lib/server-process';

describe('the server process', () => {
  it('serves the API on embedded PostgreSQL and exits 0 on SIGTERM', async () => {
    const server = await startServer();

    const health = await fetch(`${server.url}/api/health`);
    const exitCode = await server.stop();

    expect(health.status).toBe(200);
    expect(exitCode).toBe(0);
  }, 90_000);

  it('exits 1 on a bad setting and the harness quotes why', async () => {
    const start = startServer({ env: { PORT: 'eighty' } });

    await expect(start).rejects.toThrow(/server exited with 1; its last output:[\s\S]*PORT/);
  }, 90_000);
});
