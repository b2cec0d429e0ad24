import { and, asc, eq, inArray, sql } from 'drizzle-orm';

import type { DbExecutor } from '@/platform/db';

import { type GateRow, type SiteRow, gates, sites, userSites } from './sites.table';

export type SitesRepository = ReturnType<typeof createSitesRepository>;

/** What another module needs to know of a gate: which site it belongs to. */
export type GateRef = { id: string; siteId: string; name: string };

/**
 * The gate with this id in the tenant, or null (unknown, or another tenant's: row-level security
 * hides those). Exported for modules that record an event at a gate (barrier agent, visits).
 */
export async function findGate(
  tx: DbExecutor,
  tenantId: string,
  gateId: string,
): Promise<GateRef | null> {
  const [row] = await tx
    .select({ id: gates.id, siteId: gates.siteId, name: gates.name })
    .from(gates)
    .where(and(eq(gates.tenantId, tenantId), eq(gates.id, gateId)));
  return row ?? null;
}

export const DEFAULT_SITE_NAME = 'Main site';
export const DEFAULT_GATE_NAME = 'Main gate';

export function createSitesRepository() {
  return {
    findGate,

    listSites: (tx: DbExecutor, tenantId: string, onlyIds?: readonly string[]) =>
      tx
        .select()
        .from(sites)
        .where(
          and(eq(sites.tenantId, tenantId), onlyIds ? inArray(sites.id, [...onlyIds]) : undefined),
        )
        .orderBy(asc(sites.createdAt), asc(sites.id)),

    listSiteIds: async (tx: DbExecutor, tenantId: string) =>
      (await tx.select({ id: sites.id }).from(sites).where(eq(sites.tenantId, tenantId))).map(
        (row) => row.id,
      ),

    findSite: async (tx: DbExecutor, tenantId: string, siteId: string) =>
      (
        await tx
          .select()
          .from(sites)
          .where(and(eq(sites.tenantId, tenantId), eq(sites.id, siteId)))
      )[0] ?? null,

    /** Of these ids, the ones that are sites of the tenant. */
    existingSiteIds: async (tx: DbExecutor, tenantId: string, siteIds: readonly string[]) =>
      siteIds.length === 0
        ? []
        : (
            await tx
              .select({ id: sites.id })
              .from(sites)
              .where(and(eq(sites.tenantId, tenantId), inArray(sites.id, [...siteIds])))
          ).map((row) => row.id),

    insertSite: async (tx: DbExecutor, row: typeof sites.$inferInsert): Promise<SiteRow> =>
      (await tx.insert(sites).values(row).returning())[0]!,

    updateSite: async (
      tx: DbExecutor,
      tenantId: string,
      siteId: string,
      patch: Partial<Pick<SiteRow, 'name' | 'timezone' | 'overstayMinutes' | 'isActive'>>,
    ) =>
      (
        await tx
          .update(sites)
          .set(patch)
          .where(and(eq(sites.tenantId, tenantId), eq(sites.id, siteId)))
          .returning()
      )[0] ?? null,

    /**
     * The tenant's default site and its first gate, created on first use for tenants made after
     * the migration that gave every existing tenant one.
     */
    async defaultSite(tx: DbExecutor, tenantId: string): Promise<{ site: SiteRow; gate: GateRow }> {
      await tx.execute(sql`
        insert into sites (tenant_id, id, name, is_default)
        values (${tenantId}::uuid, gen_random_uuid(), ${DEFAULT_SITE_NAME}, true)
        on conflict (tenant_id) where is_default do nothing`);
      const [site] = await tx
        .select()
        .from(sites)
        .where(and(eq(sites.tenantId, tenantId), eq(sites.isDefault, true)));
      if (!site) throw new Error('The default site is missing after its creation');
      const [gate] = await tx
        .select()
        .from(gates)
        .where(and(eq(gates.tenantId, tenantId), eq(gates.siteId, site.id)))
        .orderBy(asc(gates.createdAt), asc(gates.id))
        .limit(1);
      if (gate) return { site, gate };
      const [created] = await tx
        .insert(gates)
        .values({
          tenantId,
          id: crypto.randomUUID(),
          siteId: site.id,
          name: DEFAULT_GATE_NAME,
          lanes: [{ name: 'Lane 1', direction: 'both' }],
        })
        .returning();
      return { site, gate: created! };
    },

    listGates: (tx: DbExecutor, tenantId: string, siteId: string) =>
      tx
        .select()
        .from(gates)
        .where(and(eq(gates.tenantId, tenantId), eq(gates.siteId, siteId)))
        .orderBy(asc(gates.createdAt), asc(gates.id)),

    findGateRow: async (tx: DbExecutor, tenantId: string, gateId: string) =>
      (
        await tx
          .select()
          .from(gates)
          .where(and(eq(gates.tenantId, tenantId), eq(gates.id, gateId)))
      )[0] ?? null,

    insertGate: async (tx: DbExecutor, row: typeof gates.$inferInsert): Promise<GateRow> =>
      (await tx.insert(gates).values(row).returning())[0]!,

    updateGate: async (
      tx: DbExecutor,
      tenantId: string,
      gateId: string,
      patch: Partial<Pick<GateRow, 'name' | 'lanes' | 'isActive'>>,
    ) =>
      (
        await tx
          .update(gates)
          .set(patch)
          .where(and(eq(gates.tenantId, tenantId), eq(gates.id, gateId)))
          .returning()
      )[0] ?? null,

    /**
     * What a user's site scope is decided from, in one round trip (issue 27: a guard's list
     * asked three to five statements for it on every page): the user's assigned sites, every
     * site of the tenant, and the default site (null until the tenant has one).
     */
    async scopeFacts(tx: DbExecutor, tenantId: string, userId: string) {
      const result = await tx.execute<{
        assigned: string[];
        every: string[];
        default_site: string | null;
      }>(sql`
        select
          array(select site_id from user_sites where tenant_id = ${tenantId}::uuid and user_id = ${userId}::uuid) as assigned,
          array(select id from sites where tenant_id = ${tenantId}::uuid) as every,
          (select id from sites where tenant_id = ${tenantId}::uuid and is_default) as default_site`);
      const row = result.rows[0];
      if (!row) throw new Error('The site scope query answered no row');
      return { assigned: row.assigned, every: row.every, defaultSite: row.default_site };
    },

    /** The sites a user is assigned to (empty: not scoped by assignment). */
    siteIdsOfUser: async (tx: DbExecutor, tenantId: string, userId: string) =>
      (
        await tx
          .select({ siteId: userSites.siteId })
          .from(userSites)
          .where(and(eq(userSites.tenantId, tenantId), eq(userSites.userId, userId)))
      ).map((row) => row.siteId),

    /** The site assignments of several users at once (the user list). */
    siteIdsOfUsers: async (tx: DbExecutor, tenantId: string, userIds: readonly string[]) => {
      const byUser = new Map<string, string[]>();
      if (userIds.length === 0) return byUser;
      const rows = await tx
        .select({ userId: userSites.userId, siteId: userSites.siteId })
        .from(userSites)
        .where(and(eq(userSites.tenantId, tenantId), inArray(userSites.userId, [...userIds])));
      for (const row of rows)
        byUser.set(row.userId, [...(byUser.get(row.userId) ?? []), row.siteId]);
      return byUser;
    },

    /** Replaces a user's site assignments. */
    async setUserSites(
      tx: DbExecutor,
      tenantId: string,
      userId: string,
      siteIds: readonly string[],
    ) {
      await tx
        .delete(userSites)
        .where(and(eq(userSites.tenantId, tenantId), eq(userSites.userId, userId)));
      if (siteIds.length > 0)
        await tx
          .insert(userSites)
          .values([...new Set(siteIds)].map((siteId) => ({ tenantId, userId, siteId })));
    },
  };
}
