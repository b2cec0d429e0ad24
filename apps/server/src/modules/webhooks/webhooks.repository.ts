import { and, desc, eq, isNull, lte, or, sql } from 'drizzle-orm';

import { INCOMING_ENTRY_LINK_WINDOW_MS } from '@boomgate/contracts/webhooks';

import { type DbExecutor, takeOne } from '@/platform/db';
import { type PageShape, type PageValue, compiledPages, pageWhere } from '@/platform/keyset-page';
import type { PageCursor } from '@/platform/page-cursor';

import type { CitedTrailerDisc } from './incoming-trailers';

import {
  type IncomingRequestListRow,
  type IncomingRequestRow,
  type NewIncomingRequestRow,
  type NewWebhookDeliveryRow,
  type WebhookDeliveryRow,
  type WebhookIntegrationRow,
  incomingRequestDailyCounts,
  incomingRequests,
  webhookDeliveries,
  webhookIntegrations,
} from './webhooks.table';

export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;

type DeliveryStatus = WebhookDeliveryRow['status'];

/** All SQL for integrations, incoming requests and the callback outbox. Every call is tenant-scoped. */
/**
 * The feed's page, newest first, keyset-paginated on (timestamp, id). The SQL as it is sent
 * (`npm run bench:scale-plans` explains it; the feed sends it compiled).
 */
function incomingRequestListStatement(tx: DbExecutor, shape: PageShape, value: PageValue) {
  return tx
    .select({
      id: incomingRequests.id,
      timestamp: incomingRequests.timestamp,
      plateNumber: incomingRequests.plateNumber,
      driverName: incomingRequests.driverName,
      driverSurname: incomingRequests.driverSurname,
      driverIdNumber: incomingRequests.driverIdNumber,
      driverPhone1: incomingRequests.driverPhone1,
      transportName: incomingRequests.transportName,
      referenceNumber: incomingRequests.referenceNumber,
      weighbridgeTicketId: incomingRequests.weighbridgeTicketId,
      extractedDiskData: incomingRequests.extractedDiskData,
      completedAt: incomingRequests.completedAt,
      trailerPlates: incomingRequests.trailerPlates,
      trailerLicenceDiscIds: incomingRequests.trailerLicenceDiscIds,
      warnings: incomingRequests.warnings,
      ruleEvidence: incomingRequests.ruleEvidence,
      // Issue 21: the cited trailer discs as read, to pair with the plates (by table name,
      // as above; a primary-key lookup per cited disc, none for a rigid vehicle).
      trailerDiscs: sql<CitedTrailerDisc[]>`(
        select coalesce(json_agg(json_build_object(
          'id', d.id,
          'plate', nullif(btrim(d.fields->>'licenceNumber'), ''),
          'discNumber', nullif(btrim(d.fields->>'discNumber'), ''),
          'dateOfExpiry', nullif(btrim(d.fields->>'dateOfExpiry'), ''))), '[]'::json)
        from licence_discs d
        where d.tenant_id = incoming_requests.tenant_id
          and d.id = any(incoming_requests.trailer_licence_disc_ids))`,
      // Issue 15: a processed request's gate entry, as the truck list links a camera read:
      // the plate's first entry at or after the request arrived, within the window (the
      // tenant's plate index, in order). By table name: modules meet only in SQL.
      entryLogId: sql<string | null>`(
        select e.id from entry_logs e
        where incoming_requests.completed_at is not null
          and e.tenant_id = incoming_requests.tenant_id
          and e.plate_number = incoming_requests.plate_number
          and e."timestamp" >= incoming_requests.received_at
          and e."timestamp" <= incoming_requests.received_at + ${`${INCOMING_ENTRY_LINK_WINDOW_MS} milliseconds`}::interval
        order by e."timestamp", e.id
        limit 1)`,
    })
    .from(incomingRequests)
    .where(
      pageWhere(
        {
          tenantId: incomingRequests.tenantId,
          siteId: incomingRequests.siteId,
          key: incomingRequests.timestamp,
          id: incomingRequests.id,
        },
        shape,
        value,
      ),
    )
    .orderBy(desc(incomingRequests.timestamp), desc(incomingRequests.id))
    .limit(value('limit') as number);
}

const incomingRequestPages = compiledPages<
  IncomingRequestListRow,
  ReturnType<typeof incomingRequestListStatement>
>(incomingRequestListStatement);

export const incomingRequestListQuery = (
  tx: DbExecutor,
  tenantId: string,
  siteIds: readonly string[] | null,
  limit: number,
  after?: PageCursor,
) => incomingRequestPages.built(tx, tenantId, limit, after, siteIds);

