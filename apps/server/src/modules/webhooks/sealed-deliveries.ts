import { and, count, eq, like, notLike, sql } from 'drizzle-orm';

import type { SealedTable } from '@/modules/keys';
import type { Database, DbExecutor } from '@/platform/db';
import type { ColumnSealer } from '@/platform/sealing';

import type { WebhooksRepository } from './webhooks.repository';
import { type WebhookDeliveryRow, webhookDeliveries } from './webhooks.table';

/**
 * Issue 26: a callback's body (the driver's name, ID number, phone…) is sealed in the outbox
 * with the tenant's data key and opened only where it is used: the worker, just before it signs
 * and sends the exact bytes written. Rows written before sealing are read as they are until the
 * keys.seal-stored-data job seals them.
 */
export const DELIVERY_BODY = 'webhook_deliveries.body';

type Sealer = Pick<ColumnSealer, 'seal' | 'open'>;

const openBody = async <T extends Pick<WebhookDeliveryRow, 'tenantId' | 'body'> | undefined>(
  sealer: Sealer,
  row: T,
): Promise<T> => row && { ...row, body: await sealer.open(row.tenantId, DELIVERY_BODY, row.body) };

/** The repository with the outbox's bodies sealed on write and opened on every read. */
export function withSealedDeliveries(
  repository: WebhooksRepository,
  sealer: Sealer,
): WebhooksRepository {
  return {
    ...repository,
    async insertDelivery(tx, row) {
      const stored = await repository.insertDelivery(tx, {
        ...row,
        body: await sealer.seal(row.tenantId, DELIVERY_BODY, row.body),
      });
      return { ...stored, body: row.body };
    },
    claimDelivery: async (...args) => openBody(sealer, await repository.claimDelivery(...args)),
    findDelivery: async (...args) => openBody(sealer, await repository.findDelivery(...args)),
    resetDelivery: async (...args) => openBody(sealer, await repository.resetDelivery(...args)),
    listDeliveries: async (...args) =>
      Promise.all((await repository.listDeliveries(...args)).map((row) => openBody(sealer, row))),
  };
}

/**
 * Erasure (privacy) rewrites a body: opened, changed, sealed again. Exported for the personal-data
 * provider, which reads and writes the outbox in the erasure's transaction.
 */
export async function rewriteBody(
  sealer: Sealer,
  tx: DbExecutor,
  row: Pick<WebhookDeliveryRow, 'tenantId' | 'id' | 'body'>,
  change: (body: string) => string,
): Promise<void> {
  const plain = await sealer.open(row.tenantId, DELIVERY_BODY, row.body);
  await tx
    .update(webhookDeliveries)
    .set({ body: await sealer.seal(row.tenantId, DELIVERY_BODY, change(plain)) })
    .where(and(eq(webhookDeliveries.tenantId, row.tenantId), eq(webhookDeliveries.id, row.id)));
}

async function resealWhere(
  sealer: Sealer,
  tx: DbExecutor,
  tenantId: string,
  limit: number,
  which: ReturnType<typeof and>,
): Promise<number> {
  const rows = await tx
    .select({
      tenantId: webhookDeliveries.tenantId,
      id: webhookDeliveries.id,
      body: webhookDeliveries.body,
    })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.tenantId, tenantId), which))
    .limit(limit);
  for (const row of rows) await rewriteBody(sealer, tx, row, (body) => body);
  return rows.length;
}

/** Runs batches until one changes nothing: the keys module walks a table to its end per call. */
async function drain(batch: () => Promise<number>): Promise<number> {
  let total = 0;
  for (let changed = await batch(); changed > 0; changed = await batch()) total += changed;
  return total;
}

/** What the keys module's jobs seal (bodies stored before issue 26) and re-seal (a rotation). */
export function deliveriesSealedTable(
  database: Pick<Database, 'withTenant' | 'db'>,
  sealer: Sealer,
): SealedTable {
  const older = (version: number) =>
    and(like(webhookDeliveries.body, 'sv1.%'), notLike(webhookDeliveries.body, `sv1.${version}.%`));
  return {
    name: 'webhook_deliveries',
    unsealedTenants: async (limit) =>
      (
        await database.db.execute<{ tenant_id: string }>(
          sql`select tenant_id from webhook_deliveries_unsealed_tenants(${limit}::int)`,
        )
      ).rows.map((row) => row.tenant_id),
    sealStored: (tenantId, limit) =>
      drain(() =>
        database.withTenant(tenantId, (tx) =>
          resealWhere(sealer, tx, tenantId, limit, and(notLike(webhookDeliveries.body, 'sv1.%'))),
        ),
      ),
    resealOlder: (tenantId, version, limit) =>
      drain(() =>
        database.withTenant(tenantId, (tx) =>
          resealWhere(sealer, tx, tenantId, limit, older(version)),
        ),
      ),
    async countOlder(tx, tenantId, version) {
      const [row] = await tx
        .select({ n: count() })
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.tenantId, tenantId), older(version)));
      return row?.n ?? 0;
    },
  };
}
