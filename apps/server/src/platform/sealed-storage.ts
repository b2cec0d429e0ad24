import {
  type DataKey,
  type KeyLookup,
  OBJECT_HEADER_BYTES,
  isSealedObject,
  objectContext,
  openObject,
  openObjectChunks,
  readObjectHeader,
  sealObject,
  sealedChunkSpan,
} from './sealing';
import type { ObjectStorage } from './storage';

/** What sealing needs of the keyring: a tenant's active data key and the ones that still open. */
export type ObjectKeys = {
  forTenant(tenantId: string): Promise<{ active: DataKey; lookup: KeyLookup }>;
};

/** Keys are `<tenant>/<kind>/<uuid>.<ext>` (storage.ts): the tenant is the first segment. */
const tenantOf = (key: string) => key.slice(0, key.indexOf('/'));

export type SealedStorage = ObjectStorage & {
  /** The data key version an object was sealed with; null for one stored before sealing. */
  sealedVersion(key: string): Promise<number | null | undefined>;
  /**
   * Seals again with the tenant's active key an object that is plaintext (stored before sealing)
   * or sealed with an older key. False when there was nothing to do (or the object is gone).
   */
  reseal(key: string): Promise<boolean>;
};

/**
 * Issue 26: every object is sealed on its way into storage and opened on its way out, for the
 * folder and the S3 backends alike (the one place objects pass). An object stored before sealing
 * existed (no BGS1 header) is still read as it is, until the sealing job has sealed it.
 */
export function createSealedStorage(inner: ObjectStorage, keys: ObjectKeys): SealedStorage {
  async function headerOf(key: string) {
    const head = await inner.getRange(key, 0, OBJECT_HEADER_BYTES - 1);
    return head === undefined ? undefined : { head, header: readObjectHeader(head) };
  }

  async function readRange(key: string, start: number, end: number) {
    const found = await headerOf(key);
    if (!found) return undefined;
    if (!found.header) return inner.getRange(key, start, end); // stored before sealing
    const { head, header } = found;
    const last = Math.min(end, header.length - 1);
    if (start > last) return Buffer.alloc(0);
    const span = sealedChunkSpan(header, start, last);
    const body = await inner.getRange(key, span.start, span.end);
    if (!body) return undefined;
    const tenantId = tenantOf(key);
    const plain = openObjectChunks(
      (await keys.forTenant(tenantId)).lookup,
      head,
      body,
      objectContext(tenantId, key),
      span.first,
    );
    const offset = start - span.first * header.chunkSize;
    return plain.subarray(offset, offset + last - start + 1);
  }

  const storage: SealedStorage = {
    async put(key, bytes) {
      const tenantId = tenantOf(key);
      const { active } = await keys.forTenant(tenantId);
      await inner.put(key, sealObject(active, bytes, objectContext(tenantId, key)));
    },
    async get(key) {
      const stored = await inner.get(key);
      if (!stored || !isSealedObject(stored)) return stored;
      const tenantId = tenantOf(key);
      return openObject(
        (await keys.forTenant(tenantId)).lookup,
        stored,
        objectContext(tenantId, key),
      );
    },
    async getRange(key, start, end) {
      try {
        return await readRange(key, start, end);
      } catch {
        // A rotation may have rewritten the object between the header and the body read: once
        // more, and a second failure is a real one.
        return readRange(key, start, end);
      }
    },
    delete: (key) => inner.delete(key),
    list: (prefix) => inner.list(prefix),
    async sealedVersion(key) {
      const found = await headerOf(key);
      if (!found) return undefined;
      return found.header ? found.header.version : null;
    },
    async reseal(key) {
      // The sealing job walks every object at each worker start: an object already sealed with
      // the active key is told by its header alone, without reading its body.
      const found = await headerOf(key);
      if (!found) return false;
      const tenantId = tenantOf(key);
      const tenantKeys = await keys.forTenant(tenantId);
      if (found.header?.version === tenantKeys.active.version) return false;
      const stored = await inner.get(key);
      if (!stored) return false;
      let plain: Buffer;
      if (isSealedObject(stored)) {
        if (readObjectHeader(stored)?.version === tenantKeys.active.version) return false;
        plain = openObject(tenantKeys.lookup, stored, objectContext(tenantId, key));
      } else {
        plain = stored;
      }
      // The object may have been deleted since it was read (retention, erasure): it must not
      // come back. A delete in the instant between this check and the write is the remaining
      // window (docs/adr/0008-sealed-personal-data.md).
      if ((await inner.getRange(key, 0, 0)) === undefined) return false;
      await inner.put(key, sealObject(tenantKeys.active, plain, objectContext(tenantId, key)));
      return true;
    },
  };
  return storage;
}
