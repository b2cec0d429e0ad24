import type { RecordExitBodySchema, SignInPersonBodySchema } from '@boomgate/contracts/visits';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';

import type { AuditService } from '@/modules/audit';
import type { Actor } from '@/modules/sessions';
import {
  type Place,
  type SiteRow,
  type SiteScope,
  type SitesRepository,
  inScope,
} from '@/modules/sites';
import type { Clock } from '@/platform/clock';
import type { Database, DbExecutor } from '@/platform/db';
import { AppError } from '@/platform/errors';
import { newId } from '@/platform/ids';
import { readPageCursor } from '@/platform/page-cursor';

import type { VisitsRepository } from './visits.repository';
import type { VisitRow } from './visits.table';

type RecordExitBody = z.output<typeof RecordExitBodySchema>;
type SignInPersonBody = z.output<typeof SignInPersonBodySchema>;

/** A capture time may run ahead of the server's clock by this much (device clocks drift). */
const CLOCK_SKEW_MS = 5 * 60_000;

export type VisitsServiceDeps = {
  database: Pick<Database, 'withTenant'>;
  repository: VisitsRepository;
  sites: {
    scopeOf(tx: DbExecutor, actor: Actor): Promise<SiteScope>;
    placeOf(
      tx: DbExecutor,
      actor: Actor,
      where: { siteId?: string | null; gateId?: string | null },
    ): Promise<Place>;
    visibleSite(tx: DbExecutor, actor: Actor, siteId: string): Promise<SiteRow>;
  };
  siteRows: Pick<SitesRepository, 'listSites'>;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
};

export type VisitsService = ReturnType<typeof createVisitsService>;

/** The granted entry a vehicle visit opens from (entry logs hand it over in their transaction). */
export type EntryForVisit = {
  id: string;
  entryGranted: boolean;
  plateNumber: string;
  driverName: string | null;
  driverSurname: string | null;
  transportName: string | null;
  siteId: string | null;
  gateId: string | null;
  timestamp: Date;
};

/** A visit as shown: the row with whether it is (or was) longer than its site's limit. */
export type VisitView = VisitRow & { overstay: boolean };

const entryNotFound = () => new AppError('NOT_FOUND', 'Entry not found.');
const visitNotFound = () => new AppError('NOT_FOUND', 'Visit not found.');
const alreadyExited = () => new AppError('CONFLICT', 'This visit has already exited.');

