import type {
  CreateWatchlistEntrySchema,
  UpdateWatchlistEntrySchema,
  WatchlistEntry,
} from '@boomgate/contracts/watchlist';
import { watchlistMatchKey } from '@boomgate/contracts/watchlist';
import type { z } from 'zod';

import type { AuditService } from '@/modules/audit';
import type { Actor } from '@/modules/sessions';
import type { Clock } from '@/platform/clock';
import type { Database, DbExecutor } from '@/platform/db';
import { AppError } from '@/platform/errors';
import { newId } from '@/platform/ids';
import { maskIdentifier } from '@/platform/personal-data';

import type { WatchlistRepository } from './watchlist.repository';
import type { WatchlistRow } from './watchlist.table';
import {
  type WatchlistScreening,
  type WatchlistSubject,
  screenWatchlist,
  subjectKeys,
} from './watchlist-screening';

/** Issue 22: the alerts module's hook, called once per hit in the hit's own transaction. */
export type WatchlistAlerts = {
  raiseAlert(
    tx: DbExecutor,
    input: {
      tenantId: string;
      kind: 'watchlist_hit';
      severity: 'critical' | 'warning';
      message: string;
      entryId: string | null;
      plateNumber: string | null;
      dedupeKey: string;
    },
  ): Promise<unknown>;
};

export type WatchlistServiceDeps = {
  database: Pick<Database, 'withTenant'>;
  repository: WatchlistRepository;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  alerts?: WatchlistAlerts;
};

const HIT_KIND_LABEL = {
  plate: 'Plate',
  idNumber: 'Driver ID number',
  company: 'Company',
} as const;

const HIT_PLACE = {
  'grant-entry': 'the gate',
  'incoming-feed': 'the incoming feed',
  'pre-registration': 'pre-registration',
} as const;

export type WatchlistService = ReturnType<typeof createWatchlistService>;

/** Audit action of every hit: the hook the alerts module subscribes to (details: WatchlistHit). */
export const WATCHLIST_HIT_ACTION = 'watchlist.hit';

const notFound = () => new AppError('NOT_FOUND', 'Watchlist entry not found');

/**
 * The audit trail outlives a data subject's erasure (POPIA s24), so it never holds a driver's ID
 * number in full: an `idNumber` value is kept masked, as a guard sees it.
 */
const auditedValue = (kind: WatchlistRow['kind'], value: string) =>
  kind === 'idNumber' ? maskIdentifier(value) : value;

/** What the audit keeps of an entry: no more than the list shows. */
const auditedFields = (row: WatchlistRow) => ({
  kind: row.kind,
  value: auditedValue(row.kind, row.value),
  reason: row.reason,
  severity: row.severity,
  covert: row.covert,
  expiresAt: row.expiresAt?.toISOString() ?? null,
});

