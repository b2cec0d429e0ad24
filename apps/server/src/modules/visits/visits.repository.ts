import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';

import type { SealedColumns } from '@/modules/keys';

import type { DbExecutor } from '@/platform/db';
import { type PageShape, type PageValue, compiledPages, pageWhere } from '@/platform/keyset-page';
import type { PageCursor } from '@/platform/page-cursor';
import { type ColumnSealer, identityNumberDomain } from '@/platform/sealing';

import { type VisitRow, visitOpenCounts, visits } from './visits.table';

export type VisitsRepository = ReturnType<typeof createVisitsRepository>;

export type VisitExit = Pick<
  VisitRow,
  | 'exitedAt'
  | 'exitRecordedAt'
  | 'exitGateId'
  | 'exitSource'
  | 'exitedBy'
  | 'exitedByName'
  | 'exitTicketNumber'
  | 'exitSealNumbers'
  | 'exitMismatches'
> &
  Partial<Pick<VisitRow, 'exitIdempotencyKey'>>;

/** A weighbridge ticket as the exit checks read it (documents module's table, read only). */
type TicketRow = { ticket_number: string | null; seals: string | null; vehicle_reg: string | null };

const PERSON_ID_NUMBER = 'visits.person_id_number';

/** What the keys module's jobs seal (visits stored before issue 26) and re-seal (a rotation). */
export const VISITS_SEALED_COLUMNS: SealedColumns = {
  table: 'visits',
  id: 'id',
  tenant: 'tenant_id',
  columns: [
    {
      column: 'person_id_number',
      hash: { column: 'person_id_number_hash', domain: identityNumberDomain },
    },
  ],
  unsealedTenants: 'visits_unsealed_tenants',
};

/**
 * Issue 26: a visitor's ID or passport number is sealed on the way in and opened only for the
 * rows a call returns; equality (re-entry, data-subject requests) by its keyed hash.
 */
/** On Site's list, newest first, keyset-paginated on (entered_at, id): the open visits. */
function openVisitsStatement(tx: DbExecutor, shape: PageShape, value: PageValue) {
  return tx
    .select()
    .from(visits)
    .where(
      pageWhere(
        { tenantId: visits.tenantId, siteId: visits.siteId, key: visits.enteredAt, id: visits.id },
        shape,
        value,
        isNull(visits.exitedAt),
      ),
    )
    .orderBy(desc(visits.enteredAt), desc(visits.id))
    .limit(value('limit') as number);
}

const openVisitPages = compiledPages<VisitRow, ReturnType<typeof openVisitsStatement>>(
  openVisitsStatement,
);

/** On Site's list as it is sent (`npm run bench:scale-plans` explains it; the list sends it compiled). */
export const openVisitsQuery = (
  tx: DbExecutor,
  tenantId: string,
  siteIds: readonly string[] | null,
  limit: number,
  after?: PageCursor,
) => openVisitPages.built(tx, tenantId, limit, after, siteIds);

