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

describe('loadOrCreateSecrets with an older file', () => {
  const older = {
    sessionSecret: 's'.repeat(43),
    databaseSuperuserPassword: 'p'.repeat(43),
    databaseAppPassword: 'a'.repeat(43),
  };

  it('adds an encryption key once and keeps every existing value', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bg-secrets-'));
    await writeFile(path.join(dir, 'secrets.json'), JSON.stringify(older), { mode: 0o600 });

    const [first, second] = await Promise.all([loadOrCreateSecrets(dir), loadOrCreateSecrets(dir)]);
    const stored = JSON.parse(await readFile(path.join(dir, 'secrets.json'), 'utf8'));

    expect(first).toMatchObject(older);
    expect(first.dataEncryptionKey).toHaveLength(43);
    expect(second.dataEncryptionKey).toBe(first.dataEncryptionKey);
    expect(stored).toEqual({ ...older, dataEncryptionKey: first.dataEncryptionKey });
    expect((await stat(path.join(dir, 'secrets.json'))).mode & 0o777).toBe(0o600);
  });
});
