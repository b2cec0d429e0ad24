/**
 * Site sync (issue 28, ADR 0009), central's half: site node tokens, the signed down-sync of
 * master data (versions stamped by triggers, tombstones) and the up-sync of site facts, applied
 * once and in order per gate, with stale decisions flagged and alerted. The payloads are in
 * `site-facts.ts`; the signature, which the site node imports as it is, in
 * `site-sync-signature.ts`. Owns: site_node_tokens, site_sync_signing_keys, sync_tombstones,
 * site_sync_events, the sync_version/sync_changed_at columns of SITE_SYNC_TABLES.
 */
import { createSiteSyncPersonalData } from './site-sync.personal-data';
import { createSiteSyncRepository } from './site-sync.repository';
import { siteSyncRoutes } from './site-sync.routes';
import { type SiteSyncServiceDeps, createSiteSyncService } from './site-sync.service';

export type { SiteNode, SiteSyncService } from './site-sync.service';
export { canonicalJson, signSiteSyncPage, verifySiteSyncPage } from './site-sync-signature';
export {
  ENTRY_DOCUMENT_COLUMNS,
  entryImageKeys,
  storedCapturePayload,
  storedEntryPayload,
} from './site-facts-apply';
export {
  type PlainTenantKey,
  keySetOf,
  nodeKeyPair,
  unwrapKeysAtNode,
  wrapKeysForNode,
} from './site-sync-keys';

export function createSiteSyncModule({
  eventsBodyLimit,
  ...deps
}: Omit<SiteSyncServiceDeps, 'repository'> & {
  /** SITE_SYNC_EVENTS_BODY_LIMIT_BYTES: the largest body of POST /api/site-sync/events. */
  eventsBodyLimit: number;
}) {
  const service = createSiteSyncService({ ...deps, repository: createSiteSyncRepository() });
  // POPIA: the facts sites sent name drivers (the privacy module runs it).
  return {
    service,
    routes: siteSyncRoutes(service, { eventsBodyLimit }),
    personalData: createSiteSyncPersonalData(),
  };
}