export function createWatchlistService({
  database,
  repository,
  audit,
  clock,
  alerts,
}: WatchlistServiceDeps) {
  const toEntry = (row: WatchlistRow): WatchlistEntry => ({
    id: row.id,
    kind: row.kind,
    value: row.value,
    reason: row.reason,
    severity: row.severity,
    covert: row.covert,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    isActive: row.expiresAt === null || row.expiresAt.getTime() > clock.now().getTime(),
    createdAt: row.createdAt.toISOString(),
    createdBy: { id: row.createdBy, name: row.createdByName },
    updatedAt: row.updatedAt.toISOString(),
  });

  return {
    list: (actor: Actor) =>
      database.withTenant(actor.tenantId, async (tx) =>
        (await repository.list(tx, actor.tenantId)).map(toEntry),
      ),

    create: (actor: Actor, body: z.output<typeof CreateWatchlistEntrySchema>, ip?: string) =>
      database.withTenant(actor.tenantId, async (tx) => {
        const now = clock.now();
        const row = await repository.insert(tx, {
          tenantId: actor.tenantId,
          id: newId(),
          kind: body.kind,
          value: body.value,
          matchKey: watchlistMatchKey(body.kind, body.value),
          reason: body.reason,
          severity: body.severity,
          covert: body.covert,
          expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
          createdAt: now,
          createdBy: actor.userId,
          createdByName: actor.fullName ?? actor.username,
          updatedAt: now,
        });
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'watchlist.created',
          targetType: 'watchlist_entry',
          targetId: row.id,
          ip,
          details: auditedFields(row),
        });
        return toEntry(row);
      }),

    update: (
      actor: Actor,
      id: string,
      body: z.output<typeof UpdateWatchlistEntrySchema>,
      ip?: string,
    ) =>
      database.withTenant(actor.tenantId, async (tx) => {
        const before = await repository.find(tx, actor.tenantId, id);
        if (!before) throw notFound();
        const value = body.value ?? before.value;
        const row = await repository.update(tx, actor.tenantId, id, before.kind, {
          value,
          matchKey: watchlistMatchKey(before.kind, value),
          ...(body.reason !== undefined ? { reason: body.reason } : {}),
          ...(body.severity !== undefined ? { severity: body.severity } : {}),
          ...(body.covert !== undefined ? { covert: body.covert } : {}),
          ...(body.expiresAt !== undefined
            ? { expiresAt: body.expiresAt === null ? null : new Date(body.expiresAt) }
            : {}),
          updatedAt: clock.now(),
        });
        if (!row) throw notFound();
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'watchlist.updated',
          targetType: 'watchlist_entry',
          targetId: row.id,
          ip,
          details: { before: auditedFields(before), after: auditedFields(row) },
        });
        return toEntry(row);
      }),

    remove: (actor: Actor, id: string, ip?: string) =>
      database.withTenant(actor.tenantId, async (tx) => {
        const row = await repository.delete(tx, actor.tenantId, id);
        if (!row) throw notFound();
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'watchlist.deleted',
          targetType: 'watchlist_entry',
          targetId: row.id,
          ip,
          details: auditedFields(row),
        });
      }),

    /**
     * Screens a subject at a gate path inside the caller's tenant transaction (RLS: only the
     * tenant's own list can match). Returns the outcomes for the decision and every hit; the
     * caller records the hits with `recordHits` once it knows what they were about.
     */
    async screen(
      tx: DbExecutor,
      tenantId: string,
      subject: WatchlistSubject,
    ): Promise<WatchlistScreening> {
      const candidates = await repository.candidates(tx, tenantId, subjectKeys(subject));
      return screenWatchlist(subject, candidates, clock.now());
    },

    /** One `watchlist.hit` audit event per hit: what the alerts module subscribes to. */
    async recordHits(
      tx: DbExecutor,
      actor: Pick<Actor, 'tenantId' | 'userId'>,
      screening: WatchlistScreening,
      about: {
        /** Issue 21: 'pre-registration' is a refused approved vehicle (form or bulk import). */
        gatePath: 'grant-entry' | 'incoming-feed' | 'pre-registration';
        targetType: string;
        targetId: string;
        decision: 'refused' | 'granted';
        /** Issue 23: the entry's site, so the hits export can be cut per site. */
        siteId?: string | null;
        ip?: string;
      },
    ) {
      for (const hit of screening.hits) {
        // The people told are office staff (who may read the watchlist); an ID number stays masked.
        const shown = hit.kind === 'idNumber' ? maskIdentifier(hit.value) : hit.value;
        await alerts?.raiseAlert(tx, {
          tenantId: actor.tenantId,
          kind: 'watchlist_hit',
          severity: hit.severity === 'block' ? 'critical' : 'warning',
          message: `Watchlist ${hit.severity}${hit.covert ? ' (covert)' : ''} at ${
            HIT_PLACE[about.gatePath]
          }: ${HIT_KIND_LABEL[hit.kind]} ${shown ?? ''} — ${hit.reason}`,
          entryId: about.targetType === 'entry_log' ? about.targetId : null,
          plateNumber: hit.kind === 'plate' ? hit.value : null,
          dedupeKey: `watchlist_hit:${about.targetId}:${hit.watchlistEntryId}`,
        });
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: WATCHLIST_HIT_ACTION,
          targetType: 'watchlist_entry',
          targetId: hit.watchlistEntryId,
          ip: about.ip,
          details: {
            ...hit,
            value: auditedValue(hit.kind, hit.value),
            gatePath: about.gatePath,
            decision: about.decision,
            subjectType: about.targetType,
            subjectId: about.targetId,
            ...(about.siteId ? { siteId: about.siteId } : {}),
          },
        });
      }
    },
  };
}
