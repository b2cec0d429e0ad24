import type { SealedColumns } from '@/modules/keys';
import { type ColumnSealer, SA_ID_NUMBER } from '@/platform/sealing';

import type { WebhooksRepository } from './webhooks.repository';

/**
 * Issue 26: the incoming feed's driver ID number is sealed at rest (`sv1.…`) with its keyed hash
 * beside it, which is how a data subject's feed entries are found (privacy export and erasure).
 * The feed shows it opened; the cards count a present number, sealed or not, as before. The keys
 * module's jobs seal the rows stored before and re-seal them on a rotation.
 */
export const INCOMING_SEALED_COLUMNS: SealedColumns = {
  table: 'incoming_requests',
  id: 'id',
  tenant: 'tenant_id',
  columns: [
    { column: 'driver_id_number', hash: { column: 'driver_id_number_hash', domain: SA_ID_NUMBER } },
  ],
  unsealedTenants: 'incoming_requests_unsealed_tenants',
};

export const INCOMING_ID_NUMBER = 'incoming_requests.driver_id_number';

type Numbered = { tenantId?: string; driverIdNumber?: string | null };

/** The repository with the feed's ID numbers sealed on write and opened on every read. */
export function withSealedIncoming(
  repository: WebhooksRepository,
  sealer: ColumnSealer,
): WebhooksRepository {
  const seal = async (tenantId: string, value: string | null | undefined) =>
    value
      ? {
          driverIdNumber: await sealer.seal(tenantId, INCOMING_ID_NUMBER, value),
          driverIdNumberHash: await sealer.index(tenantId, SA_ID_NUMBER, value),
        }
      : { driverIdNumber: value ?? null, driverIdNumberHash: null };
  const open = async <Row extends Numbered>(tenantId: string, row: Row): Promise<Row> =>
    row.driverIdNumber
      ? {
          ...row,
          driverIdNumber: await sealer.open(tenantId, INCOMING_ID_NUMBER, row.driverIdNumber),
        }
      : row;
  return {
    ...repository,
    receiveIncomingRequest: async (db, row) =>
      repository.receiveIncomingRequest(db, {
        ...row,
        ...(await seal(row.tenantId, row.driverIdNumber)),
      }),
    listIncomingRequests: async (tx, tenantId, ...rest) =>
      Promise.all(
        (await repository.listIncomingRequests(tx, tenantId, ...rest)).map((row) =>
          open(tenantId, row),
        ),
      ),
    async completeIncomingRequest(tx, tenantId, id, expected, values) {
      const row = await repository.completeIncomingRequest(tx, tenantId, id, expected, {
        ...values,
        ...(await seal(tenantId, values.driverIdNumber)),
      });
      return row && open(tenantId, row);
    },
  };
}
