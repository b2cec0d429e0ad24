import { spawn } from 'node:child_process';
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

  it('shuts PostgreSQL down when the process exits without stopping it', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bg-embedded-exit-'));
    try {
      // A process that starts the database, says its postmaster's pid, then exits at once (as a
      // shutdown timeout would). The pid comes from the child: by the time the test could read
      // postmaster.pid, a fast shutdown may already have removed it.
      const script = `
        import { readFileSync } from 'node:fs';
        import { startEmbeddedPostgres } from './apps/server/src/platform/embedded-postgres.ts';
        const dataDir = ${JSON.stringify(dataDir)};
        await startEmbeddedPostgres({ dataDir, password: 'exit-test' });
        const pid = readFileSync(dataDir + '/postgres/postmaster.pid', 'utf8').split('\\n')[0];
        process.stdout.write('postmaster ' + pid + '\\n', () => process.exit(1));`;
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script],
        {
          cwd: new URL('../../../../', import.meta.url).pathname,
          // eslint-disable-next-line no-restricted-properties -- the child inherits the test's PATH
          env: { ...process.env, TSX_TSCONFIG_PATH: 'apps/server/tsconfig.json' },
          stdio: ['ignore', 'pipe', 'ignore'],
        },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      // 'close', not 'exit': the child's stdout has then been read to the end.
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      const pid = Number(/postmaster (\d+)/.exec(output)?.[1]);
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
