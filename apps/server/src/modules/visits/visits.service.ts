import type {
  IncomingExitPayloadSchema,
  RecordExitBodySchema,
  RecordPlateExitBodySchema,
  SignInPersonBodySchema,
} from '@boomgate/contracts/visits';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';

import type { AuditService } from '@/modules/audit';
import type { Actor } from '@/modules/sessions';
import type { SiteFacts } from '@/modules/site-node';
import {
  type Place,
  type SiteRow,
  type SiteScope,
  type SitesRepository,
  findGate,
  inScope,
} from '@/modules/sites';
import type { Clock } from '@/platform/clock';
import type { Database, DbExecutor } from '@/platform/db';
import { AppError } from '@/platform/errors';
import { newId } from '@/platform/ids';
import { readPageCursor } from '@/platform/page-cursor';

import { type TicketFacts, exitMismatches, splitSeals } from './exit-checks';
import type { VisitsRepository } from './visits.repository';
import type { VisitRow } from './visits.table';

type RecordExitBody = z.output<typeof RecordExitBodySchema>;
/** What an exit may carry, from a guard or a booking system. */
type ExitEvidence = Pick<
  RecordExitBody,
  'ticketNumber' | 'sealNumbers' | 'weighbridgeTicketId' | 'plateImageCaptureId'
>;
type SignInPersonBody = z.output<typeof SignInPersonBodySchema>;
type IncomingExitPayload = z.output<typeof IncomingExitPayloadSchema>;

