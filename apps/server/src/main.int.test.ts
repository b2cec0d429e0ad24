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
});
