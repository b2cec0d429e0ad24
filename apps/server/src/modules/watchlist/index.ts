/**
 * Watchlist (issue 21): each tenant's own list of plates, driver ID numbers and transport
 * companies that a gate path refuses (`block`) or grants with a warning (`alert`). Every gate path
 * (grant-entry, the incoming feed's completion) screens with `screen` and records hits with
 * `recordHits` (audit action `watchlist.hit`, the alerts module's hook).
 * Owns: watchlist_entries. Personal data (POPIA): entries naming a driver's ID number.
 */
import { createWatchlistExportService } from './watchlist-export.service';
import { createWatchlistPersonalData } from './watchlist.personal-data';
import { createWatchlistRepository } from './watchlist.repository';
import { watchlistRoutes } from './watchlist.routes';
import { type WatchlistServiceDeps, createWatchlistService } from './watchlist.service';

export type { WatchlistService } from './watchlist.service';
export { WATCHLIST_HIT_ACTION } from './watchlist.service';
export {
  type RuleOutcome,
  type WatchlistHit,
  type WatchlistScreening,
  WATCHLIST_SOURCE,
  screenWatchlist,
  watchlistWarnings,
} from './watchlist-screening';

export function createWatchlistModule(
  deps: Omit<WatchlistServiceDeps, 'repository'> & {
    audit: Parameters<typeof createWatchlistExportService>[0]['audit'];
  },
) {
  const service = createWatchlistService({ ...deps, repository: createWatchlistRepository() });
  // Issue 23: GET /api/exports/watchlist-hits.
  const exports = createWatchlistExportService(deps);
  return {
    service,
    routes: watchlistRoutes(service, exports),
    personalData: createWatchlistPersonalData(),
  };
}
