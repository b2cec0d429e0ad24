import type { TruckListSummary } from '@boomgate/contracts/truck-list';

import type { Actor } from '@/modules/sessions';
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
}: {
  database: Pick<Database, 'withTenant'>;
  repository: TruckListRepository;
  clock: Clock;
}) {
  return {
    /** One page, newest first, and the summary cards over every read of the tenant. */
    async listTrucks(actor: Actor, { limit, cursor }: { limit: number; cursor?: string }) {
      const after = readPageCursor(cursor);
      return database.withTenant(actor.tenantId, async (tx) => {
        const rows = await repository.list(tx, actor.tenantId, limit + 1, after);
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
      entry: Omit<TruckListEntryRow, 'id'>,
    ): Promise<TruckListEntryRow> {
      const row = { ...entry, id: newId() };
      await repository.insert(tx, row);
      return row;
    },
  };
}
