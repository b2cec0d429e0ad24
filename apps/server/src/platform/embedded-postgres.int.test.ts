import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
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

  it('shuts PostgreSQL down when the process exits without stopping it', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bg-embedded-exit-'));
    try {
      // A process that starts the database, then exits at once (as a shutdown timeout would).
      const script = `
        import { startEmbeddedPostgres } from './apps/server/src/platform/embedded-postgres.ts';
        await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)}, password: 'exit-test' });
        process.exit(1);`;
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script],
        {
          cwd: new URL('../../../../', import.meta.url).pathname,
          // eslint-disable-next-line no-restricted-properties -- the child inherits the test's PATH
          env: { ...process.env, TSX_TSCONFIG_PATH: 'apps/server/tsconfig.json' },
          stdio: 'ignore',
        },
      );
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      const pid = Number(
        (await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0],
      );
      const isRunning = () => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      for (let waited = 0; waited < 100 && isRunning(); waited++)
        await new Promise((resolve) => setTimeout(resolve, 100));

      expect(code).toBe(1);
      expect(pid).toBeGreaterThan(0);
      expect(isRunning()).toBe(false);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