export function createVisitsRepository(sealer: ColumnSealer) {
  async function open<Row extends VisitRow | null>(row: Row): Promise<Row> {
    if (!row?.personIdNumber) return row;
    return {
      ...row,
      personIdNumber: await sealer.open(row.tenantId, PERSON_ID_NUMBER, row.personIdNumber),
    };
  }
  /** The rows a query has just returned, opened in place (issue 27c: no copy of each row). */
  const openAll = async (rows: VisitRow[]) => {
    await Promise.all(
      rows.map(async (row) => {
        if (row.personIdNumber)
          row.personIdNumber = await sealer.open(
            row.tenantId,
            PERSON_ID_NUMBER,
            row.personIdNumber,
          );
      }),
    );
    return rows;
  };
  const hashOf = (tenantId: string, number: string) =>
    sealer.index(tenantId, identityNumberDomain(number), number);
  return {
    open,
    hashOf,

    /**
     * How many are inside now, as a scalar subquery for another statement (the dashboard): the
     * per-site counts the visits triggers keep (migration 0040), not a count of open visits.
     */
    openCountSql: (tenantId: string, siteIds: readonly string[] | null) =>
      sql<number>`(select coalesce(sum(${visitOpenCounts.open}), 0)::int from ${visitOpenCounts} where ${visitOpenCounts.tenantId} = ${tenantId}::uuid${
        siteIds === null
          ? sql``
          : siteIds.length === 0
            ? sql` and false`
            : sql` and ${visitOpenCounts.siteId} in (${sql.join(
                siteIds.map((id) => sql`${id}::uuid`),
                sql`, `,
              )})`
      })`,

    /**
     * When the server received the capture (POST /api/ocr): the time of a gate event that cites
     * it. Null for an unknown or another tenant's capture.
     */
    async captureReceivedAt(tx: DbExecutor, tenantId: string, captureId: string) {
      const result = await tx.execute<{ created_at: string }>(
        sql`select created_at from captures where tenant_id = ${tenantId}::uuid and id = ${captureId}::uuid`,
      );
      const row = result.rows[0];
      return row ? new Date(row.created_at) : null;
    },

    /** The earliest receipt of the capture whose image an entry keeps (its plate photo). */
    async imageReceivedAt(tx: DbExecutor, tenantId: string, imageKey: string) {
      const result = await tx.execute<{ created_at: string | null }>(
        sql`select min(created_at) as created_at from captures where tenant_id = ${tenantId}::uuid and image_key = ${imageKey}`,
      );
      const at = result.rows[0]?.created_at;
      return at ? new Date(at) : null;
    },

    /** A weighbridge ticket of the tenant (the exit's), or null. */
    async ticket(tx: DbExecutor, tenantId: string, ticketId: string) {
      const result = await tx.execute<TicketRow>(
        sql`select ticket_number, fields->>'sealNumbers' as seals, vehicle_reg from weighbridge_tickets where tenant_id = ${tenantId}::uuid and id = ${ticketId}::uuid`,
      );
      return result.rows[0] ?? null;
    },

    /** The weighbridge ticket the entry cited, or null. */
    async entryTicket(tx: DbExecutor, tenantId: string, entryLogId: string) {
      const result = await tx.execute<TicketRow>(
        sql`select w.ticket_number, w.fields->>'sealNumbers' as seals, w.vehicle_reg from entry_logs e join weighbridge_tickets w on w.tenant_id = e.tenant_id and w.id = e.weighbridge_ticket_id where e.tenant_id = ${tenantId}::uuid and e.id = ${entryLogId}::uuid`,
      );
      return result.rows[0] ?? null;
    },

    /** The plate's open visit, newest first (a booking system's exit names the plate). */
    /** The plate's latest open visit; with `site`, only one at that site (or those sites). */
    openVisitOfPlate: async (
      tx: DbExecutor,
      tenantId: string,
      plateNumber: string,
      site?: string | readonly string[] | null,
    ) =>
      open(
        (
          await tx
            .select()
            .from(visits)
            .where(
              and(
                eq(visits.tenantId, tenantId),
                eq(visits.plateNumber, plateNumber),
                isNull(visits.exitedAt),
                typeof site === 'string'
                  ? eq(visits.siteId, site)
                  : site
                    ? inArray(visits.siteId, [...site])
                    : undefined,
              ),
            )
            .orderBy(desc(visits.enteredAt), desc(visits.id))
            .limit(1)
        )[0] ?? null,
      ),

    async insert(tx: DbExecutor, row: typeof visits.$inferInsert): Promise<VisitRow> {
      const number = row.personIdNumber;
      const sealed = number
        ? {
            ...row,
            personIdNumber: await sealer.seal(row.tenantId, PERSON_ID_NUMBER, number),
            personIdNumberHash: await hashOf(row.tenantId, number),
          }
        : row;
      return open((await tx.insert(visits).values(sealed).returning())[0]!);
    },

    find: async (tx: DbExecutor, tenantId: string, id: string) =>
      open(
        (
          await tx
            .select()
            .from(visits)
            .where(and(eq(visits.tenantId, tenantId), eq(visits.id, id)))
        )[0] ?? null,
      ),

    findByEntry: async (tx: DbExecutor, tenantId: string, entryLogId: string) =>
      open(
        (
          await tx
            .select()
            .from(visits)
            .where(and(eq(visits.tenantId, tenantId), eq(visits.entryLogId, entryLogId)))
        )[0] ?? null,
      ),

    /** Whether the plate is on site now (an open visit anywhere in the tenant). */
    async isPlateInside(tx: DbExecutor, tenantId: string, plateNumber: string, siteId?: string) {
      const [row] = await tx
        .select({ id: visits.id })
        .from(visits)
        .where(
          and(
            eq(visits.tenantId, tenantId),
            eq(visits.plateNumber, plateNumber),
            isNull(visits.exitedAt),
            siteId ? eq(visits.siteId, siteId) : undefined,
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    /** Whether a person with this ID number is on site now. */
    async isPersonInside(tx: DbExecutor, tenantId: string, idNumber: string) {
      const [row] = await tx
        .select({ id: visits.id })
        .from(visits)
        .where(
          and(
            eq(visits.tenantId, tenantId),
            or(
              eq(visits.personIdNumberHash, await hashOf(tenantId, idNumber)),
              // Stored before sealing, until keys.seal-stored-data has sealed it.
              and(isNull(visits.personIdNumberHash), eq(visits.personIdNumber, idNumber)),
            ),
            eq(visits.kind, 'person'),
            isNull(visits.exitedAt),
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    /** Closes the visit if still open; null when it had already exited. */
    close: async (tx: DbExecutor, tenantId: string, id: string, exit: VisitExit) =>
      open(
        (
          await tx
            .update(visits)
            .set(exit)
            .where(and(eq(visits.tenantId, tenantId), eq(visits.id, id), isNull(visits.exitedAt)))
            .returning()
        )[0] ?? null,
      ),

    /**
     * Who is inside, newest first, keyset-paged on (entered_at, id): a range scan of the partial
     * index of open visits (one site, or every site of the tenant).
     */
    listOpen: async (
      tx: DbExecutor,
      tenantId: string,
      siteIds: readonly string[] | null,
      limit: number,
      after?: PageCursor,
    ) => openAll(await openVisitPages.run(tx, tenantId, limit, after, siteIds)),

    listOpenSince: async (
      tx: DbExecutor,
      tenantId: string,
      siteId: string,
      enteredBefore: Date,
      limit: number,
    ) =>
      openAll(
        await tx
          .select()
          .from(visits)
          .where(
            and(
              eq(visits.tenantId, tenantId),
              eq(visits.siteId, siteId),
              isNull(visits.exitedAt),
              sql`${visits.enteredAt} < ${enteredBefore.toISOString()}::timestamptz`,
            ),
          )
          .orderBy(visits.enteredAt, visits.id)
          .limit(limit),
      ),
  };
}
