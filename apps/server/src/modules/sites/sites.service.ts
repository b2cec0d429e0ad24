import type { CreateGate, CreateSite, UpdateGate, UpdateSite } from '@boomgate/contracts/sites';

import type { AuditService } from '@/modules/audit';
import type { Actor } from '@/modules/sessions';
import type { Database, DbExecutor } from '@/platform/db';
import { AppError, isUniqueViolation } from '@/platform/errors';
import { DEFAULT_SITE_TIME_ZONE } from '@/platform/calendar';
import { newId } from '@/platform/ids';

import type { SitesRepository } from './sites.repository';
import type { GateRow, SiteRow } from './sites.table';

export type SitesServiceDeps = {
  database: Pick<Database, 'withTenant'>;
  repository: SitesRepository;
  audit: Pick<AuditService, 'record'>;
};

export type SitesService = ReturnType<typeof createSitesService>;

/** The sites a user's records are limited to; null: every site of the tenant. */
export type SiteScope = readonly string[] | null;

/** Where a gate event happened, after the scope check. */
export type Place = { siteId: string; gateId: string | null };

// A site outside the caller's scope answers like one that does not exist (as another tenant's).
const siteNotFound = () => new AppError('NOT_FOUND', 'Site not found.');
const gateNotFound = () => new AppError('NOT_FOUND', 'Gate not found.');

/** What a list needs to filter by site, in the caller's transaction. */
export type SiteScoping = {
  scopeOf(tx: DbExecutor, actor: Actor): Promise<SiteScope>;
  visibleSite(tx: DbExecutor, actor: Actor, siteId: string): Promise<unknown>;
};

/**
 * The sites a list shows: the one named (a 404 outside the caller's sites), else the caller's
 * sites (null: every site).
 */
export async function sitesToList(
  tx: DbExecutor,
  actor: Actor,
  sites: SiteScoping,
  siteId: string | undefined,
): Promise<SiteScope> {
  if (!siteId) return sites.scopeOf(tx, actor);
  await sites.visibleSite(tx, actor, siteId);
  return [siteId];
}

export const inScope = (scope: SiteScope, siteId: string | null) =>
  scope === null || (siteId !== null && scope.includes(siteId));

