import type { AnprLaneReadResult, AnprLaneReadBodySchema } from '@boomgate/contracts/anpr-lanes';
import { GrantEntryBodySchema } from '@boomgate/contracts/entry-logs';
import type { z } from 'zod';

import type { ApprovedVehiclesService } from '@/modules/approved-vehicles';
import type { AuditService } from '@/modules/audit';
import type { BarriersService } from '@/modules/barriers';
import type { EntryLogsService } from '@/modules/entry-logs';
import type { Actor } from '@/modules/sessions';
import type { SitesRepository } from '@/modules/sites';
import type { VisitsService } from '@/modules/visits';
import type { WatchlistService } from '@/modules/watchlist';
import type { Clock } from '@/platform/clock';
import type { Database } from '@/platform/db';
import { AppError } from '@/platform/errors';

type ReadBody = z.output<typeof AnprLaneReadBodySchema>;

export type AnprLanesServiceDeps = {
  database: Pick<Database, 'withTenant'>;
  sites: Pick<SitesRepository, 'findGateRow'>;
  barriers: Pick<BarriersService, 'authenticateAgent' | 'openForEntry'>;
  entryLogs: Pick<EntryLogsService, 'grantEntry'>;
  vehicles: Pick<ApprovedVehiclesService, 'findByPlate'>;
  visits: Pick<VisitsService, 'recordPlateExit' | 'isPlateInside'>;
  /** Issue 21: a watched plate is stopped at the lane even when its entry needs a guard. */
  watchlist: Pick<WatchlistService, 'screen'>;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
};

export type AnprLanesService = ReturnType<typeof createAnprLanesService>;

/**
 * A camera reads the plate of a truck waiting at the boom many times a second: reads of one plate
 * on one lane within this window get the first read's answer (one entry, one pulse).
 */
const REPEAT_READ_WINDOW_MS = 30_000;

/**
 * The lane itself records the entry: no person decided. It acts with a tenant-wide scope (the
 * gate already fixes the site); its id is the gate's, so every entry it logs traces to its gate.
 */
function laneActor(tenantId: string, gateId: string, lane: string): Actor {
  return {
    tenantId,
    tenantName: '',
    userId: gateId,
    username: 'anpr-lane',
    fullName: `ANPR lane ${lane} (automatic)`,
    email: null,
    role: 'tenant_admin',
    mustChangePassword: false,
    sessionCreatedAt: new Date(0),
    mfaPending: null,
    language: null,
    sessionTokenHash: '',
  };
}

