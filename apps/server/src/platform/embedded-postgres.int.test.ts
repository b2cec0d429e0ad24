import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import pg from 'pg';
import { describe, expect, it } from 'vitest';

import { startEmbeddedPostgres } from './embedded-postgres';

describe('startEmbeddedPostgres', () => {
  it('keeps data across restarts and refuses a second server on the same data folder', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bg-embedded-'));
    const password = randomBytes(12).toString('hex');
    try {
      const first = await startEmbeddedPostgres({ dataDir, password });
      const second = startEmbeddedPostgres({ dataDir, password });
      await expect(second).rejects.toThrow(/Another Boomgate process is using/);

      const client = new pg.Client({ connectionString: first.ownerUrl });
      await client.connect();
      await client.query('create table kept (n int); insert into kept values (42)');
      await client.end();
      await first.stop();

      const again = await startEmbeddedPostgres({ dataDir, password });
      const reader = new pg.Client({ connectionString: again.ownerUrl });
      await reader.connect();
      const { rows } = await reader.query<{ n: number }>('select n from kept');
      await reader.end();
      await again.stop();

      expect(rows).toEqual([{ n: 42 }]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
