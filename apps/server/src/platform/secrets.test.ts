import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { loadOrCreateSecrets } from './secrets';

describe('loadOrCreateSecrets', () => {
  it('generates the secrets once, readable only by the owner, and returns the same ones later', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bg-secrets-'));

    const first = await loadOrCreateSecrets(dir);
    const second = await loadOrCreateSecrets(dir);

    expect(first.sessionSecret.length).toBeGreaterThanOrEqual(32);
    expect(second).toEqual(first);
    expect((await stat(path.join(dir, 'secrets.json'))).mode & 0o777).toBe(0o600);
  });

  it('refuses to overwrite a damaged file (the database password would be lost)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bg-secrets-'));
    await writeFile(path.join(dir, 'secrets.json'), '{"sessionSecret":"x"}');

    await expect(loadOrCreateSecrets(dir)).rejects.toThrow(/damaged/);
    expect(await readFile(path.join(dir, 'secrets.json'), 'utf8')).toBe('{"sessionSecret":"x"}');
  });
});