export function createVisitsService({
  database,
  repository,
  sites,
  siteRows,
  audit,
  clock,
}: VisitsServiceDeps) {
  function captureTime(capturedAt: string | undefined, now: Date): Date {
    if (capturedAt === undefined) return now;
    const at = new Date(capturedAt);
    if (at.getTime() > now.getTime() + CLOCK_SKEW_MS)
      throw new AppError('INVALID', 'The capture time is in the future.');
    return at;
  }

  async function overstayLimits(tx: DbExecutor, tenantId: string) {
    const rows = await siteRows.listSites(tx, tenantId);
    return new Map(rows.map((site) => [site.id, site.overstayMinutes]));
  }

  function withOverstay(row: VisitRow, limits: Map<string, number>, now: Date): VisitView {
    const limit = limits.get(row.siteId);
    const until = row.exitedAt ?? now;
    const minutes = (until.getTime() - row.enteredAt.getTime()) / 60_000;
    return { ...row, overstay: limit !== undefined && minutes > limit };
  }

  async function close(
    tx: DbExecutor,
    actor: Actor,
    visit: VisitRow,
    body: RecordExitBody,
    ip: string | undefined,
  ): Promise<VisitView> {
    if (visit.exitedAt) throw alreadyExited();
    const now = clock.now();
    const exitedAt = captureTime(body.capturedAt, now);
    if (exitedAt < visit.enteredAt)
      throw new AppError('INVALID', 'The exit cannot be before the entry.');
    // The exit gate must be at the visit's site (and the caller's).
    const place = body.gateId
      ? await sites.placeOf(tx, actor, { siteId: visit.siteId, gateId: body.gateId })
      : null;
    const closed = await repository.close(tx, actor.tenantId, visit.id, {
      exitedAt,
      exitRecordedAt: now,
      exitGateId: place?.gateId ?? null,
      exitSource: 'guard',
      exitedBy: actor.userId,
      exitedByName: actor.fullName ?? actor.username,
      exitTicketNumber: body.ticketNumber ?? null,
      exitSealNumbers: body.sealNumbers ?? null,
    });
    // Another request closed it between our read and this write.
    if (!closed) throw alreadyExited();
    await audit.record(tx, {
      tenantId: actor.tenantId,
      actorUserId: actor.userId,
      action: 'visit.exited',
      targetType: 'visit',
      targetId: closed.id,
      ip,
      details: {
        ...(closed.entryLogId && { entryLogId: closed.entryLogId }),
        ...(closed.exitGateId && { gateId: closed.exitGateId }),
      },
    });
    return withOverstay(closed, await overstayLimits(tx, actor.tenantId), now);
  }

  /** The scope check of a visit: outside the caller's sites it does not exist. */
  async function visibleVisit(tx: DbExecutor, actor: Actor, visit: VisitRow | null) {
    if (!visit || !inScope(await sites.scopeOf(tx, actor), visit.siteId)) return null;
    return visit;
  }

  return {
    onSiteCountSql: repository.openCountSql,

    /**
     * Opens the vehicle's visit for a granted entry, in the entry's transaction. A plate that
     * is still inside (its exit never recorded) is flagged as a re-entry.
     */
    async openForEntry(
      tx: DbExecutor,
      actor: Actor,
      entry: EntryForVisit,
      capturedAt?: Date,
    ): Promise<VisitRow | null> {
      if (!entry.entryGranted || !entry.siteId) return null;
      const reEntry = await repository.isPlateInside(tx, actor.tenantId, entry.plateNumber);
      const driver = [entry.driverName, entry.driverSurname].filter(Boolean).join(' ');
      return repository.insert(tx, {
        tenantId: actor.tenantId,
        id: newId(),
        kind: 'vehicle',
        siteId: entry.siteId,
        gateId: entry.gateId,
        entryLogId: entry.id,
        plateNumber: entry.plateNumber,
        personName: driver || null,
        company: entry.transportName,
        enteredAt: capturedAt ?? entry.timestamp,
        enteredBy: actor.userId,
        enteredByName: actor.fullName ?? actor.username,
        reEntry,
      });
    },

    /** POST /api/entry-logs/{id}/exit: 404 for an entry not known (to the caller), 409 once out. */
    recordEntryExit: (actor: Actor, entryLogId: string, body: RecordExitBody, ip?: string) =>
      database.withTenant(actor.tenantId, async (tx) => {
        const visit = await visibleVisit(
          tx,
          actor,
          await repository.findByEntry(tx, actor.tenantId, entryLogId),
        );
        if (visit) return close(tx, actor, visit, body, ip);
        // No visit: an entry of the caller's sites that never came in (refused, or logged before
        // visits were recorded) is a conflict; anything else is not found.
        const result = await tx.execute<{ site_id: string | null; entry_granted: boolean }>(
          sql`select site_id, entry_granted from entry_logs where tenant_id = ${actor.tenantId}::uuid and id = ${entryLogId}::uuid`,
        );
        const entry = result.rows[0];
        if (!entry || !inScope(await sites.scopeOf(tx, actor), entry.site_id))
          throw entryNotFound();
        throw new AppError(
          'CONFLICT',
          entry.entry_granted
            ? 'This entry has no visit on site to close.'
            : 'This entry was refused: the vehicle never came in.',
        );
      }),

    /** Whether the plate has an open visit (an automatic lane in both directions asks). */
    isPlateInside: (tenantId: string, plateNumber: string) =>
      database.withTenant(tenantId, (tx) => repository.isPlateInside(tx, tenantId, plateNumber)),

    /**
     * Issue 17: an ANPR read on an automatic out-lane closes the plate's open visit (source
     * `anpr`, no guard), audited. Null when the plate is not on site (nothing to close).
     */
    recordPlateExit: (
      tenantId: string,
      {
        plateNumber,
        gateId,
        capturedAt,
        recordedByName,
        ip,
      }: {
        plateNumber: string;
        gateId: string;
        capturedAt?: string;
        recordedByName: string;
        ip?: string;
      },
    ): Promise<VisitRow | null> =>
      database.withTenant(tenantId, async (tx) => {
        const visit = await repository.findOpenByPlate(tx, tenantId, plateNumber);
        if (!visit) return null;
        const now = clock.now();
        const exitedAt = captureTime(capturedAt, now);
        const closed = await repository.close(tx, tenantId, visit.id, {
          // A camera clock behind the entry's time must not make the visit end before it began.
          exitedAt: exitedAt < visit.enteredAt ? now : exitedAt,
          exitRecordedAt: now,
          exitGateId: gateId,
          exitSource: 'anpr',
          exitedBy: null,
          exitedByName: recordedByName,
          exitTicketNumber: null,
          exitSealNumbers: null,
        });
        if (!closed) return null; // a guard closed it at the same moment
        await audit.record(tx, {
          tenantId,
          actorUserId: null,
          action: 'visit.exited',
          targetType: 'visit',
          targetId: closed.id,
          ip,
          details: {
            source: 'anpr',
            gateId,
            ...(closed.entryLogId && { entryLogId: closed.entryLogId }),
          },
        });
        return closed;
      }),

    /** POST /api/visits/{id}/exit: a person on foot (or a vehicle, by its visit). */
    recordVisitExit: (actor: Actor, visitId: string, body: RecordExitBody, ip?: string) =>
      database.withTenant(actor.tenantId, async (tx) => {
        const visit = await visibleVisit(
          tx,
          actor,
          await repository.find(tx, actor.tenantId, visitId),
        );
        if (!visit) throw visitNotFound();
        return close(tx, actor, visit, body, ip);
      }),

    /** A visitor or contractor on foot signed in at a gate, so the roll-call counts them. */
    signInPerson: (actor: Actor, body: SignInPersonBody, ip?: string) =>
      database.withTenant(actor.tenantId, async (tx) => {
        const now = clock.now();
        const place = await sites.placeOf(tx, actor, body);
        const reEntry = body.idNumber
          ? await repository.isPersonInside(tx, actor.tenantId, body.idNumber)
          : false;
        const visit = await repository.insert(tx, {
          tenantId: actor.tenantId,
          id: newId(),
          kind: 'person',
          siteId: place.siteId,
          gateId: place.gateId,
          personName: body.name,
          personIdNumber: body.idNumber ?? null,
          company: body.company ?? null,
          enteredAt: captureTime(body.capturedAt, now),
          enteredBy: actor.userId,
          enteredByName: actor.fullName ?? actor.username,
          reEntry,
        });
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'visit.person_signed_in',
          targetType: 'visit',
          targetId: visit.id,
          ip,
          details: { siteId: visit.siteId, ...(reEntry && { reEntry }) },
        });
        return withOverstay(visit, await overstayLimits(tx, actor.tenantId), now);
      }),

    /** GET /api/on-site: who is inside the caller's sites (or the one named), newest first. */
    onSite: (actor: Actor, query: { siteId?: string; limit: number; cursor?: string }) =>
      database.withTenant(actor.tenantId, async (tx) => {
        const after = readPageCursor(query.cursor);
        let siteIds: SiteScope;
        if (query.siteId) {
          await sites.visibleSite(tx, actor, query.siteId);
          siteIds = [query.siteId];
        } else {
          siteIds = await sites.scopeOf(tx, actor);
        }
        const rows = await repository.listOpen(tx, actor.tenantId, siteIds, query.limit + 1, after);
        const page = rows.slice(0, query.limit);
        const last = page.at(-1);
        const limits = await overstayLimits(tx, actor.tenantId);
        const now = clock.now();
        return {
          rows: page.map((row) => withOverstay(row, limits, now)),
          next:
            rows.length > query.limit && last ? { timestamp: last.enteredAt, id: last.id } : null,
        };
      }),

    /**
     * The hook for alerts (issue 16 leaves alerting to its own issue): the open visits of a
     * tenant that are over their site's overstay limit now, oldest first, up to `limit` per site.
     */
    overstays: (tenantId: string, limit = 100) =>
      database.withTenant(tenantId, async (tx) => {
        const now = clock.now();
        const found: VisitView[] = [];
        for (const site of await siteRows.listSites(tx, tenantId)) {
          const before = new Date(now.getTime() - site.overstayMinutes * 60_000);
          const rows = await repository.listOpenSince(tx, tenantId, site.id, before, limit);
          found.push(...rows.map((row) => ({ ...row, overstay: true })));
        }
        return found;
      }),
  };
}
