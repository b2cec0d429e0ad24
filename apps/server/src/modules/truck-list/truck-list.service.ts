import type { TruckListSummary } from '@boomgate/contracts/truck-list';

import type { Actor } from '@/modules/sessions';
import { type SiteScoping, sitesToList } from '@/modules/sites';
import { siteDay } from '@/platform/calendar';
import type { Clock } from '@/platform/clock';
import type { Database, DbExecutor } from '@/platform/db';
import { newId } from '@/platform/ids';
import { readPageCursor, toPage } from '@/platform/page-cursor';

import type { TruckListRepository } from './truck-list.repository';
import type { TruckListEntryRow } from './truck-list.table';

export type TruckListService = ReturnType<typeof createTruckListService>;

export function createTruckListService({
  database,
  repository,
  clock,
  sites,
}: {
  database: Pick<Database, 'withTenant'>;
  repository: TruckListRepository;
  clock: Clock;
  sites: SiteScoping;
}) {
  return {
    /**
     * One page, newest first: the site named (404 outside the caller's sites), else the caller's
     * sites. The summary cards stay over every read of the tenant (the day counters are per
     * tenant).
     */
    async listTrucks(
      actor: Actor,
      { limit, cursor, siteId }: { limit: number; cursor?: string; siteId?: string },
    ) {
      const after = readPageCursor(cursor);
      return database.withTenant(actor.tenantId, async (tx) => {
        const siteIds = await sitesToList(tx, actor, sites, siteId);
        const rows = (await repository.list(tx, actor.tenantId, siteIds, limit + 1, after)).map(
          ({ entryLink, ...row }) => ({
            ...row,
            entryLogId: entryLink?.id ?? null,
            trailerPlates: entryLink?.trailerPlates ?? null,
          }),
        );
        const summary: TruckListSummary = await repository.summary(
          tx,
          actor.tenantId,
          siteDay(clock.now()),
        );
        return { ...toPage(rows, limit), summary };
      });
    },

    /** A number-plate camera read (the anpr module), inside the caller's tenant transaction. */
    async recordRead(
      tx: DbExecutor,
      // The site: the tenant's default (the database fills it) until cameras name their gate.
      entry: Omit<TruckListEntryRow, 'id' | 'siteId'> & { siteId?: string | null },
    ): Promise<TruckListEntryRow> {
      return repository.insert(tx, { ...entry, id: newId() });
    },
  };
}
