import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

import { type ServerProcess, apiClient, killServer, startServer, stopServer } from './harness';

const REPO_ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));

/** `npm run backup` / `npm run restore` as an operator runs them (issue 27). */
function cli(...args: string[]) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/cli/backup.ts', ...args],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, TSX_TSCONFIG_PATH: 'apps/server/tsconfig.json' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('backup and restore of the embedded database', () => {
  let dir = '';
  let server: ServerProcess | undefined;
  afterAll(async () => {
    if (server) await killServer(server);
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses while the server runs; a restored copy serves the same sign-in and entries', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'boomgate-fault-backup-'));
    await chmod(dir, 0o755); // as root, PostgreSQL runs as the user postgres: it must enter it
    const original = path.join(dir, 'original');
    const restored = path.join(dir, 'restored');
    const archive = path.join(dir, 'boomgate.tar.gz');

    server = await startServer({ dataDir: original });
    const admin = apiClient(server.url);
    const { tenant } = await admin.register();
    const granted = await admin.call('grant', 'POST', '/api/auto-gate/grant-entry', {
      plateNumber: 'GP246810',
    });
    expect(granted.status).toBe(201);
    const me = await admin.call('me', 'GET', '/api/auth/me');
    const username = (me.body as { user: { username: string } }).user.username;

    const whileRunning = await cli('backup', '--data-dir', original, '--out', archive);
    expect(whileRunning.code).toBe(1);
    expect(whileRunning.output).toMatch(/Another Boomgate process is using/);

    expect(await stopServer(server)).toBe(0);
    server = undefined;
    const backedUp = await cli('backup', '--data-dir', original, '--out', archive);
    expect(backedUp.output).toContain('Backed up');
    expect(backedUp.code).toBe(0);

    // Never over existing data.
    const overData = await cli('restore', '--data-dir', original, '--from', archive);
    expect(overData.code).toBe(1);
    expect(overData.output).toMatch(/not empty/);

    const unpacked = await cli('restore', '--data-dir', restored, '--from', archive);
    expect(unpacked.code).toBe(0);
    server = await startServer({ dataDir: restored });
    const again = apiClient(server.url);
    const login = await again.call('login', 'POST', '/api/auth/login', {
      username,
      password: 'correct-horse-1',
    });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ tenant: { id: tenant.id } });
    const entries = await again.call('list', 'GET', '/api/entry-logs');
    expect(entries.status).toBe(200);
    expect((entries.body as { plateNumber: string }[]).map((entry) => entry.plateNumber)).toEqual([
      'GP246810',
    ]);
    expect(await stopServer(server)).toBe(0);
    server = undefined;
  });
});