export function createWebhooksRepository() {
  return {
    async findIntegration(
      tx: DbExecutor,
      tenantId: string,
    ): Promise<WebhookIntegrationRow | undefined> {
      const rows = await tx
        .select()
        .from(webhookIntegrations)
        .where(eq(webhookIntegrations.tenantId, tenantId))
        .limit(1);
      return rows[0];
    },

    async upsertIntegration(
      tx: DbExecutor,
      tenantId: string,
      values: Partial<Omit<WebhookIntegrationRow, 'tenantId'>> & { updatedAt: Date },
    ): Promise<WebhookIntegrationRow> {
      return takeOne(
        await tx
          .insert(webhookIntegrations)
          .values({ tenantId, ...values })
          .onConflictDoUpdate({ target: webhookIntegrations.tenantId, set: values })
          .returning(),
      );
    },

    /**
     * Stores an entry unless its webhook-id was stored before, in one round trip on its own
     * transaction: incoming_request_receive sets the tenant (set_config, transaction-local) and
     * inserts under row-level security. Returns the entry id and whether it already existed.
     */
    async receiveIncomingRequest(
      db: DbExecutor,
      row: Omit<
        NewIncomingRequestRow,
        | 'driverLicenseNumber'
        | 'driverLicenseValidTo'
        | 'driverDateOfBirth'
        | 'driverSex'
        | 'completedAt'
        | 'completedBy'
      >,
    ): Promise<{ id: string; duplicate: boolean }> {
      const result = await db.execute<{ id: string; duplicate: boolean }>(sql`
        select id, duplicate from incoming_request_receive(
          ${row.tenantId}::uuid, ${row.id}::uuid, ${row.webhookId}::text,
          ${row.receivedAt.toISOString()}::timestamptz, ${row.timestamp.toISOString()}::timestamptz,
          ${row.plateNumber ?? null}::text, ${row.driverName ?? null}::text,
          ${row.driverSurname ?? null}::text, ${row.driverIdNumber ?? null}::text,
          ${row.driverIdNumberHash ?? null}::text, ${row.driverPhone1 ?? null}::text, ${row.transportName ?? null}::text,
          ${row.referenceNumber ?? null}::text, ${row.weighbridgeTicketId ?? null}::text,
          ${row.extractedDiskData ?? null}::text, ${row.siteId ?? null}::uuid)`);
      return takeOne(result.rows);
    },

    /** The feed: newest first, keyset-paginated on (timestamp, id); only the columns it shows. */
    listIncomingRequests: (
      tx: DbExecutor,
      tenantId: string,
      siteIds: readonly string[] | null,
      limit: number,
      after?: PageCursor,
    ): Promise<IncomingRequestListRow[]> =>
      incomingRequestPages.run(tx, tenantId, limit, after, siteIds),

    /** The feed's cards from the per-day counters the triggers keep (migration 0019). */
    async incomingRequestCounts(tx: DbExecutor, tenantId: string) {
      const c = incomingRequestDailyCounts;
      const [row] = await tx
        .select({
          total: sql<number>`coalesce(sum(${c.total}), 0)::int`,
          processed: sql<number>`coalesce(sum(${c.complete}), 0)::int`,
        })
        .from(c)
        .where(eq(c.tenantId, tenantId));
      return row ?? { total: 0, processed: 0 };
    },

    /**
     * REL-04: completes (or edits) an entry only while it is as the caller last saw it: not yet
     * completed (`expectedCompletedAt` null), or completed at exactly that millisecond (an edit).
     * Concurrent calls meet the row lock; the loser re-reads the winner's row (READ COMMITTED)
     * and updates nothing, so it writes no callback. completed_at moves forward by at least 1 ms
     * on every completion, so it serves as the row's version even under a coarse clock.
     * `'any'` (a caller that sent no expectation) drops the condition: concurrent calls still
     * queue on the row lock, and each one, after the previous commits, updates the row as it is
     * then (PostgreSQL re-evaluates the SET on the newest version), so each gets its own
     * completion, a later completed_at, and writes its own callback.
     */
    async completeIncomingRequest(
      tx: DbExecutor,
      tenantId: string,
      id: string,
      expectedCompletedAt: Date | null | 'any',
      values: Pick<
        IncomingRequestRow,
        | 'plateNumber'
        | 'driverName'
        | 'driverSurname'
        | 'driverIdNumber'
        | 'driverPhone1'
        | 'transportName'
        | 'driverLicenseNumber'
        | 'driverLicenseValidTo'
        | 'driverDateOfBirth'
        | 'driverSex'
        | 'completedAt'
        | 'completedBy'
        | 'trailerPlates'
        | 'trailerLicenceDiscIds'
        | 'warnings'
        | 'ruleEvidence'
      > & { driverIdNumberHash?: string | null },
    ): Promise<IncomingRequestRow | undefined> {
      const completedAt = values.completedAt?.toISOString() ?? null;
      const rows = await tx
        .update(incomingRequests)
        .set({
          ...values,
          completedAt: sql`greatest(${completedAt}::timestamptz, ${incomingRequests.completedAt} + interval '1 millisecond')`,
        })
        .where(
          and(
            eq(incomingRequests.tenantId, tenantId),
            eq(incomingRequests.id, id),
            expectedCompletedAt === 'any'
              ? undefined
              : expectedCompletedAt
                ? sql`date_trunc('milliseconds', ${incomingRequests.completedAt}) = ${expectedCompletedAt.toISOString()}::timestamptz`
                : isNull(incomingRequests.completedAt),
          ),
        )
        .returning();
      return rows[0];
    },

    /** Whether the tenant has this entry (tells "changed meanwhile" from "not found"). */
    /** Issue 16: the entry's site; undefined when there is no such entry (for the tenant). */
    async incomingRequestSite(
      tx: DbExecutor,
      tenantId: string,
      id: string,
    ): Promise<{ siteId: string | null } | undefined> {
      const [row] = await tx
        .select({ siteId: incomingRequests.siteId })
        .from(incomingRequests)
        .where(and(eq(incomingRequests.tenantId, tenantId), eq(incomingRequests.id, id)))
        .limit(1);
      return row;
    },

    async hasIncomingRequest(tx: DbExecutor, tenantId: string, id: string): Promise<boolean> {
      const rows = await tx
        .select({ id: incomingRequests.id })
        .from(incomingRequests)
        .where(and(eq(incomingRequests.tenantId, tenantId), eq(incomingRequests.id, id)))
        .limit(1);
      return rows.length > 0;
    },

    async insertDelivery(tx: DbExecutor, row: NewWebhookDeliveryRow): Promise<WebhookDeliveryRow> {
      return takeOne(await tx.insert(webhookDeliveries).values(row).returning());
    },

    /**
     * Takes a due delivery for one attempt: counts the attempt and holds a lease until
     * `leaseUntil`. Another worker (or a sweeper's second job) gets nothing until the lease ends.
     */
    async claimDelivery(
      tx: DbExecutor,
      tenantId: string,
      id: string,
      now: Date,
      leaseUntil: Date,
    ): Promise<WebhookDeliveryRow | undefined> {
      const rows = await tx
        .update(webhookDeliveries)
        .set({
          attempts: sql`${webhookDeliveries.attempts} + 1`,
          lockedUntil: leaseUntil,
          lastAttemptAt: now,
        })
        .where(
          and(
            eq(webhookDeliveries.tenantId, tenantId),
            eq(webhookDeliveries.id, id),
            eq(webhookDeliveries.status, 'pending'),
            lte(webhookDeliveries.nextAttemptAt, now),
            or(isNull(webhookDeliveries.lockedUntil), lte(webhookDeliveries.lockedUntil, now)),
          ),
        )
        .returning();
      return rows[0];
    },

    /**
     * Records how a claimed attempt ended. Only the holder of that attempt may: if its lease ran
     * out and another worker claimed the row since, the stale outcome is dropped (false).
     */
    async recordAttempt(
      tx: DbExecutor,
      tenantId: string,
      id: string,
      claimedAttempt: number,
      outcome: {
        status: DeliveryStatus;
        nextAttemptAt?: Date;
        lastResponseStatus: number | null;
        lastError: string | null;
        deliveredAt?: Date;
      },
    ): Promise<boolean> {
      const rows = await tx
        .update(webhookDeliveries)
        .set({ ...outcome, lockedUntil: null })
        .where(
          and(
            eq(webhookDeliveries.tenantId, tenantId),
            eq(webhookDeliveries.id, id),
            eq(webhookDeliveries.attempts, claimedAttempt),
            eq(webhookDeliveries.status, 'pending'),
          ),
        )
        .returning({ id: webhookDeliveries.id });
      return rows.length === 1;
    },

    listDeliveries: (
      tx: DbExecutor,
      tenantId: string,
      { status, limit }: { status?: DeliveryStatus; limit: number },
    ): Promise<WebhookDeliveryRow[]> =>
      tx
        .select()
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.tenantId, tenantId),
            status ? eq(webhookDeliveries.status, status) : undefined,
          ),
        )
        .orderBy(desc(webhookDeliveries.createdAt))
        .limit(limit),

    async findDelivery(tx: DbExecutor, tenantId: string, id: string) {
      const rows = await tx
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.tenantId, tenantId), eq(webhookDeliveries.id, id)))
        .limit(1);
      return rows[0];
    },

    /** A manual replay: a fresh schedule, the same webhook-id and body. */
    async resetDelivery(tx: DbExecutor, tenantId: string, id: string, now: Date) {
      return takeOne(
        await tx
          .update(webhookDeliveries)
          .set({
            status: 'pending',
            attempts: 0,
            nextAttemptAt: now,
            lockedUntil: null,
            deliveredAt: null,
          })
          .where(and(eq(webhookDeliveries.tenantId, tenantId), eq(webhookDeliveries.id, id)))
          .returning(),
      );
    },

    /** Cross-tenant by necessity (the sweeper): the SECURITY DEFINER function webhooks_due_deliveries. */
    async listDueDeliveries(tx: DbExecutor, now: Date, limit: number) {
      const result = await tx.execute<{ tenant_id: string; delivery_id: string }>(
        sql`select tenant_id, delivery_id from webhooks_due_deliveries(${now.toISOString()}::timestamptz, ${limit}::int)`,
      );
      return result.rows.map((row) => ({ tenantId: row.tenant_id, deliveryId: row.delivery_id }));
    },
  };
}
