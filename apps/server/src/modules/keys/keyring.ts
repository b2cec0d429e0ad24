import type { Database, DbExecutor } from '@/platform/db';
import {
  type DataKey,
  type KeyLookup,
  blindIndex,
  columnContext,
  isSealedValue,
  masterKeyId,
  newDataKey,
  openValue,
  sealValue,
  unwrapKey,
  wrapKey,
} from '@/platform/sealing';

import type { KeyPurpose, KeysRepository, TenantKeyRow } from './keys.repository';

/** A tenant's unwrapped keys, as the sealing code needs them. */
export type TenantKeys = {
  /** Seals everything new. */
  active: DataKey;
  /** Opens what the active key or a retiring one sealed. */
  lookup: KeyLookup;
  /** The keyed hash's key (blind indexes). */
  indexKey: Buffer;
  /**
   * Seals the audit trail's personal details. Separate from the data key: audit_events is
   * append-only (nobody may update a row), so what it sealed can never be re-sealed and a data key
   * rotation, which erases the old key, would make the trail unreadable.
   */
  audit: DataKey;
  auditLookup: KeyLookup;
};

/** Keys are read again after this long, so a rotation made by another process is picked up. */
export const KEY_CACHE_MS = 30_000;

/** What a tenant key's wrapping under the master key is bound to (the node re-wraps with it too). */
export const wrapContext = (key: Pick<TenantKeyRow, 'tenantId' | 'purpose' | 'version'>) =>
  `${key.tenantId}:${key.purpose}:${key.version}`;

/**
 * The master key (ENCRYPTION_KEY) and the keys it wrapped (issue 26). `previousMasters` are
 * the master keys a rotation replaced (ENCRYPTION_KEY_PREVIOUS): they only unwrap, until the
 * re-wrap job has moved every data key to the current master.
 */
