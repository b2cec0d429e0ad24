import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Where images live: rows keep only keys, never image bytes. A local folder by default;
 * an S3-compatible store can implement the same three calls.
 */
export type ObjectStorage = {
  put(key: string, bytes: Uint8Array): Promise<void>;
  get(key: string): Promise<Buffer | undefined>;
  /**
   * Bytes `start`..`end` (inclusive) only: a video is served in bounded chunks through this, never
   * read whole to play it (it is read whole once, to check its type and length when created).
   */
  getRange(key: string, start: number, end: number): Promise<Buffer | undefined>;
  delete(key: string): Promise<void>;
  /** Every key under `prefix` (e.g. `<tenant>/`), in no particular order: the sealing jobs' walk. */
  list(prefix: string): AsyncIterable<string>;
};

// Keys are made by the server (tenant/kind/uuid.ext); anything else is refused, so a key can
// never climb out of the storage folder.
const KEY_PATTERN = /^[0-9a-f-]{36}\/[a-z-]{1,40}\/[0-9a-f-]{36}\.(jpg|png|webp|mp4|webm)$/;

export function assertStorageKey(key: string): void {
  if (!KEY_PATTERN.test(key)) throw new Error(`Invalid storage key: ${key}`);
}

export const isStorageKey = (key: string) => KEY_PATTERN.test(key);

export function createLocalStorage(root: string): ObjectStorage {
  const fileFor = (key: string) => {
    assertStorageKey(key);
    return path.join(root, key);
  };
  return {
    async put(key, bytes) {
      const file = fileFor(key);
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      // Written aside and renamed: a reader never sees half an object, even while a key rotation
      // rewrites one that is being served.
      const temporary = `${file}.${randomUUID()}.tmp`;
      try {
        await writeFile(temporary, bytes, { mode: 0o600 });
        await rename(temporary, file);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
    async get(key) {
      try {
        return await readFile(fileFor(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async getRange(key, start, end) {
      let handle;
      try {
        handle = await open(fileFor(key), 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
      try {
        const buffer = Buffer.alloc(end - start + 1);
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },
    async delete(key) {
      await rm(fileFor(key), { force: true });
    },
    async *list(prefix) {
      let entries: string[];
      try {
        entries = await readdir(root, { recursive: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
      for (const entry of entries) {
        const key = entry.split(path.sep).join('/');
        if (key.startsWith(prefix) && KEY_PATTERN.test(key)) yield key;
      }
    },
  };
}

/** Local folder by default; an S3-compatible bucket when S3_BUCKET is set. */
export async function createStorage(env: {
  storageDir: string;
  S3_BUCKET?: string;
  S3_REGION: string;
  S3_ENDPOINT?: string;
  S3_ACCESS_KEY_ID?: string;
  S3_SECRET_ACCESS_KEY?: string;
  S3_FORCE_PATH_STYLE: boolean;
}): Promise<{ storage: ObjectStorage; label: string }> {
  if (!env.S3_BUCKET)
    return { storage: createLocalStorage(env.storageDir), label: `folder ${env.storageDir}` };
  // Loaded only when configured: the AWS SDK is large and most sites use the local folder.
  const { createS3Storage } = await import('./s3-storage');
  return {
    storage: createS3Storage({
      bucket: env.S3_BUCKET,
      region: env.S3_REGION,
      endpoint: env.S3_ENDPOINT,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
    }),
    label: `bucket ${env.S3_BUCKET}`,
  };
}
