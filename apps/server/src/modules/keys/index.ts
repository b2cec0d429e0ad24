/**
 * Keys (issue 26, SEC-48): per-tenant data keys wrapped by the master key, the sealed object
 * storage every module writes through, and the jobs that rotate keys and seal what was stored
 * before sealing existed. ADR docs/adr/0008-sealed-personal-data.md.
 */
import { z } from 'zod';

import type { AuditService } from '@/modules/audit';
import type { Clock } from '@/platform/clock';
import type { Database } from '@/platform/db';
import { type ScheduledJob, defineJob, enqueueJob } from '@/platform/jobs';
import { createSealedStorage } from '@/platform/sealed-storage';
import type { ObjectStorage } from '@/platform/storage';

import { KEY_CACHE_MS, createKeyring } from './keyring';
import { createKeysRepository } from './keys.repository';
import { keysRoutes } from './keys.routes';
import {
  type NodeResealPayload,
  type ResealPayload,
  SETTLE_MARGIN_MS,
  createKeysService,
} from './keys.service';

export { type Keyring, KEY_CACHE_MS, wrapContext } from './keyring';
export type { KeysService, NodeResealPayload } from './keys.service';
export { SETTLE_MARGIN_MS } from './keys.service';

/** Issue 28: a site node's re-seal after central rotated the data key (site-node.sync enqueues it). */
export const NODE_RESEAL_JOB = { name: 'keys.reseal-node', maxAttempts: 10 } as const;
export {
  type SealedColumns,
  type SealedTable,
  countTenantRows,
  sealedColumnName,
} from './sealed-columns';

export function createKeysModule(deps: {
  database: Pick<Database, 'withTenant' | 'withTenantAside' | 'db'>;
  /** ENCRYPTION_KEY. */
  master: Buffer;
  /** ENCRYPTION_KEY_PREVIOUS: master keys that only unwrap until the re-wrap job has run. */
  previousMasters: readonly Buffer[];
  /** The storage backend as it is (folder or bucket); the module hands out the sealed one. */
  storage: ObjectStorage;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  cacheMs?: number;
  /** Issue 28: false on a site node (its keys come from central). */
  createMissingKeys?: boolean;
}) {
  const cacheMs = deps.cacheMs ?? KEY_CACHE_MS;
  const repository = createKeysRepository();
  const keyring = createKeyring({
    database: deps.database,
    repository,
    master: deps.master,
    previousMasters: deps.previousMasters,
    cacheMs,
    createMissing: deps.createMissingKeys ?? true,
  });
  const storage = createSealedStorage(deps.storage, keyring);
  // 25 attempts: graphile-worker's back-off reaches ~6 h between attempts from the tenth, so a
  // rotation held up by a row it cannot re-seal keeps trying for about four days (the key kept
  // and the row named in the job's error) before an operator must re-queue it (ARCHITECTURE.md).
  const resealJob = { name: 'keys.reseal', maxAttempts: 25 } as const;
  const service = createKeysService({ ...deps, repository, keyring, storage, cacheMs, resealJob });

  const reseal = defineJob<ResealPayload>({
    ...resealJob,
    payload: z.object({ tenantId: z.uuid(), rotatedAt: z.iso.datetime() }),
    async run(payload, { log }) {
      if (await service.resealTenant(payload)) {
        log('info', `data key rotation of tenant ${payload.tenantId} finished`);
        return;
      }
      // Other processes may still seal with the old key until their cache expires: come back then.
      await enqueueJob(deps.database.db, resealJob, payload, {
        runAt: new Date(new Date(payload.rotatedAt).getTime() + cacheMs + SETTLE_MARGIN_MS),
      });
    },
  });
  const resealAtNode = defineJob<NodeResealPayload>({
    ...NODE_RESEAL_JOB,
    payload: z.object({ tenantId: z.uuid(), retire: z.array(z.number().int().min(1)) }),
    async run(payload, { log }) {
      const { objects, rows, retired } = await service.resealAtNode(payload);
      log(
        'info',
        `site node: re-sealed ${objects} object(s) and ${rows} row(s) of tenant ${payload.tenantId}` +
          (retired.length > 0 ? `; data key(s) v${retired.join(', v')} erased` : ''),
      );
    },
  });
  const rewrap = defineJob({
    name: 'keys.rewrap-master',
    maxAttempts: 3,
    payload: z.unknown(),
    async run(_payload, { log }) {
      const { rewrapped, failed } = await service.rewrapAll();
      if (rewrapped > 0)
        log('info', `re-wrapped ${rewrapped} tenant key(s) under the current master key`);
      if (failed > 0)
        throw new Error(
          `${failed} tenant(s) have keys wrapped by a master key not in ENCRYPTION_KEY_PREVIOUS`,
        );
    },
  });
  const sealStored = defineJob({
    name: 'keys.seal-stored-data',
    maxAttempts: 5,
    payload: z.unknown(),
    async run(_payload, { log }) {
      const { resealed, failed } = await service.sealStoredData();
      if (resealed > 0) log('info', `sealed ${resealed} stored object(s) and row(s)`);
      if (failed > 0) throw new Error(`${failed} stored object(s) could not be sealed`);
    },
  });
  const schedules: ScheduledJob[] = [{ job: rewrap, schedule: '*/15 * * * *' }];
  return {
    keyring,
    storage,
    service,
    routes: keysRoutes(service),
    jobs: [reseal, resealAtNode, rewrap, sealStored],
    schedules,
    /** At worker start: seal whatever is stored unsealed (one job however many processes start). */
    enqueueStartup: () =>
      enqueueJob(deps.database.db, sealStored, {}, { jobKey: 'keys.seal-stored-data' }),
  };
}
