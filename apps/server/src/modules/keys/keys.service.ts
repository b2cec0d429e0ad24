import type { AuditService } from '@/modules/audit';
import type { Clock } from '@/platform/clock';
import { sql } from 'drizzle-orm';

import type { Database, DbExecutor } from '@/platform/db';
import { AppError } from '@/platform/errors';
import { type Job, enqueueJob } from '@/platform/jobs';
import type { SealedStorage } from '@/platform/sealed-storage';

import type { Keyring } from './keyring';
import type { KeysRepository } from './keys.repository';
import { type SealedColumns, type SealedTable, createSealedTable } from './sealed-columns';

export type ResealPayload = { tenantId: string; rotatedAt: string };

/**
 * Issue 28: a site node's re-seal after it picked up a rotated data key from central; `retire`
 * the data key versions central no longer delivers (it retired them), erased here once nothing at
 * the node is sealed with them.
 */
export type NodeResealPayload = { tenantId: string; retire: number[] };

/** A rotation as started: the new version and the queued re-seal job. */
export type StartedRotation = {
  tenantId: string;
  version: number;
  rotatedAt: Date;
  jobId: string;
};

/** Rows per batch (one transaction, one UPDATE each). */
const ROW_BATCH = 500;
export const SETTLE_MARGIN_MS = 1_000;

