import { and, asc, eq, sql } from 'drizzle-orm';

import type { SiteSyncTable } from '@boomgate/contracts/site-sync';

import { type DbExecutor, takeOne } from '@/platform/db';

import {
  type SiteNodeTokenRow,
  siteNodeTokens,
  siteSyncEvents,
  siteSyncSeqAliases,
  siteSyncSigningKeys,
} from './site-sync.table';

export type SiteSyncRepository = ReturnType<typeof createSiteSyncRepository>;

/** One changed row as read for a page: `row` null for a tombstone. */
export type ChangeRow = {
  version: number;
  table: SiteSyncTable;
  id: string;
  row: Record<string, unknown> | null;
};

/**
 * How each synced table is read for a site's page: its key as text (as its tombstones name it)
 * and which of the tenant's rows the site receives. `$site` is the token's site. The names are
 * constants of this file, never input.
 */
const TABLE_READS: Record<SiteSyncTable, { key: string; tenant: string; where: string }> = {
  tenants: { key: 't.id::text', tenant: 't.id', where: 'true' },
  sites: { key: 't.id::text', tenant: 't.tenant_id', where: 't.id = $site' },
  gates: { key: 't.id::text', tenant: 't.tenant_id', where: 't.site_id = $site' },
  // Users who work at the site, and the tenant's admins (they may sign in anywhere).
  users: { key: 't.id::text', tenant: 't.tenant_id', where: 'SITE_USER(t.id)' },
  user_sites: {
    key: "t.user_id::text || ':' || t.site_id::text",
    tenant: 't.tenant_id',
    where: 't.site_id = $site',
  },
  mfa_totp: { key: 't.user_id::text', tenant: 't.tenant_id', where: 'SITE_USER(t.user_id)' },
  mfa_passkeys: { key: 't.id::text', tenant: 't.tenant_id', where: 'SITE_USER(t.user_id)' },
  approved_vehicles: { key: 't.id::text', tenant: 't.tenant_id', where: 'true' },
  drivers: { key: 't.id::text', tenant: 't.tenant_id', where: 'true' },
  induction_assignments: { key: 't.id::text', tenant: 't.tenant_id', where: 'true' },
  watchlist_entries: { key: 't.id::text', tenant: 't.tenant_id', where: 'true' },
  document_rule_settings: { key: 't.tenant_id::text', tenant: 't.tenant_id', where: 'true' },
  override_pin_settings: { key: 't.tenant_id::text', tenant: 't.tenant_id', where: 'true' },
};

const siteUser = (column: string) =>
  `(exists (select 1 from user_sites s where s.tenant_id = t.tenant_id and s.user_id = ${column} and s.site_id = $site)` +
  ` or exists (select 1 from users a where a.tenant_id = t.tenant_id and a.id = ${column} and a.role = 'tenant_admin'))`;

/**
 * The highest seq held per stream of the site (streams named), or of every stream (`null`): a
 * fact's own seq or an alias seq of a fact sent again under the stream's next seq (ADR 0009).
 */
async function highestSeqs(
  tx: DbExecutor,
  tenantId: string,
  siteId: string,
  streams: string[] | null,
): Promise<Map<string, number>> {
  if (streams !== null && streams.length === 0) return new Map();
  const named = streams === null ? sql`true` : sql`stream = any(${sql.param(streams)}::text[])`;
  const rows = await tx.execute<{ stream: string; seq: number }>(sql`
    select stream, max(seq) as seq from (
      select stream, seq from site_sync_events
        where tenant_id = ${tenantId} and site_id = ${siteId} and ${named}
      union all
      select stream, seq from site_sync_seq_aliases
        where tenant_id = ${tenantId} and site_id = ${siteId} and ${named}
    ) held group by stream`);
  return new Map(rows.rows.map((row) => [row.stream, Number(row.seq)]));
}

