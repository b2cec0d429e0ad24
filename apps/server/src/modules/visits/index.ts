/**
 * Visits (issue 16): stays on site. A granted entry opens its vehicle's visit; a person on foot
 * is signed in; the exit closes the visit once, with gate, capture time and who. On Site lists
 * the open ones; `overstays` is the hook for alerts. Owns: visits.
 */
import type { SitesService } from '@/modules/sites';
import { createSitesRepository } from '@/modules/sites';
import type { ColumnSealer } from '@/platform/sealing';

import { createVisitsPersonalData } from './visits.personal-data';
import { VISITS_SEALED_COLUMNS, createVisitsRepository } from './visits.repository';
import { toVisit, visitsRoutes } from './visits.routes';
import { type VisitsService, type VisitsServiceDeps, createVisitsService } from './visits.service';

export type { EntryForVisit, VisitView, VisitsService } from './visits.service';

export function createVisitsModule(
  deps: Omit<VisitsServiceDeps, 'repository' | 'sites' | 'siteRows'> & {
    sites: Pick<SitesService, 'inTransaction'>;
    /** The tenant keyring: visitors' ID and passport numbers are sealed at rest (issue 26). */
    sealer: ColumnSealer;
  },
) {
  const repository = createVisitsRepository(deps.sealer);
  const service = createVisitsService({
    ...deps,
    sites: deps.sites.inTransaction,
    siteRows: createSitesRepository(),
    repository,
  });
  // POPIA: names and ID numbers of people signed in, drivers' names (the privacy module runs it).
  return {
    service,
    routes: visitsRoutes(service),
    personalData: createVisitsPersonalData(repository),
    sealedColumns: VISITS_SEALED_COLUMNS,
    /** POST /api/webhook/incoming/{tenantId}/exit (the webhooks module verifies the signature). */
    webhookExits: {
      async recordWebhookExit(...args: Parameters<VisitsService['recordWebhookExit']>) {
        const { visit, duplicate } = await service.recordWebhookExit(...args);
        // A booking system sees ID numbers masked, as a guard does.
        return { visit: toVisit(visit, 'security_guard'), duplicate };
      },
    },
  };
}