/** Objects walked: how many in all, how many were sealed again, how many could not be. */
type Walk = { walked: number; resealed: number; failed: number };

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
  const tables: SealedTable[] = [];

  /** Seals again whatever under `prefix` is plaintext or sealed with a key that is not active. */
  async function walk(prefix: string, onResealed: (tenantId: string) => void): Promise<Walk> {
    const result: Walk = { walked: 0, resealed: 0, failed: 0 };
    for await (const key of storage.list(prefix)) {
      result.walked++;
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

  /** Re-seals the tenant's rows (every registered table) that a data key other than `version` sealed. */
  async function resealRows(tenantId: string, version: number): Promise<number> {
    let total = 0;
    for (const table of tables) total += await table.resealOlder(tenantId, version, ROW_BATCH);
    return total;
  }

  /** What each registered table still holds under a data key other than `version`, by table. */
  async function rowsLeft(
    tx: DbExecutor,
    tenantId: string,
    version: number,
  ): Promise<Record<string, number>> {
    const left: Record<string, number> = {};
    for (const table of tables) left[table.name] = await table.countOlder(tx, tenantId, version);
    return left;
  }

  /**
   * Locks the tenant's data keys for their erasure in `tx`, then refuses (throws: the job runs
   * again, the key stays) while a row of any registered table is still sealed with a data key
   * other than `version`: the re-seal walk left it (a write it could not make), and erasing the
   * old key now would leave that row unreadable for ever. Counted in the erasing transaction, so
   * nothing committed before the erasure escapes the count; central's pushes cannot add to it
   * (the keys are closed to site nodes first, `closeToNodes`) and are not held up by it.
   */
  async function assertNoRowsLeft(tx: DbExecutor, tenantId: string, version: number) {
    await repository.lockForErasure(tx, tenantId);
    const left = Object.entries(await rowsLeft(tx, tenantId, version)).filter(([, n]) => n > 0);
    if (left.length > 0)
      throw new Error(
        `${left.map(([name, n]) => `${n} row(s) of ${name}`).join(', ')} still not sealed with data key v${version}`,
      );
  }

  /** Throws while an object in the tenant's storage is still sealed with a key in `old`. */
  async function assertNoObjectsLeft(tenantId: string, old: (sealed: number) => boolean) {
    for await (const key of storage.list(`${tenantId}/`)) {
      const sealed = await storage.sealedVersion(key);
      if (typeof sealed === 'number' && old(sealed))
        throw new Error(`${key} is still sealed with data key v${sealed}`);
    }
  }

  /**
   * POST /api/keys/rotate and the admin CLI: as rotateDataKey, refused (409) while a rotation
   * is still running (its old key not yet retired) and for an organization that does not exist.
   */
  async function startRotation(
    tenantId: string,
    by: { actorUserId: string | null; ip?: string; homeTenantId?: string },
  ): Promise<StartedRotation> {
    const rotatedAt = clock.now();
    const found = await database.withTenant(tenantId, (tx) =>
      tx.execute(sql`select 1 from tenants where id = ${tenantId}`),
    );
    if (found.rows.length === 0) throw new AppError('NOT_FOUND', 'Organization not found.');
    // A tenant that never sealed anything gets its first keys now, so the rotation retires one.
    await keyring.forTenant(tenantId);
    const started = await database.withTenant(tenantId, async (tx) => {
      const { retiring } = await repository.lockForRotation(tx, tenantId, 'data');
      if (retiring)
        throw new AppError(
          'CONFLICT',
          'A rotation of this organization’s data key is still running: try again once it has finished.',
        );
      const version = await keyring.rotateDataKey(tx, tenantId);
      const jobId = await enqueueJob(tx, resealJob, {
        tenantId,
        rotatedAt: rotatedAt.toISOString(),
      });
      await audit.record(tx, {
        tenantId,
        actorUserId: by.actorUserId,
        action: 'keys.data_key_rotated',
        targetType: 'tenant_key',
        targetId: `data:${version}`,
        ...(by.ip ? { ip: by.ip } : {}),
        details: {
          jobId,
          ...(by.homeTenantId && by.homeTenantId !== tenantId
            ? { homeTenantId: by.homeTenantId }
            : {}),
        },
      });
      return { tenantId, version, rotatedAt, jobId };
    });
    keyring.forget(tenantId);
    return started;
  }

  return {
    /** A module's table with sealed columns: sealing and rotation walk it with the others. */
    register(spec: SealedColumns | SealedTable) {
      // A descriptor (the usual case) or a table whose values need their own walk (the callback
      // bodies of the delivery outbox: a whole JSON body sealed as one value).
      tables.push('table' in spec ? createSealedTable(spec, { database, sealer: keyring }) : spec);
    },

    /**
     * Starts a rotation of the tenant's data key: new writes use a new key at once; the reseal
     * job re-encrypts what the old one sealed, then erases it. Writes and reads go on throughout.
     */
    rotateDataKey: async (tenantId: string, actorUserId: string | null): Promise<number> =>
      (await startRotation(tenantId, { actorUserId })).version,
    startRotation,

    /** GET /api/keys/status: the tenant's keys, its last rotation and what is left on old versions. */
    async status(tenantId: string) {
      const rows = await database.withTenant(tenantId, (tx) => repository.all(tx, tenantId));
      const data = rows.filter((row) => row.purpose === 'data');
      const active = data.find((row) => row.state === 'active');
      const rotationInProgress = data.some((row) => row.state === 'retiring');
      const latest = data.filter((row) => row.version > 1).at(-1);
      const previous = latest && data.find((row) => row.version === latest.version - 1);
      const left = { rows: {} as Record<string, number>, objects: 0 };
      // Only a running rotation leaves anything on an old version: a key is retired only once a
      // walk has found nothing it sealed.
      if (active && rotationInProgress) {
        left.rows = await database.withTenant(tenantId, (tx) =>
          rowsLeft(tx, tenantId, active.version),
        );
        for await (const key of storage.list(`${tenantId}/`)) {
          const sealed = await storage.sealedVersion(key);
          if (typeof sealed === 'number' && sealed !== active.version) left.objects++;
        }
      }
      return {
        tenantId,
        activeVersion: active?.version ?? null,
        keys: rows.map((row) => ({
          purpose: row.purpose,
          version: row.version,
          state: row.state,
          createdAt: row.createdAt,
          retiredAt: row.retiredAt,
          wrappedByCurrentMaster: row.masterKeyId === keyring.masterKeyId,
        })),
        lastRotation: latest
          ? {
              version: latest.version,
              startedAt: latest.createdAt,
              finishedAt: previous?.state === 'retired' ? previous.retiredAt : null,
            }
          : null,
        rotationInProgress,
        leftOnOldVersions: left,
      };
    },

    /**
     * The reseal job's work: objects first, then (once no process can still hold the old key in
     * its cache) a last walk and the old key's erasure. Returns false when it must run again later.
     */
    async resealTenant({ tenantId, rotatedAt }: ResealPayload): Promise<boolean> {
      const version = await activeVersion(tenantId);
      const first = await walk(`${tenantId}/`, () => undefined);
      const firstRows = await resealRows(tenantId, version);
      // A load that began just before the rotation committed may serve the old key for up to
      // cacheMs after it: a second's margin covers that and clocks a little apart between processes.
      const wait = cacheMs === 0 ? 0 : cacheMs + SETTLE_MARGIN_MS;
      const settled = clock.now().getTime() - new Date(rotatedAt).getTime() >= wait;
      if (!settled) return false;
      // Site nodes seal with the key they hold and may push what the old key sealed at any time:
      // close it to them first. This waits for every push that holds the keys, and a later push
      // under the old key is refused, so the last walk below sees all the old key sealed.
      await database.withTenant(tenantId, (tx) =>
        repository.closeToNodes(tx, tenantId, clock.now()),
      );
      const last = await walk(`${tenantId}/`, () => undefined);
      const lastRows = await resealRows(tenantId, version);
      // Anything still under an old key now is an object a reseal could not open: keep the key.
      await assertNoObjectsLeft(tenantId, (sealed) => sealed !== version);
      await database.withTenant(tenantId, async (tx) => {
        // And any row the walks could not re-seal (each table counts its own, its walk's condition).
        await assertNoRowsLeft(tx, tenantId, version);
        const shredded = await repository.shredRetiring(tx, tenantId, 'data', clock.now());
        await audit.record(tx, {
          tenantId,
          actorUserId: null,
          action: 'keys.data_key_retired',
          targetType: 'tenant_key',
          targetId: `data:${version}`,
          details: {
            resealedObjects: first.resealed + last.resealed,
            resealedRows: firstRows + lastRows,
            retiredVersions: shredded,
          },
        });
      });
      keyring.forget(tenantId);
      return true;
    },

    /**
     * Issue 28 (ADR 0009): a site node's side of a rotation made centrally. The node never rotates;
     * once it holds central's new active data key it runs the same walk as the reseal job over its
     * own storage and tables. The versions in `retire` (central retired them: it no longer
     * delivers them) are erased at the node too, only after a check finds nothing at the node
     * still sealed with them (else it throws and the job runs again). Retiring keys central still
     * delivers stay: central's pages may still carry rows it has not re-sealed yet.
     */
    async resealAtNode({ tenantId, retire }: NodeResealPayload) {
      const version = await activeVersion(tenantId);
      const objects = await walk(`${tenantId}/`, () => undefined);
      const rows = await resealRows(tenantId, version);
      if (objects.failed > 0)
        throw new Error(`${objects.failed} object(s) could not be re-sealed with v${version}`);
      const doomed = retire.filter((old) => old !== version);
      if (doomed.length === 0) return { objects: objects.resealed, rows, retired: [] };
      await assertNoObjectsLeft(tenantId, (sealed) => doomed.includes(sealed));
      const retired = await database.withTenant(tenantId, async (tx) => {
        await assertNoRowsLeft(tx, tenantId, version);
        const shredded = await repository.shredRetiring(tx, tenantId, 'data', clock.now(), doomed);
        if (shredded.length > 0)
          await audit.record(tx, {
            tenantId,
            actorUserId: null,
            action: 'keys.data_key_retired',
            targetType: 'tenant_key',
            targetId: `data:${version}`,
            details: {
              atSiteNode: true,
              resealedObjects: objects.resealed,
              resealedRows: rows,
              retiredVersions: shredded,
            },
          });
        return shredded;
      });
      keyring.forget(tenantId);
      return { objects: objects.resealed, rows, retired };
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
     * The migration of issue 26: seals every object and every registered table's rows stored
     * before sealing existed (and objects left under an old key), then records per tenant what
     * it sealed. Running it again finds nothing to do.
     *
     * Issue 26i: the object walk lists and opens the header of every object in storage, far more
     * work at every worker start than the row walks (partial indexes). Every object has been
     * written sealed since issue 26, and keys.reseal walks a tenant's objects itself after a
     * rotation, so the walk is needed only until one complete walk has found every object sealed
     * with its tenant's active key: that walk is recorded (sealed_storage_walks) and later starts
     * skip it. A walk that sealed anything is not recorded (a process of the code before issue 26
     * may still have been writing plain objects): the next start walks again to confirm. A master
     * key change needs no walk: keys.rewrap-master re-wraps the tenant keys, and an object names
     * only its data key's version. An object stored plain after the record cannot come from the
     * product (every write goes through the sealed storage); one put into the folder or bucket
     * behind its back (a restored old backup) is still read as it is, but stays plain until an
     * operator deletes the row (docs/security.md) and the next start walks storage again.
     */
    async sealStoredData(): Promise<{ resealed: number; failed: number }> {
      const perTenant = new Map<string, { objects: number; rows: Record<string, number> }>();
      const tally = (tenantId: string) => {
        const entry = perTenant.get(tenantId) ?? { objects: 0, rows: {} };
        perTenant.set(tenantId, entry);
        return entry;
      };
      const result: Walk = { walked: 0, resealed: 0, failed: 0 };
      if (!(await repository.objectWalkRecorded(database.db))) {
        Object.assign(result, await walk('', (tenantId) => tally(tenantId).objects++));
        if (result.resealed === 0 && result.failed === 0)
          await repository.recordObjectWalk(database.db, clock.now(), result.walked);
      }
      for (const table of tables) {
        for (;;) {
          const tenantIds = await table.unsealedTenants(100);
          if (tenantIds.length === 0) break;
          let round = 0;
          for (const tenantId of tenantIds) {
            const sealed = await table.sealStored(tenantId, ROW_BATCH);
            if (sealed === 0) continue;
            const { rows } = tally(tenantId);
            rows[table.name] = (rows[table.name] ?? 0) + sealed;
            result.resealed += sealed;
            round += sealed;
          }
          // A lookup that names tenants the walk then finds nothing to change in (it may look
          // wider than the walk changes) must not keep the job going round forever.
          if (round === 0) break;
        }
      }
      for (const [tenantId, details] of perTenant)
        await database.withTenant(tenantId, (tx) =>
          audit.record(tx, {
            tenantId,
            actorUserId: null,
            action: 'storage.data_sealed',
            targetType: 'storage',
            details,
          }),
        );
      return { resealed: result.resealed, failed: result.failed };
    },
  };
}

export type KeysService = ReturnType<typeof createKeysService>;