export function createSiteSyncRepository() {
  return {
    // ---- tokens ----
    insertToken: async (tx: DbExecutor, row: typeof siteNodeTokens.$inferInsert) =>
      takeOne(await tx.insert(siteNodeTokens).values(row).returning()),

    listTokens: (tx: DbExecutor, tenantId: string, siteId: string): Promise<SiteNodeTokenRow[]> =>
      tx
        .select()
        .from(siteNodeTokens)
        .where(and(eq(siteNodeTokens.tenantId, tenantId), eq(siteNodeTokens.siteId, siteId)))
        .orderBy(asc(siteNodeTokens.createdAt), asc(siteNodeTokens.id)),

    listAllTokens: (tx: DbExecutor, tenantId: string): Promise<SiteNodeTokenRow[]> =>
      tx.select().from(siteNodeTokens).where(eq(siteNodeTokens.tenantId, tenantId)),

    async findToken(tx: DbExecutor, tenantId: string, siteId: string, id: string) {
      const rows = await tx
        .select()
        .from(siteNodeTokens)
        .where(
          and(
            eq(siteNodeTokens.tenantId, tenantId),
            eq(siteNodeTokens.siteId, siteId),
            eq(siteNodeTokens.id, id),
          ),
        );
      return rows[0] ?? null;
    },

    async revokeToken(tx: DbExecutor, tenantId: string, id: string, at: Date) {
      const rows = await tx
        .update(siteNodeTokens)
        .set({ revokedAt: at })
        .where(
          and(
            eq(siteNodeTokens.tenantId, tenantId),
            eq(siteNodeTokens.id, id),
            sql`${siteNodeTokens.revokedAt} is null`,
          ),
        )
        .returning();
      return rows[0] ?? null;
    },

    /** Which tenant, token and site an unrevoked token hash belongs to (site_sync_find_token). */
    async findTokenByHash(tx: DbExecutor, tokenHash: string) {
      const result = await tx.execute<{ tenant_id: string; token_id: string; site_id: string }>(
        sql`select tenant_id, token_id, site_id from site_sync_find_token(${tokenHash})`,
      );
      const [row] = result.rows;
      return row ? { tenantId: row.tenant_id, tokenId: row.token_id, siteId: row.site_id } : null;
    },

    async touchToken(
      tx: DbExecutor,
      tenantId: string,
      id: string,
      direction: 'down' | 'up',
      at: Date,
    ) {
      await tx
        .update(siteNodeTokens)
        .set(
          direction === 'down'
            ? { lastSyncAt: at, lastDownSyncAt: at }
            : { lastSyncAt: at, lastUpSyncAt: at },
        )
        .where(and(eq(siteNodeTokens.tenantId, tenantId), eq(siteNodeTokens.id, id)));
    },

    // ---- signing key ----
    async findSigningKey(tx: DbExecutor, tenantId: string) {
      const rows = await tx
        .select()
        .from(siteSyncSigningKeys)
        .where(eq(siteSyncSigningKeys.tenantId, tenantId));
      return rows[0] ?? null;
    },

    async insertSigningKey(tx: DbExecutor, row: typeof siteSyncSigningKeys.$inferInsert) {
      await tx.insert(siteSyncSigningKeys).values(row).onConflictDoNothing();
    },

    // ---- down-sync ----
    /** The highest version every change up to which has committed (site_sync_horizon()). */
    async horizon(tx: DbExecutor): Promise<number> {
      const result = await tx.execute<{ horizon: string }>(
        sql`select site_sync_horizon() as horizon`,
      );
      return Number(result.rows[0]?.horizon ?? 0);
    },

    /**
     * The site's changes with `since < version <= upTo`, in version order, at most `limit`: each
     * table's rows (an index range on (tenant_id, sync_version)) and the tenant's tombstones.
     */
    async changes(
      tx: DbExecutor,
      { tenantId, siteId, since, upTo, limit }: ChangesRange,
    ): Promise<ChangeRow[]> {
      const parts = Object.entries(TABLE_READS).map(([table, read]) => {
        const filter = bindSite(
          read.where.replace(/SITE_USER\(([^)]+)\)/g, (_match, column: string) => siteUser(column)),
          siteId,
        );
        return sql`(select t.sync_version as version, ${sql.raw(`'${table}'`)} as tbl, ${sql.raw(read.key)} as row_id, to_jsonb(t) - 'sync_version' - 'sync_changed_at' as row from ${sql.raw(table)} t where ${sql.raw(read.tenant)} = ${tenantId}::uuid and t.sync_version > ${since}::bigint and t.sync_version <= ${upTo}::bigint and ${filter} order by t.sync_version limit ${limit}::int)`;
      });
      parts.push(
        sql`(select version, table_name as tbl, row_id, null::jsonb as row from sync_tombstones where tenant_id = ${tenantId}::uuid and version > ${since}::bigint and version <= ${upTo}::bigint order by version limit ${limit}::int)`,
      );
      const query = sql`select version, tbl, row_id, row from (${sql.join(parts, sql.raw(' union all '))}) u order by version limit ${limit}::int`;
      const result = await tx.execute<{
        version: string;
        tbl: SiteSyncTable;
        row_id: string;
        row: Record<string, unknown> | null;
      }>(query);
      return result.rows.map((row) => ({
        version: Number(row.version),
        table: row.tbl,
        id: row.row_id,
        row: row.row,
      }));
    },

    // ---- up-sync ----
    /** One writer per site at a time: order checks and inserts see every earlier batch. */
    async lockSite(tx: DbExecutor, tenantId: string, siteId: string) {
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`site-sync:${tenantId}:${siteId}`}, 0))`,
      );
    },

    /** The highest seq held per stream of the site (streams named; see highestSeqs). */
    highestSeqs: (tx: DbExecutor, tenantId: string, siteId: string, streams: string[]) =>
      highestSeqs(tx, tenantId, siteId, streams),

    /** The highest seq held of every stream of a site. */
    allHighestSeqs: (tx: DbExecutor, tenantId: string, siteId: string) =>
      highestSeqs(tx, tenantId, siteId, null),

    /**
     * Records that `seq` of the stream is taken by a fact central already holds under another seq
     * (the node sent it again under the stream's next seq): later facts follow it.
     */
    async insertSeqAlias(tx: DbExecutor, row: typeof siteSyncSeqAliases.$inferInsert) {
      await tx.insert(siteSyncSeqAliases).values(row);
    },

    /** The events already held among these ids (a resent batch). */
    async heldIds(tx: DbExecutor, tenantId: string, ids: string[]) {
      const rows = await tx
        .select({
          id: siteSyncEvents.id,
          siteId: siteSyncEvents.siteId,
          stream: siteSyncEvents.stream,
          seq: siteSyncEvents.seq,
          kind: siteSyncEvents.kind,
          payload: siteSyncEvents.payload,
        })
        .from(siteSyncEvents)
        .where(
          and(
            eq(siteSyncEvents.tenantId, tenantId),
            sql`${siteSyncEvents.id} = any(${sql.param(ids)}::uuid[])`,
          ),
        );
      return new Map(rows.map((row) => [row.id, row]));
    },

    /** Inserts the fact once: false when its id was already held. */
    async insertEvent(tx: DbExecutor, row: typeof siteSyncEvents.$inferInsert) {
      const rows = await tx
        .insert(siteSyncEvents)
        .values(row)
        .onConflictDoNothing({ target: [siteSyncEvents.tenantId, siteSyncEvents.id] })
        .returning({ id: siteSyncEvents.id });
      return rows.length === 1;
    },

    /**
     * The approved vehicle of a plate as central holds it now, with when it last changed (the
     * sync stamp): what the stale-decision check compares with the site's time.
     */
    async vehicleByPlate(tx: DbExecutor, tenantId: string, plateNumber: string) {
      const result = await tx.execute<{
        id: string;
        is_active: boolean;
        approved_until: string | null;
        proposal: string | null;
        sync_version: string;
        sync_changed_at: string;
      }>(
        sql`select id, is_active, approved_until::text as approved_until, proposal, sync_version, sync_changed_at from approved_vehicles where tenant_id = ${tenantId}::uuid and plate_number = ${plateNumber}`,
      );
      const [row] = result.rows;
      return row
        ? {
            id: row.id,
            isActive: row.is_active,
            approvedUntil: row.approved_until,
            proposal: row.proposal,
            version: Number(row.sync_version),
            changedAt: new Date(row.sync_changed_at),
          }
        : null;
    },

    /** The latest deletion of a plate's approval at or before `at` (its tombstone), or null. */
    async vehicleDeletion(tx: DbExecutor, tenantId: string, plateNumber: string, at: Date) {
      const result = await tx.execute<{ version: string; deleted_at: string }>(
        sql`select version, deleted_at from sync_tombstones where tenant_id = ${tenantId}::uuid and table_name = 'approved_vehicles' and match_key = ${plateNumber} and deleted_at <= ${at.toISOString()}::timestamptz order by version desc limit 1`,
      );
      const [row] = result.rows;
      return row ? { version: Number(row.version), deletedAt: new Date(row.deleted_at) } : null;
    },

    /** When these watchlist entries last changed centrally (their sync stamps). */
    async watchlistStamps(tx: DbExecutor, tenantId: string, ids: string[]) {
      if (ids.length === 0) return [];
      const result = await tx.execute<{
        id: string;
        sync_version: string;
        sync_changed_at: string;
      }>(
        sql`select id, sync_version, sync_changed_at from watchlist_entries where tenant_id = ${tenantId}::uuid and id = any(${sql.param(ids)}::uuid[])`,
      );
      return result.rows.map((row) => ({
        id: row.id,
        version: Number(row.sync_version),
        changedAt: new Date(row.sync_changed_at),
      }));
    },

    /** An exit fact received before its entry's (another gate's stream), for when it arrives. */
    async pendingExitOf(tx: DbExecutor, tenantId: string, entryLogId: string) {
      const rows = await tx
        .select()
        .from(siteSyncEvents)
        .where(
          and(
            eq(siteSyncEvents.tenantId, tenantId),
            eq(siteSyncEvents.kind, 'exit'),
            sql`(${siteSyncEvents.payload}->>'entry_log_id') = ${entryLogId}`,
          ),
        )
        .limit(1);
      return rows[0] ?? null;
    },
  };
}

export type ChangesRange = {
  tenantId: string;
  siteId: string;
  since: number;
  upTo: number;
  limit: number;
};

/** A read's filter with each `$site` bound as a parameter. */
function bindSite(where: string, siteId: string) {
  return sql.join(
    where.split('$site').map((piece) => sql.raw(piece)),
    sql`${siteId}::uuid`,
  );
}
