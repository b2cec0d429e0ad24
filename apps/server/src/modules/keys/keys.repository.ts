import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';

import type { DbExecutor } from '@/platform/db';

import { tenantKeys } from './keys.table';
import { sealedStorageWalks } from './sealed-storage-walks.table';

export type TenantKeyRow = typeof tenantKeys.$inferSelect;
export type KeyPurpose = TenantKeyRow['purpose'];

/** The advisory lock key of the tenant's data keys' gate for site nodes (`holdDataKeys`). */
const nodeGate = (tenantId: string) => sql`hashtextextended(${`data-keys-nodes:${tenantId}`}, 0)`;

/**
 * Locks the tenant's data key rows FOR NO KEY UPDATE in version order (the order every locker
 * here takes them): never FOR UPDATE, which nothing needs since pushes take the node gate.
 */
async function lockDataKeys(tx: DbExecutor, tenantId: string): Promise<void> {
  await tx
    .select({ version: tenantKeys.version })
    .from(tenantKeys)
    .where(and(eq(tenantKeys.tenantId, tenantId), eq(tenantKeys.purpose, 'data')))
    .orderBy(tenantKeys.version)
    .for('no key update');
}

export function createKeysRepository() {
  return {
    /** Every key of the tenant, retired ones too (the key status), by purpose and version. */
    all: (tx: DbExecutor, tenantId: string): Promise<TenantKeyRow[]> =>
      tx
        .select()
        .from(tenantKeys)
        .where(eq(tenantKeys.tenantId, tenantId))
        .orderBy(tenantKeys.purpose, tenantKeys.version),

    /** The keys still usable (active and retiring), newest first. */
    live: (tx: DbExecutor, tenantId: string): Promise<TenantKeyRow[]> =>
      tx
        .select()
        .from(tenantKeys)
        .where(and(eq(tenantKeys.tenantId, tenantId), ne(tenantKeys.state, 'retired')))
        .orderBy(sql`${tenantKeys.version} desc`),

    /** A first key; a concurrent first use has made it already when this inserts nothing. */
    async insertFirst(
      tx: DbExecutor,
      row: Pick<TenantKeyRow, 'tenantId' | 'purpose' | 'wrappedKey' | 'masterKeyId'>,
    ): Promise<void> {
      await tx
        .insert(tenantKeys)
        .values({ ...row, version: 1, state: 'active' })
        .onConflictDoNothing();
    },

    /**
     * The versions of the tenant's data keys a site node may still send sealed values under (not
     * erased, erasure not begun), held until `tx` ends: the tenant's node gate is taken shared, so
     * the start of an erasure (`closeToNodes`, the gate taken exclusive) waits for the transaction,
     * and one that starts after it sees the key closed. An advisory lock, not a row lock: a
     * waiting exclusive request is queued ahead of later shared ones, so a stream of pushes cannot
     * keep the erasure from starting, and the key rows are never locked by a push (a re-wrap or
     * the erasure's last transaction never waits for one).
     */
    async holdDataKeys(tx: DbExecutor, tenantId: string): Promise<number[]> {
      await tx.execute(sql`select pg_advisory_xact_lock_shared(${nodeGate(tenantId)})`);
      const rows = await tx
        .select({
          version: tenantKeys.version,
          state: tenantKeys.state,
          closedToNodesAt: tenantKeys.closedToNodesAt,
        })
        .from(tenantKeys)
        .where(and(eq(tenantKeys.tenantId, tenantId), eq(tenantKeys.purpose, 'data')));
      return rows
        .filter((row) => row.state !== 'retired' && row.closedToNodesAt === null)
        .map((row) => row.version);
    },

    /**
     * Begins the erasure of the tenant's retiring data keys: takes the tenant's node gate
     * exclusive (waiting for every push and upload that holds the keys, `holdDataKeys`) and marks
     * them closed to site nodes. Once this commits, everything a node sent sealed with them is
     * stored, and nothing more can arrive.
     */
    async closeToNodes(tx: DbExecutor, tenantId: string, now: Date): Promise<void> {
      // Named in pg_stat_activity while it waits (an operator's question: what holds a rotation).
      await tx.execute(
        sql`select pg_advisory_xact_lock(${nodeGate(tenantId)}) /* data keys: close to nodes */`,
      );
      await lockDataKeys(tx, tenantId);
      await tx
        .update(tenantKeys)
        .set({ closedToNodesAt: now })
        .where(
          and(
            eq(tenantKeys.tenantId, tenantId),
            eq(tenantKeys.purpose, 'data'),
            eq(tenantKeys.state, 'retiring'),
            isNull(tenantKeys.closedToNodesAt),
          ),
        );
    },

    /**
     * Locks the tenant's data keys for the erasure's last transaction: against a rotation's start,
     * a re-wrap and another erasure, not against pushes (they take the node gate, never the rows),
     * which may no longer bring anything the old key sealed (`closeToNodes`).
     */
    lockForErasure: (tx: DbExecutor, tenantId: string): Promise<void> => lockDataKeys(tx, tenantId),

    /** Locks the tenant's keys of one purpose for a rotation; the active one and the newest version. */
    async lockForRotation(tx: DbExecutor, tenantId: string, purpose: KeyPurpose) {
      const rows = await tx
        .select({ version: tenantKeys.version, state: tenantKeys.state })
        .from(tenantKeys)
        .where(and(eq(tenantKeys.tenantId, tenantId), eq(tenantKeys.purpose, purpose)))
        .orderBy(tenantKeys.version)
        .for('update');
      return {
        activeVersion: rows.find((row) => row.state === 'active')?.version,
        newestVersion: Math.max(0, ...rows.map((row) => row.version)),
        retiring: rows.some((row) => row.state === 'retiring'),
      };
    },

    async retireActive(tx: DbExecutor, tenantId: string, purpose: KeyPurpose): Promise<void> {
      await tx
        .update(tenantKeys)
        .set({ state: 'retiring' })
        .where(
          and(
            eq(tenantKeys.tenantId, tenantId),
            eq(tenantKeys.purpose, purpose),
            eq(tenantKeys.state, 'active'),
          ),
        );
    },

    async insertActive(
      tx: DbExecutor,
      row: Pick<TenantKeyRow, 'tenantId' | 'purpose' | 'version' | 'wrappedKey' | 'masterKeyId'>,
    ): Promise<void> {
      await tx.insert(tenantKeys).values({ ...row, state: 'active' });
    },

    /** Erases the wrapped bytes of the retiring keys: whatever they sealed can never be opened. */
    /** Issue 28: erases the named retiring versions only (a site node, after central retired them). */
    /** Erases retiring keys: all of them, or `only` these versions (a site node's, ADR 0009). */
    async shredRetiring(
      tx: DbExecutor,
      tenantId: string,
      purpose: KeyPurpose,
      now: Date,
      only?: readonly number[],
    ): Promise<number[]> {
      if (only?.length === 0) return [];
      const rows = await tx
        .update(tenantKeys)
        .set({ state: 'retired', wrappedKey: null, retiredAt: now })
        .where(
          and(
            eq(tenantKeys.tenantId, tenantId),
            eq(tenantKeys.purpose, purpose),
            eq(tenantKeys.state, 'retiring'),
            only ? inArray(tenantKeys.version, [...only]) : undefined,
          ),
        )
        .returning({ version: tenantKeys.version });
      return rows.map((row) => row.version);
    },

    /**
     * Locks every key row of the tenant, in purpose and version order (the erasure locks the data
     * keys in version order: no deadlock), and returns those not retired, read under the lock: a
     * re-wrap never wraps again a key an erasure has just erased.
     */
    async lockLive(tx: DbExecutor, tenantId: string): Promise<TenantKeyRow[]> {
      const rows = await tx
        .select()
        .from(tenantKeys)
        .where(eq(tenantKeys.tenantId, tenantId))
        .orderBy(tenantKeys.purpose, tenantKeys.version)
        .for('no key update');
      return rows.filter((row) => row.state !== 'retired');
    },

    /** Stores a key wrapped by another master key; never a retired (erased) one. */
    async rewrap(
      tx: DbExecutor,
      key: Pick<TenantKeyRow, 'tenantId' | 'purpose' | 'version'>,
      wrappedKey: string,
      masterKeyId: string,
    ): Promise<void> {
      await tx
        .update(tenantKeys)
        .set({ wrappedKey, masterKeyId })
        .where(
          and(
            eq(tenantKeys.tenantId, key.tenantId),
            eq(tenantKeys.purpose, key.purpose),
            eq(tenantKeys.version, key.version),
            ne(tenantKeys.state, 'retired'),
          ),
        );
    },

    /** Whether a walk of all storage has found every object sealed (sealed_storage_walks). */
    async objectWalkRecorded(tx: DbExecutor): Promise<boolean> {
      const rows = await tx
        .select({ walk: sealedStorageWalks.walk })
        .from(sealedStorageWalks)
        .where(eq(sealedStorageWalks.walk, 'objects'));
      return rows.length > 0;
    },

    async recordObjectWalk(tx: DbExecutor, completedAt: Date, objects: number): Promise<void> {
      await tx
        .insert(sealedStorageWalks)
        .values({ walk: 'objects', completedAt, objects })
        .onConflictDoUpdate({ target: sealedStorageWalks.walk, set: { completedAt, objects } });
    },

    /** Tenants with keys wrapped by another master key (migration 0075's lookup). */
    async tenantsToRewrap(
      tx: DbExecutor,
      masterKeyId: string,
      after: string | null,
      limit: number,
    ): Promise<string[]> {
      const result = await tx.execute<{ tenant_id: string }>(
        sql`select tenant_id from tenant_keys_to_rewrap(${masterKeyId}, ${after}::uuid, ${limit}::int)`,
      );
      return result.rows.map((row) => row.tenant_id);
    },
  };
}

export type KeysRepository = ReturnType<typeof createKeysRepository>;
