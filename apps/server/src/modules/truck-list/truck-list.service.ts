import type { Actor } from '@/modules/sessions';
import type { Database } from '@/platform/db';

import type { TruckListRepository } from './truck-list.repository';

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
  };
}
