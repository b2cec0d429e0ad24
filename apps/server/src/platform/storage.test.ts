import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { createLocalStorage } from './storage';

const key = (kind = 'plates') => `${crypto.randomUUID()}/${kind}/${crypto.randomUUID()}.jpg`;

describe('createLocalStorage', () => {
  it('stores, reads back and deletes bytes by key', async () => {
    const storage = createLocalStorage(await mkdtemp(path.join(os.tmpdir(), 'bg-store-')));
    const k = key();

    await storage.put(k, Buffer.from('jpeg bytes'));
    const read = await storage.get(k);
    await storage.delete(k);

    expect(read?.toString()).toBe('jpeg bytes');
    expect(await storage.get(k)).toBeUndefined();
  });

  it('reads a byte range without reading the whole file, and nothing for a missing key', async () => {
    const storage = createLocalStorage(await mkdtemp(path.join(os.tmpdir(), 'bg-store-')));
    const k = `${crypto.randomUUID()}/safety-videos/${crypto.randomUUID()}.webm`;
    await storage.put(k, Buffer.from('0123456789'));

    expect((await storage.getRange(k, 2, 5))?.toString()).toBe('2345');
    expect((await storage.getRange(k, 8, 20))?.toString()).toBe('89');
    expect(await storage.getRange(key(), 0, 5)).toBeUndefined();
  });

  it('refuses keys it did not make, such as a path out of the folder', async () => {
    const storage = createLocalStorage(await mkdtemp(path.join(os.tmpdir(), 'bg-store-')));

    await expect(storage.get('../../etc/passwd')).rejects.toThrow(/Invalid storage key/);
    await expect(
      storage.put(`${crypto.randomUUID()}/x/../../a.jpg`, Buffer.from('x')),
    ).rejects.toThrow(/Invalid storage key/);
  });

  it('lists the keys under a prefix, and never a half-written temporary file', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'bg-store-'));
    const storage = createLocalStorage(root);
    const tenant = crypto.randomUUID();
    const mine = [key(), key('faces')].map((k) => `${tenant}/${k.split('/').slice(1).join('/')}`);
    for (const k of [...mine, key()]) await storage.put(k, Buffer.from('x'));
    await writeFile(path.join(root, `${mine[0]}.abc.tmp`), 'partial');

    const listed: string[] = [];
    for await (const k of storage.list(`${tenant}/`)) listed.push(k);

    expect(listed.sort()).toEqual([...mine].sort());
  });
});
