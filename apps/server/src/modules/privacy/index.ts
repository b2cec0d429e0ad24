/**
 * Privacy (POPIA): data-subject export and erasure across every module that holds personal data
 * about drivers (each contributes a provider, platform/personal-data.ts), and the daily retention
 * purge of document and gate images. Owns no table.
 */
import { createPrivacyJobs } from './privacy.jobs';
import { privacyRoutes } from './privacy.routes';
import { type PrivacyServiceDeps, createPrivacyService } from './privacy.service';

export type { PrivacyService } from './privacy.service';

export function createPrivacyModule(deps: PrivacyServiceDeps) {
  const service = createPrivacyService(deps);
  return { service, routes: privacyRoutes(service), ...createPrivacyJobs(service) };
}