export function createAnprLanesService({
  database,
  sites,
  barriers,
  entryLogs,
  vehicles,
  visits,
  watchlist,
  audit,
  clock,
}: AnprLanesServiceDeps) {
  const recent = new Map<string, { at: number; result: Promise<AnprLaneReadResult> }>();

  async function decide(
    agent: { tenantId: string; gateId: string },
    body: ReadBody,
    ip: string | undefined,
  ): Promise<AnprLaneReadResult> {
    const { tenantId, gateId } = agent;
    const gate = await database.withTenant(tenantId, (tx) =>
      sites.findGateRow(tx, tenantId, gateId),
    );
    if (!gate || !gate.isActive) throw new AppError('NOT_FOUND', 'Gate not found.');
    const lane = gate.lanes.find((l) => l.name.toLowerCase() === body.lane.toLowerCase());
    if (!lane) throw new AppError('NOT_FOUND', 'No lane with this name at the gate.');
    if (!lane.automatic)
      throw new AppError('CONFLICT', 'This lane is not automatic: a guard decides its entries.');

    // A lane both ways: a plate on this gate's site is leaving, any other is arriving.
    const direction =
      lane.direction === 'both'
        ? (await visits.isPlateInside(tenantId, body.plateNumber, gate.siteId))
          ? 'out'
          : 'in'
        : lane.direction;
    const base = {
      plateNumber: body.plateNumber,
      gateId,
      lane: lane.name,
      direction,
      entryId: null,
      visitId: null,
      refusalReason: null,
      barrier: null,
    } satisfies Omit<AnprLaneReadResult, 'decision'>;
    const actor = laneActor(tenantId, gateId, lane.name);

    if (direction === 'out') {
      const visit = await visits.recordPlateExit(tenantId, {
        plateNumber: body.plateNumber,
        gateId,
        siteId: gate.siteId,
        capturedAt: body.capturedAt,
        recordedByName: actor.fullName!,
        ip,
      });
      if (!visit) {
        await auditRead(tenantId, gateId, 'no_visit', body, ip);
        return { ...base, decision: 'no_visit' };
      }
      const barrier = await barriers.openForEntry({
        tenantId,
        actorUserId: null,
        entryId: visit.id,
        gateId,
        ip,
        reason: 'exit_recorded',
      });
      return { ...base, decision: 'exit_recorded', visitId: visit.id, barrier };
    }

    // An approved vehicle whose driver has a photo on file needs the face step: a guard's.
    // Issue 21: unless the watchlist blocks its plate (or its company): then the lane refuses it
    // here, through grant-entry below, logged with the watchlist's reason and its hits, instead
    // of leaving a watched truck waiting at the boom for a guard.
    const { vehicle, isBlocked } = await database.withTenant(tenantId, async (tx) => {
      const found = await vehicles.findByPlate(tx, tenantId, body.plateNumber);
      if (!found || (found.driverPhotoKey === null && found.driverFaceDescriptor === null))
        return { vehicle: found, isBlocked: false };
      const screening = await watchlist.screen(tx, tenantId, {
        plateNumbers: [body.plateNumber],
        company: found.company ?? null,
      });
      return {
        vehicle: found,
        isBlocked: screening.outcomes.some((outcome) => outcome.verdict === 'block'),
      };
    });
    if (
      vehicle &&
      (vehicle.driverPhotoKey !== null || vehicle.driverFaceDescriptor !== null) &&
      !isBlocked
    ) {
      await auditRead(tenantId, gateId, 'guard_required', body, ip);
      return { ...base, decision: 'guard_required' };
    }
    // The automated gate's flow (category contracted, spec §4): the server decides from the
    // register and the rules, logs the entry like any other and opens the barrier on a grant.
    const { entry, barrier } = await entryLogs.grantEntry(
      actor,
      // Through the route's own schema: every field a guard's screen would send, defaulted.
      GrantEntryBodySchema.parse({
        category: 'contracted',
        plateNumber: body.plateNumber,
        gateId,
        ...(body.capturedAt && { capturedAt: body.capturedAt }),
      }),
      // The lane camera's read is the entry's plate read (issue 15: never a client's claim).
      { ip, laneRead: body.plateNumber },
    );
    return {
      ...base,
      decision: entry.entryGranted ? 'granted' : 'refused',
      entryId: entry.id,
      refusalReason: entry.refusalReason,
      barrier: barrier ?? null,
    };
  }

  /** A read that changed nothing is still on record: who (which lane) saw what, and why not. */
  async function auditRead(
    tenantId: string,
    gateId: string,
    decision: 'no_visit' | 'guard_required',
    body: ReadBody,
    ip: string | undefined,
  ) {
    await database.withTenant(tenantId, (tx) =>
      audit.record(tx, {
        tenantId,
        actorUserId: null,
        action: 'anpr.lane-read',
        targetType: 'gate',
        targetId: gateId,
        ip,
        details: {
          plateNumber: body.plateNumber,
          lane: body.lane,
          decision,
          ...(body.confidence !== undefined && { confidence: body.confidence }),
        },
      }),
    );
  }

  return {
    /** `POST /api/anpr/reads`: the agent's token names the tenant and gate; null: unknown token. */
    async read(token: string, body: ReadBody, ip?: string): Promise<AnprLaneReadResult | null> {
      const agent = await barriers.authenticateAgent(token);
      if (!agent) return null;
      const key = `${agent.tenantId}/${agent.gateId}/${body.lane.toLowerCase()}/${body.plateNumber}`;
      const now = clock.now().getTime();
      for (const [k, v] of recent) if (now - v.at > REPEAT_READ_WINDOW_MS) recent.delete(k);
      const earlier = recent.get(key);
      if (earlier) return earlier.result;
      const result = decide(agent, body, ip);
      recent.set(key, { at: now, result });
      // A read that failed (bad lane, a database error) must not answer the next one.
      result.catch(() => recent.delete(key));
      return result;
    },
  };
}
