import { type DBSchema, type IDBPDatabase, openDB } from 'idb';

/** An image the action carries, kept as bytes (a Blob in IndexedDB is unreliable on older Safari). */
export type QueuedCapture = { field: string; type: string; bytes: ArrayBuffer };

export type QueuedActionKind = 'grant-entry' | 'exit';

/**
 * One action recorded while the server could not be reached. `id` is generated on the device and
 * sent as the Idempotency-Key, so a replay that is retried (or sent twice by two tabs) is applied
 * once. `userId` is the guard who recorded it: only that guard's session replays it.
 */
export type QueuedAction = {
  /** Assigned by IndexedDB on insertion: the replay order. */
  seq?: number;
  id: string;
  /** An entry (Auto Gate or Real Gate) or a vehicle's exit (issue 18). */
  kind: QueuedActionKind;
  method: 'POST';
  path: string;
  body: Record<string, unknown>;
  captures: QueuedCapture[];
  userId: string;
  recordedAt: string;
  /**
   * An exit of a vehicle admitted offline: the client id of its queued grant. The entry's server
   * id is not known until the grant is replayed, which then rewrites this exit's path.
   */
  entryRef?: string;
  /**
   * pending: waits for the server; failed: the server refused the request (4xx), kept with its
   * error; flagged: the server applied it but its verdict overturned the guard's offline grant
   * (an entry logged as refused, with an alert), kept so the guard sees it until dismissed.
   */
  state: 'pending' | 'failed' | 'flagged';
  attempts: number;
  error: string | null;
  /** A flagged grant: the server's refusal reason (contracts' RefusalReason). */
  refusalReason?: string;
};

/**
 * A queued action as IndexedDB holds it: what the replay needs to order and route it in clear,
 * the request body and its photos encrypted with the device key (they hold personal data).
 */
export type StoredAction = Omit<QueuedAction, 'body' | 'captures'> & { sealed: EncryptedRecord };

/** An encrypted cache entry (AES-GCM with the device key). */
export type EncryptedRecord = { iv: Uint8Array; data: ArrayBuffer; savedAt: string };

interface OfflineSchema extends DBSchema {
  actions: { key: number; value: StoredAction; indexes: { byId: string } };
  cache: { key: string; value: EncryptedRecord };
  keys: { key: string; value: CryptoKey };
}

export type OfflineDb = IDBPDatabase<OfflineSchema>;

export const OFFLINE_DB_NAME = 'boomgate-offline';

/** Opens (and creates) the device's offline store. */
export function openOfflineDb(name = OFFLINE_DB_NAME): Promise<OfflineDb> {
  return openDB<OfflineSchema>(name, 1, {
    upgrade(db) {
      const actions = db.createObjectStore('actions', { keyPath: 'seq', autoIncrement: true });
      actions.createIndex('byId', 'id', { unique: true });
      db.createObjectStore('cache');
      db.createObjectStore('keys');
    },
  });
}

let shared: Promise<OfflineDb | null> | null = null;

/**
 * The app's store, opened once; null where the browser has no IndexedDB (then nothing is kept
 * offline and every screen works online only).
 */
export function getOfflineDb(): Promise<OfflineDb | null> {
  if (typeof indexedDB === 'undefined') return Promise.resolve(null);
  shared ??= openOfflineDb().catch((error: unknown) => {
    console.error('The offline store could not be opened', error);
    return null;
  });
  return shared;
}
