import type { AuditService } from '@/modules/audit';
import type { Clock } from '@/platform/clock';
import type { Database } from '@/platform/db';
import { type Job, enqueueJob } from '@/platform/jobs';
import type { SealedStorage } from '@/platform/sealed-storage';

import type { Keyring } from './keyring';
import type { KeysRepository } from './keys.repository';

export type ResealPayload = { tenantId: string; rotatedAt: string };

/** Objects walked: how many were sealed again, how many could not be (left as they were). */
type Walk = { resealed: number; failed: number };

export function createKeysService({
  database,
  repository,
  keyring,
  storage,
  audit,
  clock,
  cacheMs,
  resealJob,
}: {
  database: Pick<Database, 'withTenant' | 'db'>;
  repository: KeysRepository;
  keyring: Keyring;
  storage: SealedStorage;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  /** How long another process may still seal with a rotated-out key (its key cache). */
  cacheMs: number;
  resealJob: Pick<Job<ResealPayload>, 'name' | 'maxAttempts'>;
}) {
  /** Seals again whatever under `prefix` is plaintext or sealed with a key that is not active. */
  async function walk(prefix: string, onResealed: (tenantId: string) => void): Promise<Walk> {
    const result: Walk = { resealed: 0, failed: 0 };
    for await (const key of storage.list(prefix)) {
      try {
        if (await storage.reseal(key)) {
          result.resealed++;
          onResealed(key.slice(0, key.indexOf('/')));
        }
      } catch {
        result.failed++; // one bad object must not stop the walk; the caller reports the count
      }
    }
    return result;
  }

  async function activeVersion(tenantId: string) {
    keyring.forget(tenantId);
    return (await keyring.forTenant(tenantId)).active.version;
  }

  return {
    /**
     * Starts a rotation of the tenant's data key: new writes use a new key at once; the reseal
     * job re-encrypts what the old one sealed, then erases it. Writes and reads go on throughout.
     */
    async rotateDataKey(tenantId: string, actorUserId: string | null): Promise<number> {
      const version = await database.withTenant(tenantId, async (tx) => {
        const next = await keyring.rotateDataKey(tx, tenantId);
        await enqueueJob(tx, resealJob, { tenantId, rotatedAt: clock.now().toISOString() });
        await audit.record(tx, {
          tenantId,
          actorUserId,
          action: 'keys.data_key_rotated',
          targetType: 'tenant_key',
          targetId: `data:${next}`,
        });
        return next;
      });
      keyring.forget(tenantId);
      return version;
    },

    /**
     * The reseal job's work: objects first, then (once no process can still hold the old key in
     * its cache) a last walk and the old key's erasure. Returns false when it must run again later.
     */
    async resealTenant({ tenantId, rotatedAt }: ResealPayload): Promise<boolean> {
      const version = await activeVersion(tenantId);
      const first = await walk(`${tenantId}/`, () => undefined);
      const settled = clock.now().getTime() - new Date(rotatedAt).getTime() >= cacheMs;
      if (!settled) return false;
      const last = await walk(`${tenantId}/`, () => undefined);
      // Anything still under an old key now is an object a reseal could not open: keep the key.
      for await (const key of storage.list(`${tenantId}/`)) {
        const sealed = await storage.sealedVersion(key);
        if (sealed !== undefined && sealed !== version)
          throw new Error(`${key} is still not sealed with data key v${version}`);
      }
      await database.withTenant(tenantId, async (tx) => {
        const shredded = await repository.shredRetiring(tx, tenantId, 'data', clock.now());
        await audit.record(tx, {
          tenantId,
          actorUserId: null,
          action: 'keys.data_key_retired',
          targetType: 'tenant_key',
          targetId: `data:${version}`,
          details: { resealedObjects: first.resealed + last.resealed, retiredVersions: shredded },
        });
      });
      keyring.forget(tenantId);
      return true;
    },

    /**
     * Re-wraps every tenant key still wrapped by a previous master key. A tenant whose old master
     * is not configured is counted as failed and skipped, so it does not hold up the others.
     */
    async rewrapAll(batch = 100): Promise<{ rewrapped: number; failed: number }> {
      const result = { rewrapped: 0, failed: 0 };
      let after: string | null = null;
      for (;;) {
        const tenants = await repository.tenantsToRewrap(
          database.db,
          keyring.masterKeyId,
          after,
          batch,
        );
        if (tenants.length === 0) return result;
        for (const tenantId of tenants) {
          after = tenantId;
          try {
            result.rewrapped += await database.withTenant(tenantId, async (tx) => {
              const count = await keyring.rewrapTenant(tx, tenantId);
              await audit.record(tx, {
                tenantId,
                actorUserId: null,
                action: 'keys.master_key_rewrapped',
                targetType: 'tenant_key',
                details: { keys: count, masterKeyId: keyring.masterKeyId },
              });
              return count;
            });
            keyring.forget(tenantId);
          } catch {
            result.failed++;
          }
        }
      }
    },

    /**
     * The migration of issue 26: seals every object stored before sealing existed (and any left
     * under an old key), then records per tenant how many it sealed.
     */
    async sealStoredObjects(): Promise<{ resealed: number; failed: number }> {
      const perTenant = new Map<string, number>();
      const result = await walk('', (tenantId) =>
        perTenant.set(tenantId, (perTenant.get(tenantId) ?? 0) + 1),
      );
      for (const [tenantId, count] of perTenant)
        await database.withTenant(tenantId, (tx) =>
          audit.record(tx, {
            tenantId,
            actorUserId: null,
            action: 'storage.objects_sealed',
            targetType: 'storage',
            details: { objects: count },
          }),
        );
      return result;
    },
  };
}

export type KeysService = ReturnType<typeof createKeysService>;