export function createKeyring({
  database,
  repository,
  master,
  previousMasters = [],
  cacheMs = KEY_CACHE_MS,
  now = () => performance.now(),
  createMissing = true,
}: {
  database: Pick<Database, 'withTenantAside'>;
  repository: KeysRepository;
  master: Buffer;
  previousMasters?: readonly Buffer[];
  cacheMs?: number;
  /** Milliseconds, for the cache only. */
  now?: () => number;
  /**
   * Issue 28: false on a site node, whose keys are central's (delivered by the sync, ADR 0009):
   * sealing before they arrived fails instead of making keys central never had.
   */
  createMissing?: boolean;
}) {
  const currentMasterId = masterKeyId(master);
  const masters = new Map<string, Buffer>([
    ...previousMasters.map((key) => [masterKeyId(key), key] as const),
    [currentMasterId, master],
  ]);
  type Cached = { expires: number; keys: Promise<TenantKeys>; refreshing?: boolean };
  const cache = new Map<string, Cached>();

  function unwrap(row: TenantKeyRow): Buffer {
    const wrapping = masters.get(row.masterKeyId);
    if (!wrapping || !row.wrappedKey)
      throw new Error(
        `The ${row.purpose} key v${row.version} of tenant ${row.tenantId} was wrapped by a master key this server does not have (set ENCRYPTION_KEY_PREVIOUS)`,
      );
    return unwrapKey(wrapping, row.wrappedKey, wrapContext(row));
  }

  const wrapped = (tenantId: string, purpose: KeyPurpose, version: number, key: Buffer) => ({
    tenantId,
    purpose,
    version,
    wrappedKey: wrapKey(master, key, wrapContext({ tenantId, purpose, version })),
    masterKeyId: currentMasterId,
  });

  async function load(tenantId: string): Promise<TenantKeys> {
    // Aside: the caller may hold a pooled connection, and every other request may too.
    const rows = await database.withTenantAside(tenantId, async (tx) => {
      let live = await repository.live(tx, tenantId);
      const missing = (['data', 'index', 'audit'] as const).filter(
        (purpose) => !live.some((row) => row.purpose === purpose && row.state === 'active'),
      );
      if (missing.length > 0 && !createMissing)
        throw new Error(
          `The keys of tenant ${tenantId} have not arrived from central yet (site node): nothing is sealed or opened until the first sync`,
        );
      if (missing.length > 0) {
        for (const purpose of missing)
          await repository.insertFirst(tx, wrapped(tenantId, purpose, 1, newDataKey()));
        live = await repository.live(tx, tenantId);
      }
      return live;
    });
    const data = new Map<number, Buffer>();
    const audit = new Map<number, Buffer>();
    let active: DataKey | undefined;
    let auditActive: DataKey | undefined;
    let indexKey: Buffer | undefined;
    for (const row of rows) {
      const key = unwrap(row);
      if (row.purpose === 'index') {
        if (row.state === 'active') indexKey = key;
      } else if (row.purpose === 'audit') {
        audit.set(row.version, key);
        if (row.state === 'active') auditActive = { version: row.version, key };
      } else {
        data.set(row.version, key);
        if (row.state === 'active') active = { version: row.version, key };
      }
    }
    if (!active || !indexKey || !auditActive)
      throw new Error(`Tenant ${tenantId} has no active keys`);
    return {
      active,
      lookup: (version) => data.get(version),
      indexKey,
      audit: auditActive,
      auditLookup: (version) => audit.get(version),
    };
  }

  /** Loads the keys; they may be used until `cacheMs` after the load began (never longer). */
  function start(tenantId: string): Cached {
    const entry: Cached = { expires: now() + cacheMs, keys: load(tenantId) };
    entry.keys.catch(() => {
      if (cache.get(tenantId) === entry) cache.delete(tenantId);
    });
    return entry;
  }

  /**
   * A tenant's keys. Loading takes a second connection (the side pool) while the caller may hold one, so
   * keys in use are refreshed ahead, in the background, in the last quarter of their life: a busy
   * tenant never waits on a load, and the bound a rotation relies on (no key used longer than
   * `cacheMs` after it was read) still holds.
   */
  function forTenant(tenantId: string): Promise<TenantKeys> {
    const cached = cache.get(tenantId);
    const at = now();
    if (cached && cached.expires > at) {
      if (!cached.refreshing && cached.expires - at < cacheMs / 4) {
        cached.refreshing = true;
        const next = start(tenantId);
        next.keys.then(
          () => cache.get(tenantId) === cached && cache.set(tenantId, next),
          () => (cached.refreshing = false),
        );
      }
      return cached.keys;
    }
    const entry = start(tenantId);
    cache.set(tenantId, entry);
    return entry.keys;
  }

  return {
    masterKeyId: currentMasterId,
    forTenant,
    /** Drops the cached keys (after a rotation in this process). */
    forget(tenantId?: string) {
      if (tenantId) cache.delete(tenantId);
      else cache.clear();
    },

    /** Seals a column value (null stays null). `column` is `table.column`. */
    async seal(tenantId: string, column: string, value: string): Promise<string> {
      return sealValue((await forTenant(tenantId)).active, value, columnContext(tenantId, column));
    },
    /** Opens a sealed value; a value stored before sealing (not `sv1.…`) is returned as it is. */
    async open(tenantId: string, column: string, stored: string): Promise<string> {
      if (!isSealedValue(stored)) return stored;
      return openValue((await forTenant(tenantId)).lookup, stored, columnContext(tenantId, column));
    },
    /** Seals and opens values of the append-only audit trail, under the tenant's audit key. */
    audit: {
      async seal(tenantId: string, column: string, value: string): Promise<string> {
        return sealValue((await forTenant(tenantId)).audit, value, columnContext(tenantId, column));
      },
      async open(tenantId: string, column: string, stored: string): Promise<string> {
        if (!isSealedValue(stored)) return stored;
        return openValue(
          (await forTenant(tenantId)).auditLookup,
          stored,
          columnContext(tenantId, column),
        );
      },
    },
    /** The keyed hash beside a sealed value, for equality lookups. */
    async index(tenantId: string, column: string, value: string): Promise<string> {
      return blindIndex((await forTenant(tenantId)).indexKey, column, value);
    },

    /**
     * Starts a data key rotation: the active key becomes `retiring` (it still opens) and a new
     * version seals from now on. Returns the new version.
     */
    async rotateDataKey(tx: DbExecutor, tenantId: string): Promise<number> {
      const { newestVersion } = await repository.lockForRotation(tx, tenantId, 'data');
      await repository.retireActive(tx, tenantId, 'data');
      const version = newestVersion + 1;
      await repository.insertActive(tx, wrapped(tenantId, 'data', version, newDataKey()));
      return version;
    },

    /**
     * Issue 28: the tenant's live keys in clear (made first if missing), for central to wrap for
     * a site node. Never stored or logged like this.
     */
    async liveKeys(tenantId: string) {
      await forTenant(tenantId);
      const rows = await database.withTenantAside(tenantId, (tx) => repository.live(tx, tenantId));
      return rows.map((row) => ({
        purpose: row.purpose,
        version: row.version,
        state: row.state as 'active' | 'retiring',
        key: unwrap(row),
      }));
    },

    /**
     * Issue 26: the versions of the tenant's data keys a site node may still send (not erased,
     * erasure not begun), held in the caller's transaction (the tenant's node gate, shared) so no
     * erasure can begin before it ends. A site node's push stores facts sealed with the keys it names: checked
     * against these, a fact sealed with a key being erased is either stored before the erasure
     * begins (and re-sealed by its last walk) or refused.
     */
    holdDataKeys: (tx: DbExecutor, tenantId: string): Promise<number[]> =>
      repository.holdDataKeys(tx, tenantId),

    /** The oldest data key version of the tenant not erased (read in `tx`, never cached). */
    oldestLiveDataKey: async (tx: DbExecutor, tenantId: string): Promise<number> => {
      const versions = (await repository.live(tx, tenantId))
        .filter((row) => row.purpose === 'data')
        .map((row) => row.version);
      return versions.length > 0 ? Math.min(...versions) : 1;
    },

    /** Re-wraps the tenant's keys that another master key wrapped under the current one. */
    async rewrapTenant(tx: DbExecutor, tenantId: string): Promise<number> {
      const rows = (await repository.lockLive(tx, tenantId)).filter(
        (row) => row.masterKeyId !== currentMasterId,
      );
      for (const row of rows) {
        const key = unwrap(row);
        await repository.rewrap(tx, row, wrapKey(master, key, wrapContext(row)), currentMasterId);
      }
      return rows.length;
    },
  };
}

export type Keyring = ReturnType<typeof createKeyring>;
