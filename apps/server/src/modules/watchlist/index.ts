/**
 * Watchlist (issue 21): each tenant's own list of plates, driver ID numbers and transport
 * companies that a gate path refuses (`block`) or grants with a warning (`alert`). Every gate path
 * (grant-entry, the incoming feed's completion) screens with `screen` and records hits with
 * `recordHits` (audit action `watchlist.hit`, the alerts module's hook).
 * Owns: watchlist_entries. Personal data (POPIA): entries naming a driver's ID number.
 */
import { sql } from 'drizzle-orm';

import { watchlistMatchKey } from '@boomgate/contracts/watchlist';

import type { SealedColumns } from '@/modules/keys';
import type { Database } from '@/platform/db';
import { type ColumnSealer, SA_ID_NUMBER } from '@/platform/sealing';

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
  UNMASKED_WATCHLIST_MESSAGE,
  maskWatchlistMessage,
  screenWatchlist,
  watchlistWarnings,
} from './watchlist-screening';

export function createWatchlistModule(
  deps: Omit<WatchlistServiceDeps, 'repository' | 'database'> & {
    database: Pick<Database, 'withTenant' | 'db'>;
    audit: Parameters<typeof createWatchlistExportService>[0]['audit'];
    /** The tenant keyring: ID-number entries are sealed at rest (issue 26). */
    sealer: ColumnSealer;
  },
) {
  const repository = createWatchlistRepository(deps.sealer);
  const service = createWatchlistService({ ...deps, repository });
  // What the keys module's jobs seal (entries stored before issue 26) and re-seal (a rotation):
  // ID-number entries, their match key the keyed hash of the normalised number.
  const sealedColumns: SealedColumns = {
    table: 'watchlist_entries',
    id: 'id',
    tenant: 'tenant_id',
    columns: [
      {
        column: 'value',
        hash: {
          column: 'match_key',
          domain: SA_ID_NUMBER,
          key: (value) => watchlistMatchKey('idNumber', value),
        },
      },
    ],
    scope: sql`kind = 'idNumber'`,
    unsealedTenants: 'watchlist_unsealed_tenants',
  };
  // Issue 23: GET /api/exports/watchlist-hits.
  const exports = createWatchlistExportService(deps);
  return {
    service,
    routes: watchlistRoutes(service, exports),
    personalData: createWatchlistPersonalData(repository),
    sealedColumns,
  };
}
