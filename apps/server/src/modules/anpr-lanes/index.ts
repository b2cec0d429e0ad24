/**
 * ANPR lanes (issue 17): a fixed number-plate camera on a gate lane marked `automatic` reports
 * its reads through the gate's site agent (`POST /api/anpr/reads`). The server decides like the
 * automated gate: an approved vehicle without a face step is granted and its barrier opens (the
 * watchlist and the rules decide in grant-entry; a blocked plate is refused even when its entry
 * would need a guard, issue 21); an out-lane read records the exit (visits) and opens the out
 * barrier. Owns no table.
 */
import { anprLanesRoutes } from './anpr-lanes.routes';
import { type AnprLanesServiceDeps, createAnprLanesService } from './anpr-lanes.service';

export type { AnprLanesService } from './anpr-lanes.service';

export function createAnprLanesModule(deps: AnprLanesServiceDeps) {
  const service = createAnprLanesService(deps);
  return { service, routes: anprLanesRoutes(service) };
}