export function createSitesService({ database, repository, audit }: SitesServiceDeps) {
  /**
   * The sites the actor works at: the assigned ones; a guard with none works at the default site;
   * other roles without assignments see every site.
   */
  async function scopeOf(tx: DbExecutor, actor: Actor): Promise<SiteScope> {
    const facts = await repository.scopeFacts(tx, actor.tenantId, actor.userId);
    const { assigned } = facts;
    if (assigned.length === 0 && actor.role !== 'security_guard') return null;
    // A guard with no assignment works at the default site (created the first time it is needed).
    const defaultSite =
      assigned.length > 0
        ? null
        : (facts.defaultSite ?? (await repository.defaultSite(tx, actor.tenantId)).site.id);
    const scope = defaultSite === null ? assigned : [defaultSite];
    // Every site of the tenant (most tenants have one): no limit, so lists and the dashboard
    // read the tenant-wide indexes and day counters.
    const every =
      facts.defaultSite === null && defaultSite !== null
        ? [...facts.every, defaultSite]
        : facts.every;
    return every.every((id) => scope.includes(id)) ? null : scope;
  }

  async function visibleSite(tx: DbExecutor, actor: Actor, siteId: string): Promise<SiteRow> {
    const site = await repository.findSite(tx, actor.tenantId, siteId);
    if (!site || !inScope(await scopeOf(tx, actor), site.id)) throw siteNotFound();
    return site;
  }

  /**
   * The site and gate a gate event (an entry, an exit, a person signed in) is recorded at: the
   * gate named (its site), the site named, else the actor's only site or the tenant's default.
   * A site or gate outside the actor's scope is not found.
   */
  async function placeOf(
    tx: DbExecutor,
    actor: Actor,
    { siteId, gateId }: { siteId?: string | null; gateId?: string | null },
  ): Promise<Place> {
    const scope = await scopeOf(tx, actor);
    if (gateId) {
      const gate = await repository.findGate(tx, actor.tenantId, gateId);
      if (!gate || !inScope(scope, gate.siteId)) throw gateNotFound();
      if (siteId && siteId !== gate.siteId)
        throw new AppError('INVALID', 'The gate is not at the site named.');
      return { siteId: gate.siteId, gateId: gate.id };
    }
    if (siteId) {
      const site = await repository.findSite(tx, actor.tenantId, siteId);
      if (!site || !inScope(scope, site.id)) throw siteNotFound();
      return { siteId: site.id, gateId: null };
    }
    const fallback = await repository.defaultSite(tx, actor.tenantId);
    if (scope === null || scope.includes(fallback.site.id))
      return { siteId: fallback.site.id, gateId: fallback.gate.id };
    if (scope.length === 1) return { siteId: scope[0]!, gateId: null };
    throw new AppError('INVALID', 'You work at several sites: name the site or gate.');
  }

  /**
   * The IANA zone a site keeps time in (alerts' quiet hours); a site not named or not found: the
   * tenant's default site's, else South African time.
   */
  async function timeZoneOf(tx: DbExecutor, tenantId: string, siteId: string | null) {
    const rows = await repository.listSites(tx, tenantId);
    const site =
      (siteId && rows.find((row) => row.id === siteId)) || rows.find((row) => row.isDefault);
    return site?.timezone ?? DEFAULT_SITE_TIME_ZONE;
  }

  /**
   * Issue 16: a site a booking system names (no user, so no scope): one of the tenant's active
   * sites, else 400. Another tenant's site is invisible under row-level security, so it is
   * refused the same way as an unknown one.
   */
  async function siteOfTenant(tx: DbExecutor, tenantId: string, siteId: string) {
    const site = await repository.findSite(tx, tenantId, siteId);
    if (!site) throw new AppError('INVALID', 'Unknown siteId: not a site of this organization.');
    if (!site.isActive) throw new AppError('INVALID', 'The site named by siteId is not active.');
    return site;
  }

  const nameTaken = (what: string) => new AppError('CONFLICT', `A ${what} with this name exists.`);

  return {
    scopeOf,
    placeOf,

    /** Scope and place in the caller's transaction (entry logs, visits). */
    inTransaction: {
      scopeOf,
      placeOf,
      visibleSite,
      timeZoneOf,
      existingSiteIds: repository.existingSiteIds,
      siteOfTenant,
    },

    listSites: (actor: Actor) =>
      database.withTenant(actor.tenantId, async (tx) => {
        // Every tenant has its default site from the first look at its sites.
        await repository.defaultSite(tx, actor.tenantId);
        const scope = await scopeOf(tx, actor);
        return repository.listSites(tx, actor.tenantId, scope ?? undefined);
      }),

    createSite: (actor: Actor, body: CreateSite, ip?: string) =>
      database.withTenant(actor.tenantId, async (tx) => {
        await repository.defaultSite(tx, actor.tenantId);
        try {
          const site = await tx.transaction((savepoint) =>
            repository.insertSite(savepoint, {
              tenantId: actor.tenantId,
              id: newId(),
              name: body.name,
              ...(body.timezone && { timezone: body.timezone }),
              ...(body.overstayMinutes && { overstayMinutes: body.overstayMinutes }),
            }),
          );
          await audit.record(tx, {
            tenantId: actor.tenantId,
            actorUserId: actor.userId,
            action: 'site.created',
            targetType: 'site',
            targetId: site.id,
            ip,
            details: { name: site.name, timezone: site.timezone },
          });
          return site;
        } catch (error) {
          if (isUniqueViolation(error, 'sites_tenant_name_unique')) throw nameTaken('site');
          throw error;
        }
      }),

    updateSite: (actor: Actor, siteId: string, body: UpdateSite, ip?: string) =>
      database.withTenant(actor.tenantId, async (tx) => {
        await visibleSite(tx, actor, siteId);
        let site: SiteRow | null;
        try {
          site = await tx.transaction((savepoint) =>
            repository.updateSite(savepoint, actor.tenantId, siteId, body),
          );
        } catch (error) {
          if (isUniqueViolation(error, 'sites_tenant_name_unique')) throw nameTaken('site');
          throw error;
        }
        if (!site) throw siteNotFound();
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'site.updated',
          targetType: 'site',
          targetId: site.id,
          ip,
          details: { fields: Object.keys(body) },
        });
        return site;
      }),

    listGates: (actor: Actor, siteId: string) =>
      database.withTenant(actor.tenantId, async (tx) => {
        await visibleSite(tx, actor, siteId);
        return repository.listGates(tx, actor.tenantId, siteId);
      }),

    createGate: (actor: Actor, siteId: string, body: CreateGate, ip?: string) =>
      database.withTenant(actor.tenantId, async (tx) => {
        await visibleSite(tx, actor, siteId);
        let gate: GateRow;
        try {
          gate = await tx.transaction((savepoint) =>
            repository.insertGate(savepoint, {
              tenantId: actor.tenantId,
              id: newId(),
              siteId,
              name: body.name,
              lanes: body.lanes ?? [],
            }),
          );
        } catch (error) {
          if (isUniqueViolation(error, 'gates_site_name_unique')) throw nameTaken('gate');
          throw error;
        }
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'gate.created',
          targetType: 'gate',
          targetId: gate.id,
          ip,
          details: { siteId, name: gate.name, lanes: gate.lanes.length },
        });
        return gate;
      }),

    updateGate: (actor: Actor, gateId: string, body: UpdateGate, ip?: string) =>
      database.withTenant(actor.tenantId, async (tx) => {
        const existing = await repository.findGate(tx, actor.tenantId, gateId);
        if (!existing || !inScope(await scopeOf(tx, actor), existing.siteId)) throw gateNotFound();
        let gate: GateRow | null;
        try {
          gate = await tx.transaction((savepoint) =>
            repository.updateGate(savepoint, actor.tenantId, gateId, body),
          );
        } catch (error) {
          if (isUniqueViolation(error, 'gates_site_name_unique')) throw nameTaken('gate');
          throw error;
        }
        if (!gate) throw gateNotFound();
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'gate.updated',
          targetType: 'gate',
          targetId: gate.id,
          ip,
          details: { fields: Object.keys(body) },
        });
        return gate;
      }),

    /**
     * A user's site assignments (POST/PATCH /api/users `siteIds`), in the caller's transaction:
     * every id must be a site of the tenant.
     */
    async assignUserSites(tx: DbExecutor, tenantId: string, userId: string, siteIds: string[]) {
      const unique = [...new Set(siteIds)];
      const known = await repository.existingSiteIds(tx, tenantId, unique);
      if (known.length !== unique.length) throw new AppError('INVALID', 'Unknown site in siteIds.');
      await repository.setUserSites(tx, tenantId, userId, unique);
    },

    siteIdsOfUsers: (tx: DbExecutor, tenantId: string, userIds: readonly string[]) =>
      repository.siteIdsOfUsers(tx, tenantId, userIds),
  };
}
