/**
 * Site sync (issue 28, ADR 0009), central's half: site node tokens, the signed down-sync of
 * master data (versions stamped by triggers, tombstones) and the up-sync of site facts, applied
 * once and in order per gate, with stale decisions flagged and alerted. The payloads are in
 * `site-facts.ts`; the signature, which the site node imports as it is, in
 * `site-sync-signature.ts`. Owns: site_node_tokens, site_sync_signing_keys, sync_tombstones,
 * site_sync_events, site_sync_seq_aliases, site_sync_uploads, the sync_version/sync_changed_at
 * columns of SITE_SYNC_TABLES.
 */
import { z } from 'zod';

import type { Database } from '@/platform/db';
import { type Job, type ScheduledJob, defineJob } from '@/platform/jobs';

import { createSiteSyncPersonalData } from './site-sync.personal-data';
import { createSiteSyncRepository } from './site-sync.repository';
import { siteSyncRoutes } from './site-sync.routes';
import { type SiteSyncServiceDeps, createSiteSyncService } from './site-sync.service';
import { sweepUnnamedUploads } from './site-sync.uploads';

export type { SiteNode, SiteSyncService } from './site-sync.service';
export { UPLOADS_SWEPT_ACTION, sweepUnnamedUploads } from './site-sync.uploads';
export { canonicalJson, signSiteSyncPage, verifySiteSyncPage } from './site-sync-signature';
export {
  ENTRY_DOCUMENT_COLUMNS,
  entryImageKeys,
  storedCapturePayload,
  storedEntryPayload,
} from './site-facts-apply';
export { type PayloadKeyring, type PayloadKeys, resealPayload } from './site-payload-reseal';
export { siteEventsSealedTable } from './site-sync.events-reseal';
export { payloadSealedTable } from './site-payload-table';
export {
  type PlainTenantKey,
  keySetOf,
  nodeKeyPair,
  unwrapKeysAtNode,
  wrapKeysForNode,
} from './site-sync-keys';

export function createSiteSyncModule({
  eventsBodyLimit,
  uploadGraceDays,
  ...deps
}: Omit<SiteSyncServiceDeps, 'repository' | 'database'> & {
  database: Pick<Database, 'withTenant' | 'withoutTenant' | 'db'>;
  /** SITE_SYNC_EVENTS_BODY_LIMIT_BYTES: the largest body of POST /api/site-sync/events. */
  eventsBodyLimit: number;
  /** SITE_SYNC_UPLOAD_GRACE_DAYS: how long an uploaded object may wait for a row to name it. */
  uploadGraceDays: number;
}) {
  const service = createSiteSyncService({ ...deps, repository: createSiteSyncRepository() });
  // Daily: objects nodes uploaded on their own whose entry never arrived (ADR 0009).
  const sweepUploads = defineJob({
    name: 'site-sync.sweep-uploads',
    maxAttempts: 3,
    payload: z.unknown(),
    async run(_payload, { log }) {
      const { deleted } = await sweepUnnamedUploads(deps.database, {
        objects: deps.objects,
        audit: deps.audit,
        now: deps.clock.now(),
        graceDays: uploadGraceDays,
      });
      if (deleted > 0) log('info', `deleted ${deleted} uploaded object(s) no row names`);
    },
  });
  // POPIA: the facts sites sent name drivers (the privacy module runs it).
  return {
    service,
    routes: siteSyncRoutes(service, { eventsBodyLimit }),
    personalData: createSiteSyncPersonalData(),
    jobs: [sweepUploads] as Job<unknown>[],
    schedules: [{ job: sweepUploads, schedule: '41 2 * * *' }] as ScheduledJob[],
  };
}