export type VisitsServiceDeps = {
  database: Pick<Database, 'withTenant'>;
  /** Issue 28: on a site node (SITE_NODE=1), every exit and sign-in is also a fact for central. */
  siteFacts?: SiteFacts;
  repository: VisitsRepository;
  sites: {
    scopeOf(tx: DbExecutor, actor: Actor): Promise<SiteScope>;
    placeOf(
      tx: DbExecutor,
      actor: Actor,
      where: { siteId?: string | null; gateId?: string | null },
    ): Promise<Place>;
    visibleSite(tx: DbExecutor, actor: Actor, siteId: string): Promise<SiteRow>;
    /** Issue 16: the site a booking system names (one of the tenant's, active; else 400). */
    siteOfTenant(tx: DbExecutor, tenantId: string, siteId: string): Promise<SiteRow>;
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
  plateImageKey: string | null;
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
  siteFacts,
}: VisitsServiceDeps) {
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

  /**
   * The time of a gate event: when the server received its plate capture (cited by id), else
   * now. A device's own `capturedAt` is not used: its clock may be wrong, and turnaround and
   * overstays are decisions.
   */
  async function receivedAt(tx: DbExecutor, tenantId: string, captureId: string | undefined) {
    const now = clock.now();
    if (!captureId) return now;
    const at = await repository.captureReceivedAt(tx, tenantId, captureId);
    if (!at) throw new AppError('NOT_FOUND', 'Capture not found.');
    return at;
  }

  /**
   * Issue 18: the device's time of an exit it recorded offline (`recordedOffline` with
   * `capturedAt`), kept between the entry and now; undefined for an online exit.
   */
  function offlineTime(body: RecordExitBody, visit: VisitRow, now: Date): Date | undefined {
    const parsed = body && 'recordedOffline' in body && body.recordedOffline && body.capturedAt;
    if (!parsed) return undefined;
    const at = new Date(parsed);
    if (Number.isNaN(at.getTime())) return undefined;
    if (at > now) return now;
    return at < visit.enteredAt ? visit.enteredAt : at;
  }

  /** The exit's ticket and seals: the ones sent, else the outbound ticket cited by id. */
  async function exitTicket(tx: DbExecutor, tenantId: string, body: ExitEvidence) {
    const cited = body.weighbridgeTicketId
      ? await repository.ticket(tx, tenantId, body.weighbridgeTicketId)
      : null;
    if (body.weighbridgeTicketId && !cited)
      throw new AppError('NOT_FOUND', 'Weighbridge ticket not found.');
    const facts: TicketFacts = {
      ticketNumber: body.ticketNumber ?? cited?.ticket_number ?? null,
      sealNumbers: splitSeals(body.sealNumbers ?? cited?.seals),
      vehicleReg: cited?.vehicle_reg ?? null,
    };
    return facts;
  }

  /**
   * Closes the visit once: the exit's time from the server's receipt, its gate, who (a user, or
   * the booking system), and the exit's ticket and seals checked against the entry's.
   */
  async function close(
    tx: DbExecutor,
    tenantId: string,
    visit: VisitRow,
    exit: {
      body: ExitEvidence;
      gateId: string | null;
      source: 'guard' | 'webhook' | 'anpr';
      /** Who recorded it: a user, a named automatic lane (no user), or nobody (a webhook). */
      by: { userId: string | null; name: string } | null;
      ip?: string;
      webhookId?: string;
      /** Issue 18: the key of an exit the device may send again (queued offline). */
      idempotencyKey?: string;
      /**
       * Issue 18: an exit recorded while the device was offline, replayed later: its `capturedAt`
       * is the only evidence of when the vehicle left (the server received nothing then).
       */
      offlineAt?: Date;
    },
  ): Promise<VisitView> {
    // Issue 18: a replayed exit (same Idempotency-Key) answers with the exit it recorded.
    if (visit.exitedAt && exit.idempotencyKey && visit.exitIdempotencyKey === exit.idempotencyKey)
      return withOverstay(visit, await overstayLimits(tx, tenantId), clock.now());
    if (visit.exitedAt) throw alreadyExited();
    const now = clock.now();
    const exitedAt =
      exit.offlineAt && !exit.body.plateImageCaptureId
        ? exit.offlineAt
        : await receivedAt(tx, tenantId, exit.body.plateImageCaptureId);
    if (exitedAt < visit.enteredAt)
      throw new AppError('INVALID', 'The exit capture was received before the entry.');
    const ticket = await exitTicket(tx, tenantId, exit.body);
    const entryTicket = visit.entryLogId
      ? await repository.entryTicket(tx, tenantId, visit.entryLogId)
      : null;
    const mismatches = exitMismatches(
      entryTicket && {
        ticketNumber: entryTicket.ticket_number,
        sealNumbers: splitSeals(entryTicket.seals),
        vehicleReg: entryTicket.vehicle_reg,
      },
      ticket,
      visit.plateNumber,
    );
    const closed = await repository.close(tx, tenantId, visit.id, {
      exitedAt,
      exitRecordedAt: now,
      exitGateId: exit.gateId,
      exitSource: exit.source,
      exitedBy: exit.by?.userId ?? null,
      exitedByName: exit.by?.name ?? null,
      exitTicketNumber: ticket.ticketNumber,
      exitSealNumbers: ticket.sealNumbers.length > 0 ? [...ticket.sealNumbers] : null,
      exitMismatches: mismatches,
      exitIdempotencyKey: exit.idempotencyKey ?? null,
    });
    // Another request closed it between our read and this write (the same exit replayed at once
    // answers with that exit).
    if (!closed) {
      const winner = exit.idempotencyKey ? await repository.find(tx, tenantId, visit.id) : null;
      if (winner?.exitedAt && winner.exitIdempotencyKey === exit.idempotencyKey)
        return withOverstay(winner, await overstayLimits(tx, tenantId), now);
      throw alreadyExited();
    }
    await audit.record(tx, {
      tenantId,
      actorUserId: exit.by?.userId ?? null,
      action: 'visit.exited',
      targetType: 'visit',
      targetId: closed.id,
      ip: exit.ip,
      details: {
        source: exit.source,
        ...(closed.entryLogId && { entryLogId: closed.entryLogId }),
        ...(closed.exitGateId && { gateId: closed.exitGateId }),
        ...(exit.webhookId && { webhookId: exit.webhookId }),
        ...(mismatches.length > 0 && { mismatches: mismatches.map((m) => m.code) }),
      },
    });
    // Issue 28: a vehicle's exit is a fact for central (which closes the visit of that entry).
    if (closed.entryLogId)
      await siteFacts?.record(tx, {
        tenantId,
        gateId: closed.exitGateId,
        kind: 'exit',
        recordedAt: now,
        visitId: closed.id,
      });
    return withOverstay(closed, await overstayLimits(tx, tenantId), now);
  }

  /** A guard's (or admin's) exit: the gate must be at the visit's site and the caller's. */
  async function closeByActor(
    tx: DbExecutor,
    actor: Actor,
    visit: VisitRow,
    body: RecordExitBody,
    ip: string | undefined,
    idempotencyKey: string | undefined,
  ) {
    if (visit.exitedAt && !(idempotencyKey && visit.exitIdempotencyKey === idempotencyKey))
      throw alreadyExited();
    const place = body.gateId
      ? await sites.placeOf(tx, actor, { siteId: visit.siteId, gateId: body.gateId })
      : null;
    return close(tx, actor.tenantId, visit, {
      body,
      gateId: place?.gateId ?? null,
      source: 'guard',
      by: { userId: actor.userId, name: actor.fullName ?? actor.username },
      ip,
      idempotencyKey,
      offlineAt: offlineTime(body, visit, clock.now()),
    });
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
      /** Issue 18: the device's time of an entry it admitted offline (the only evidence then). */
      offlineAt?: Date,
    ): Promise<VisitRow | null> {
      if (!entry.entryGranted || !entry.siteId) return null;
      // When the server received the plate photo (the guard then took the other steps), else
      // when it logged the entry: never the device's clock.
      const photoAt = entry.plateImageKey
        ? await repository.imageReceivedAt(tx, actor.tenantId, entry.plateImageKey)
        : null;
      const serverAt = photoAt && photoAt < entry.timestamp ? photoAt : entry.timestamp;
      const enteredAt = offlineAt && offlineAt < serverAt ? offlineAt : serverAt;
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
        enteredAt,
        enteredBy: actor.userId,
        enteredByName: actor.fullName ?? actor.username,
        reEntry,
      });
    },

    /**
     * Issue 28: the visit of an entry a site node recorded (up-sync), in central's transaction
     * applying it. Its time is the site's (`enteredAt`): the fact happened there, not here.
     */
    async openForSiteEntry(
      tx: DbExecutor,
      tenantId: string,
      entry: EntryForVisit,
      by: { userId: string | null; name: string | null },
    ): Promise<VisitRow | null> {
      if (!entry.entryGranted || !entry.siteId) return null;
      if (await repository.findByEntry(tx, tenantId, entry.id)) return null;
      const reEntry = await repository.isPlateInside(tx, tenantId, entry.plateNumber);
      const driver = [entry.driverName, entry.driverSurname].filter(Boolean).join(' ');
      return repository.insert(tx, {
        tenantId,
        id: newId(),
        kind: 'vehicle',
        siteId: entry.siteId,
        gateId: entry.gateId,
        entryLogId: entry.id,
        plateNumber: entry.plateNumber,
        personName: driver || null,
        company: entry.transportName,
        enteredAt: entry.timestamp,
        enteredBy: by.userId,
        enteredByName: by.name,
        reEntry,
      });
    },

    /**
     * Issue 28: closes the visit of an entry with the exit a site node recorded (up-sync), as the
     * site recorded it. Null when central holds no open visit of that entry (not yet received,
     * a refused entry, or already closed); `siteEventId` keeps the fact's id beside the exit.
     */
    async closeForSiteExit(
      tx: DbExecutor,
      tenantId: string,
      entryLogId: string,
      exit: {
        exitedAt: Date;
        gateId: string | null;
        source: 'guard' | 'anpr' | 'webhook';
        by: { userId: string | null; name: string | null };
        ticketNumber: string | null;
        sealNumbers: string[] | null;
        mismatches: VisitRow['exitMismatches'];
        siteEventId: string;
      },
    ): Promise<VisitRow | null> {
      const visit = await repository.findByEntry(tx, tenantId, entryLogId);
      if (!visit || visit.exitedAt) return null;
      const closed = await repository.close(tx, tenantId, visit.id, {
        exitedAt: exit.exitedAt < visit.enteredAt ? visit.enteredAt : exit.exitedAt,
        exitRecordedAt: clock.now(),
        exitGateId: exit.gateId,
        exitSource: exit.source,
        exitedBy: exit.by.userId,
        exitedByName: exit.by.name,
        exitTicketNumber: exit.ticketNumber,
        exitSealNumbers: exit.sealNumbers,
        exitMismatches: exit.mismatches,
        exitIdempotencyKey: `site:${exit.siteEventId}`,
      });
      if (!closed) return null;
      await audit.record(tx, {
        tenantId,
        actorUserId: exit.by.userId,
        action: 'visit.exited',
        targetType: 'visit',
        targetId: closed.id,
        details: { source: exit.source, entryLogId, siteEventId: exit.siteEventId },
      });
      return closed;
    },

    /** POST /api/entry-logs/{id}/exit: 404 for an entry not known (to the caller), 409 once out. */
    recordEntryExit: (
      actor: Actor,
      entryLogId: string,
      body: RecordExitBody,
      ip?: string,
      idempotencyKey?: string,
    ) =>
      database.withTenant(actor.tenantId, async (tx) => {
        const visit = await visibleVisit(
          tx,
          actor,
          await repository.findByEntry(tx, actor.tenantId, entryLogId),
        );
        if (visit) return closeByActor(tx, actor, visit, body, ip, idempotencyKey);
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

    /** GET /api/entry-logs/{id}/visit: the entry's visit (its exit and checks), 404 if none. */
    entryVisit: (actor: Actor, entryLogId: string) =>
      database.withTenant(actor.tenantId, async (tx) => {
        const visit = await visibleVisit(
          tx,
          actor,
          await repository.findByEntry(tx, actor.tenantId, entryLogId),
        );
        if (!visit) throw new AppError('NOT_FOUND', 'No visit for this entry.');
        return withOverstay(visit, await overstayLimits(tx, actor.tenantId), clock.now());
      }),

    /**
     * A booking system's exit (signed webhook, already verified): the visit of our entry id, else
     * the plate's open visit. A redelivery of an exit the webhook already recorded answers the
     * visit again (`duplicate`); an exit recorded otherwise is a 409.
     */
    recordWebhookExit: (tenantId: string, webhookId: string, payload: IncomingExitPayload) =>
      database.withTenant(tenantId, async (tx) => {
        // Issue 16: the site named narrows the search to it (the plate may be at another site).
        if (payload.siteId) await sites.siteOfTenant(tx, tenantId, payload.siteId);
        const found = payload.entryLogId
          ? await repository.findByEntry(tx, tenantId, payload.entryLogId)
          : await repository.openVisitOfPlate(tx, tenantId, payload.plateNumber!, payload.siteId);
        const visit = found && (!payload.siteId || found.siteId === payload.siteId) ? found : null;
        if (!visit) throw new AppError('NOT_FOUND', 'No visit on site for this entry or plate.');
        if (visit.exitedAt) {
          if (visit.exitSource === 'webhook')
            return {
              visit: withOverstay(visit, await overstayLimits(tx, tenantId), clock.now()),
              duplicate: true,
            };
          throw alreadyExited();
        }
        let gateId: string | null = null;
        if (payload.gateId) {
          const gate = await findGate(tx, tenantId, payload.gateId);
          if (!gate) throw new AppError('NOT_FOUND', 'Gate not found.');
          if (gate.siteId !== visit.siteId)
            throw new AppError('INVALID', "The gate is not at the visit's site.");
          gateId = gate.id;
        }
        const closed = await close(tx, tenantId, visit, {
          body: { ticketNumber: payload.ticketNumber, sealNumbers: payload.sealNumbers },
          gateId,
          source: 'webhook',
          by: null,
          webhookId,
        });
        return { visit: closed, duplicate: false };
      }),

    /**
     * Whether the plate has an open visit (at `siteId` when named): an automatic lane in both
     * directions asks, about its own gate's site.
     */
    isPlateInside: (tenantId: string, plateNumber: string, siteId?: string) =>
      database.withTenant(tenantId, (tx) =>
        repository.isPlateInside(tx, tenantId, plateNumber, siteId),
      ),

    /**
     * Issue 17: an ANPR read on an automatic out-lane closes the plate's open visit (source
     * `anpr`, no guard), audited. Null when the plate is not on site (nothing to close).
     */
    recordPlateExit: (
      tenantId: string,
      {
        plateNumber,
        gateId,
        siteId,
        recordedByName,
        ip,
      }: {
        plateNumber: string;
        gateId: string;
        /** Issue 16: the lane's gate's site; a visit at another site is not this lane's to close. */
        siteId: string;
        capturedAt?: string;
        recordedByName: string;
        ip?: string;
      },
    ): Promise<VisitRow | null> =>
      database.withTenant(tenantId, async (tx) => {
        const visit = await repository.openVisitOfPlate(tx, tenantId, plateNumber, siteId);
        if (!visit) return null;
        // The server's time of the read (the camera's clock is not evidence), no ticket to check.
        try {
          return await close(tx, tenantId, visit, {
            body: {},
            gateId,
            source: 'anpr',
            by: { userId: null, name: recordedByName },
            ip,
          });
        } catch (error) {
          // A guard closed it at the same moment: nothing left to close.
          if (error instanceof AppError && error.code === 'CONFLICT') return null;
          throw error;
        }
      }),

    /**
     * POST /api/visits/plate-exit: a guard's plate scan at an out-lane closes the plate's open
     * visit at the gate's site (else the site named, else the guard's sites); 404 when the plate
     * is not on site there.
     */
    recordPlateExitByActor: (
      actor: Actor,
      body: z.output<typeof RecordPlateExitBodySchema>,
      ip?: string,
    ) =>
      database.withTenant(actor.tenantId, async (tx) => {
        let where: SiteScope;
        if (body.gateId) {
          where = [
            (await sites.placeOf(tx, actor, { siteId: body.siteId, gateId: body.gateId })).siteId,
          ];
        } else if (body.siteId) {
          where = [(await sites.visibleSite(tx, actor, body.siteId)).id];
        } else {
          where = await sites.scopeOf(tx, actor);
        }
        const visit = await repository.openVisitOfPlate(
          tx,
          actor.tenantId,
          body.plateNumber,
          where,
        );
        if (!visit) throw new AppError('NOT_FOUND', `Vehicle ${body.plateNumber} is not on site.`);
        return closeByActor(tx, actor, visit, body, ip, undefined);
      }),

    /** POST /api/visits/{id}/exit: a person on foot (or a vehicle, by its visit). */
    recordVisitExit: (
      actor: Actor,
      visitId: string,
      body: RecordExitBody,
      ip?: string,
      idempotencyKey?: string,
    ) =>
      database.withTenant(actor.tenantId, async (tx) => {
        const visit = await visibleVisit(
          tx,
          actor,
          await repository.find(tx, actor.tenantId, visitId),
        );
        if (!visit) throw visitNotFound();
        return closeByActor(tx, actor, visit, body, ip, idempotencyKey);
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
          enteredAt: now,
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
        const found: (VisitView & { overstayMinutes: number })[] = [];
        for (const site of await siteRows.listSites(tx, tenantId)) {
          const before = new Date(now.getTime() - site.overstayMinutes * 60_000);
          const rows = await repository.listOpenSince(tx, tenantId, site.id, before, limit);
          found.push(
            ...rows.map((row) => ({
              ...row,
              overstay: true,
              overstayMinutes: site.overstayMinutes,
            })),
          );
        }
        return found;
      }),
  };
}
