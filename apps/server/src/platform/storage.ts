import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Where images live: rows keep only keys, never image bytes. A local folder by default;
 * an S3-compatible store can implement the same three calls.
 */
export type ObjectStorage = {
  put(key: string, bytes: Uint8Array): Promise<void>;
  get(key: string): Promise<Buffer | undefined>;
  delete(key: string): Promise<void>;
};

// Keys are made by the server (tenant/kind/uuid.ext); anything else is refused, so a key can
// never climb out of the storage folder.
const KEY_PATTERN = /^[0-9a-f-]{36}\/[a-z-]{1,40}\/[0-9a-f-]{36}\.(jpg|png|webp|mp4|webm)$/;

export function assertStorageKey(key: string): void {
  if (!KEY_PATTERN.test(key)) throw new Error(`Invalid storage key: ${key}`);
}

export function createLocalStorage(root: string): ObjectStorage {
  const fileFor = (key: string) => {
    assertStorageKey(key);
    return path.join(root, key);
  };
  return {
    async put(key, bytes) {
      const file = fileFor(key);
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      await writeFile(file, bytes, { mode: 0o600 });
    },
    async get(key) {
      try {
        return await readFile(fileFor(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async delete(key) {
      await rm(fileFor(key), { force: true });
    },
  };
}
