/**
 * Truck list: plates read by the number-plate cameras, newest first. Reads arrive through the
 * camera integration (issue 6). Owns: truck_list_entries, truck_list_daily_counts.
 */
import type { Clock } from '@/platform/clock';
import type { Database } from '@/platform/db';
import type { SiteScoping } from '@/modules/sites';

import { createTruckListRepository } from './truck-list.repository';
import { truckListRoutes } from './truck-list.routes';
import { createTruckListService } from './truck-list.service';

export type { TruckListService } from './truck-list.service';

export function createTruckListModule(deps: {
  database: Pick<Database, 'withTenant'>;
  clock: Clock;
  /** Issue 16: the caller's sites (the list's `siteId` filter and a guard's scope). */
  sites: SiteScoping;
}) {
  const service = createTruckListService({ ...deps, repository: createTruckListRepository() });
  return { service, routes: truckListRoutes(service) };
}
