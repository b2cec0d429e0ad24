import type { Actor } from '@/modules/sessions';
import type { Database, DbExecutor } from '@/platform/db';
import { newId } from '@/platform/ids';

import type { TruckListRepository } from './truck-list.repository';
import type { TruckListEntryRow } from './truck-list.table';

const MAX_ROWS = 500;

export type TruckListService = ReturnType<typeof createTruckListService>;

export function createTruckListService({
  database,
  repository,
}: {
  database: Pick<Database, 'withTenant'>;
  repository: TruckListRepository;
}) {
  return {
    listTrucks: (actor: Actor) =>
      database.withTenant(actor.tenantId, (tx) => repository.list(tx, actor.tenantId, MAX_ROWS)),

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
