import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import pg from 'pg';
import { describe, expect, it } from 'vitest';

import { findFreePort, startEmbeddedPostgres } from './embedded-postgres';

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

  it('chooses another port when its first choice is taken before PostgreSQL binds it', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bg-embedded-race-'));
    const taken = await holdPort();
    const takenPort = (taken.address() as { port: number }).port;
    const choices = [takenPort];
    const said: string[] = [];
    try {
      const database = await startEmbeddedPostgres({
        dataDir,
        password: 'race-test',
        log: (message) => said.push(message),
        choosePort: async () => choices.shift() ?? findFreePort(),
      });
      const client = new pg.Client({ connectionString: database.ownerUrl });
      await client.connect();
      const { rows } = await client.query<{ one: number }>('select 1 as one');
      await client.end();
      await database.stop();

      expect(database.port).not.toBe(takenPort);
      expect(rows).toEqual([{ one: 1 }]);
      expect(said.join('')).toContain(`port ${takenPort} was taken`);
    } finally {
      taken.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('says why PostgreSQL did not start on a port it was told to use, instead of hanging', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bg-embedded-taken-'));
    const taken = await holdPort();
    const takenPort = (taken.address() as { port: number }).port;
    try {
      const start = startEmbeddedPostgres({ dataDir, password: 'taken-test', port: takenPort });

      await expect(start).rejects.toThrow(
        new RegExp(`PostgreSQL did not start on port ${takenPort}: [\\s\\S]*could not`),
      );
      // The data folder is free again: the lock was released.
      const again = await startEmbeddedPostgres({ dataDir, password: 'taken-test' });
      await again.stop();
    } finally {
      taken.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('stops at once when PostgreSQL has died under it', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bg-embedded-died-'));
    try {
      const database = await startEmbeddedPostgres({ dataDir, password: 'died-test' });
      const pidFile = await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8');
      const pid = Number(pidFile.split('\n')[0]);
      process.kill(pid, 'SIGKILL');
      for (let waited = 0; waited < 100 && isAlive(pid); waited++)
        await new Promise((resolve) => setTimeout(resolve, 100));

      // Without the check this waited for an 'exit' event that had already been sent: forever.
      const stopped = await Promise.race([
        database.stop().then(() => 'stopped'),
        new Promise((resolve) => setTimeout(() => resolve('still waiting'), 10_000)),
      ]);

      expect(stopped).toBe('stopped');
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
      for (let waited = 0; waited < 100 && isAlive(pid); waited++)
        await new Promise((resolve) => setTimeout(resolve, 100));

      expect(code).toBe(1);
      expect(pid).toBeGreaterThan(0);
      expect(isAlive(pid)).toBe(false);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

/** A port held by a listener on 127.0.0.1, as another process would hold it. */
function holdPort(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
