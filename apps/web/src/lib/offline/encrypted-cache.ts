import type { EncryptedRecord, OfflineDb } from './offline-db';

const DEVICE_KEY = 'device';

/**
 * The device's AES-GCM key: generated on the device as non-extractable (the page can use it but
 * never read its bytes) and kept in IndexedDB, so the cache is unreadable copied off the device.
 */
export async function deviceKey(db: OfflineDb): Promise<CryptoKey> {
  const existing = await db.get('keys', DEVICE_KEY);
  if (existing) return existing;
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);
  await db.put('keys', key, DEVICE_KEY);
  return key;
}

/** A JSON value encrypted with the device key (a fresh 96-bit IV each time). */
export async function seal(db: OfflineDb, value: unknown): Promise<EncryptedRecord> {
  const key = await deviceKey(db);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = new TextEncoder().encode(JSON.stringify(value));
  const data = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, plain);
  return { iv, data, savedAt: new Date().toISOString() };
}

/** The sealed value, or null when it no longer decrypts (the key was wiped). */
export async function unseal<T>(db: OfflineDb, record: EncryptedRecord): Promise<T | null> {
  try {
    const key = await deviceKey(db);
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: record.iv as Uint8Array<ArrayBuffer> },
      key,
      record.data,
    );
    return JSON.parse(new TextDecoder().decode(plain)) as T;
  } catch {
    return null;
  }
}

/** Encrypts a JSON value under `name`. */
export async function writeEncrypted(db: OfflineDb, name: string, value: unknown): Promise<void> {
  await db.put('cache', await seal(db, value), name);
}

/** The value stored under `name`, or null when there is none or it no longer decrypts. */
export async function readEncrypted<T>(
  db: OfflineDb,
  name: string,
): Promise<{ value: T; savedAt: string } | null> {
  const record = await db.get('cache', name);
  if (!record) return null;
  const value = await unseal<T>(db, record);
  return value === null ? null : { value, savedAt: record.savedAt };
}

/**
 * Forgets every cached value and the device key (a revoked device): queued actions sealed with
 * that key can no longer be read either.
 */
export async function wipeCache(db: OfflineDb): Promise<void> {
  await db.clear('cache');
  await db.clear('keys');
}
