import type {
  CreateApprovedVehicleBody,
  Trailer,
  UpdateTrailersBody,
  VerifyVehicle,
} from '@boomgate/contracts/approved-vehicles';
import { normalisePlate } from '@boomgate/contracts/plates';
import { COVERT_BLOCK_MESSAGE, watchlistMatchKey } from '@boomgate/contracts/watchlist';

import type { InductionValidity } from '@boomgate/contracts/induction';

import type { AuditService } from '@/modules/audit';
import type { CapturesService } from '@/modules/captures';
import type { DriversService } from '@/modules/drivers';
import type { ImagesService } from '@/modules/images';
import type { InductionService } from '@/modules/induction';
import type { Actor } from '@/modules/sessions';
import type { SettingsService } from '@/modules/settings';
import type { UserVisionEngine } from '@/modules/vision';
import type { WatchlistHit, WatchlistService } from '@/modules/watchlist';
import { addMonths, siteDay } from '@/platform/calendar';
import { drainInBatches } from '@/platform/batches';
import type { Clock } from '@/platform/clock';
import type { SecretBox } from '@/platform/crypto';
import type { Database, DbExecutor } from '@/platform/db';
import { AppError, isUniqueViolation } from '@/platform/errors';
import { newId } from '@/platform/ids';
import { decodeImagePayload } from '@/platform/images';

import { approvalStatus } from './approval';
import type { ApprovedVehiclesRepository } from './approved-vehicles.repository';
import type { ApprovedVehicleRow } from './approved-vehicles.table';

/** The privacy notice drivers are shown before their photo is taken; bump when its text changes. */
export const BIOMETRIC_NOTICE_VERSION = 'driver-photo-notice-2026-11';

/** Descriptors from another model or pipeline are not comparable: re-enrol when this changes. */
export const FACE_MODEL_VERSION = 'face-api-128-aligned-v1';

export type ApprovedVehiclesServiceDeps = {
  database: Pick<Database, 'withTenant'>;
  repository: ApprovedVehiclesRepository;
  images: Pick<ImagesService, 'storeOptional' | 'deleteImage'>;
  audit: Pick<AuditService, 'record'>;
  captures: Pick<CapturesService, 'readCapture' | 'resolveImage' | 'release'>;
  clock: Clock;
  faces: { forUser(userId: string): Pick<ReturnType<UserVisionEngine['forUser']>, 'embedFace'> };
  /** The plate lookup's induction status: the linked driver's ID number, then its validity. */
  drivers: Pick<DriversService, 'findIdNumber'>;
  induction: Pick<InductionService, 'validityWithin'>;
  secretBox: SecretBox;
  /** How long a driver photo and its face descriptor are kept after enrolment (POPIA). */
  biometricRetentionDays: number;
  /** Separation of duties and the longest approval a guard may register (tenant settings). */
  settings: Pick<SettingsService, 'settingsOf'>;
  /** Issue 21: a plate on a `block` entry of the tenant's watchlist is never pre-registered. */
  watchlist: Pick<WatchlistService, 'screen' | 'recordHits'>;
};

/**
 * Issue 21: the plates (a vehicle's and its trailers') that the tenant's watchlist blocks, each
 * with the sentence a person is shown. A covert entry shows only "Manual check required", never
 * its reason (nor that it is a watchlist). Keyed by the plate's watchlist match key.
 */
export type WatchlistBlocks = {
  blocked: Map<string, string>;
  hits: WatchlistHit[];
};

function blocksOf(hits: readonly WatchlistHit[]): WatchlistBlocks {
  const blocking = hits.filter((hit) => hit.kind === 'plate' && hit.severity === 'block');
  const blocked = new Map<string, string>();
  // An overt entry's reason first: a covert entry on the same plate then reveals nothing more.
  // The plate is named as normalised (the match key), never as the watchlist entry spells it.
  for (const hit of [...blocking].sort((a, b) => Number(a.covert) - Number(b.covert))) {
    const key = watchlistMatchKey('plate', hit.value);
    if (blocked.has(key)) continue;
    blocked.set(
      key,
      hit.covert
        ? `${COVERT_BLOCK_MESSAGE}: ${key} cannot be pre-registered.`
        : `${key} is on the watchlist and cannot be pre-registered: ${hit.reason}`,
    );
  }
  return { blocked, hits: blocking };
}

/** Issue 21: 422 when a trailer carries the truck-tractor's own plate. */
function assertOwnTrailerPlates(plateNumber: string, trailers: readonly { plateNumber: string }[]) {
  if (trailers.some((trailer) => trailer.plateNumber === plateNumber)) {
    throw new AppError(
      'UNPROCESSABLE',
      `A trailer cannot carry the vehicle's own plate (${plateNumber}).`,
    );
  }
}

export type ApprovedVehiclesService = ReturnType<typeof createApprovedVehiclesService>;

/** Approvals purged per lookup. */
const PURGE_BATCH = 500;
const notFound = () => new AppError('NOT_FOUND', 'Vehicle not found.');
const nothingPending = () =>
  new AppError('CONFLICT', 'This vehicle has no change waiting for approval.');

/** Security guards work the gate; their approvals are checked by back_office or an admin. */
const isGuard = (actor: Actor) => actor.role === 'security_guard';

export function createApprovedVehiclesService({
  database,
  repository,
  images,
  audit,
  captures,
  clock,
  faces,
  drivers,
  induction,
  secretBox,
  biometricRetentionDays,
  settings,
  watchlist,
}: ApprovedVehiclesServiceDeps) {
  const today = () => siteDay(clock.now());
  const descriptorContext = (tenantId: string, vehicleId: string) =>
    `face:${tenantId}:${vehicleId}`;

  /** Enrolment: the driver photo must show exactly one usable face; its descriptor is kept sealed. */
  async function describeDriverFace(actor: Actor, bytes: Uint8Array): Promise<number[]> {
    const embedding = await faces.forUser(actor.userId).embedFace(bytes);
    if (!embedding.ok)
      throw new AppError('UNPROCESSABLE', `Driver photo: ${embedding.error.message}`);
    return embedding.descriptor;
  }

  /** The tenant's watchlist blocks among `plates`, in the caller's transaction. */
  async function watchlistBlocks(
    tx: DbExecutor,
    tenantId: string,
    plates: readonly string[],
  ): Promise<WatchlistBlocks> {
    if (plates.length === 0) return { blocked: new Map(), hits: [] };
    const screening = await watchlist.screen(tx, tenantId, { plateNumbers: plates });
    return blocksOf(screening.hits);
  }

  /**
   * Refuses a pre-registration whose plates the watchlist blocks: the refusal and its hits are
   * audited in their own transaction (committed), then a 422 names the first blocked plate.
   */
  async function refuseWatchedPlates(actor: Actor, plates: readonly string[], ip?: string) {
    const refusal = await database.withTenant(actor.tenantId, async (tx) => {
      const blocks = await watchlistBlocks(tx, actor.tenantId, plates);
      if (blocks.blocked.size === 0) return null;
      const attemptId = newId();
      await audit.record(tx, {
        tenantId: actor.tenantId,
        actorUserId: actor.userId,
        action: 'approved-vehicle.refused',
        targetType: 'approved_vehicle',
        targetId: attemptId,
        ip,
        details: {
          refusalReason: 'watchlist',
          plateNumbers: [...plates],
          watchlistEntryIds: blocks.hits.map((hit) => hit.watchlistEntryId),
        },
      });
      await watchlist.recordHits(
        tx,
        actor,
        { outcomes: [], hits: blocks.hits },
        {
          gatePath: 'pre-registration',
          targetType: 'approved_vehicle',
          targetId: attemptId,
          decision: 'refused',
          ip,
        },
      );
      return blocks;
    });
    if (!refusal) return;
    const first = plates.find((plate) => refusal.blocked.has(watchlistMatchKey('plate', plate)));
    throw new AppError(
      'UNPROCESSABLE',
      refusal.blocked.get(watchlistMatchKey('plate', first ?? '')) ??
        [...refusal.blocked.values()][0] ??
        COVERT_BLOCK_MESSAGE,
    );
  }

  async function removeVehicle(actor: Actor, id: string, action: string, ip?: string) {
    const deleted = await database.withTenant(actor.tenantId, async (tx) => {
      const row = await repository.delete(tx, actor.tenantId, id);
      if (!row) throw notFound();
      await audit.record(tx, {
        tenantId: actor.tenantId,
        actorUserId: actor.userId,
        action,
        targetType: 'approved_vehicle',
        targetId: id,
        ip,
        ...(row.proposal === 'register' ? { details: { withdrawnProposal: true } } : {}),
      });
      // A cited capture's photo is released (deleted once no record cites it), in this transaction.
      if (row.driverPhotoKey) await captures.release(tx, actor.tenantId, [row.driverPhotoKey]);
      return row;
    });
    if (deleted.driverPhotoKey) await images.deleteImage(deleted.driverPhotoKey);
  }

  return {
    today,
    isApproved: (row: ApprovedVehicleRow | undefined) =>
      approvalStatus(row, today()) === 'approved',

    listVehicles: (actor: Actor) =>
      database.withTenant(actor.tenantId, (tx) => repository.list(tx, actor.tenantId)),

    async registerVehicle(
      actor: Actor,
      body: CreateApprovedVehicleBody & { plateNumber: string },
      ip?: string,
    ) {
      // Issue 21: a trailer is a vehicle of its own, never the truck-tractor's plate again.
      assertOwnTrailerPlates(body.plateNumber, body.trailers ?? []);
      // Issue 21: a watched plate (the vehicle's or a trailer's) is refused before anything else.
      await refuseWatchedPlates(
        actor,
        [body.plateNumber, ...(body.trailers ?? []).map((trailer) => trailer.plateNumber)],
        ip,
      );
      const hasPhoto = Boolean(body.driverPhoto || body.driverPhotoCaptureId);
      // Separation of duties: a guard's approval is capped and, when the tenant asks for it (the
      // default), only a proposal with a driver photo until back_office or an admin confirms it.
      let approvedUntil = body.approvedUntil ?? null;
      let isProposal = false;
      if (isGuard(actor)) {
        const tenant = await database.withTenant(actor.tenantId, (tx) =>
          settings.settingsOf(tx, actor.tenantId),
        );
        const months = tenant.maxApprovalValidityMonths;
        const latest = addMonths(today(), months);
        if (approvedUntil === null) approvedUntil = latest;
        if (approvedUntil > latest) {
          throw new AppError(
            'INVALID',
            `A security guard can approve a vehicle for at most ${months} month${months === 1 ? '' : 's'} (until ${latest}).`,
          );
        }
        isProposal = tenant.separationOfDuties;
        if (isProposal && !hasPhoto) {
          throw new AppError(
            'INVALID',
            'Take a driver photo: a vehicle registered by a security guard waits for approval with the photo.',
          );
        }
      }
      if (hasPhoto && body.biometricConsent !== true) {
        throw new AppError(
          'INVALID',
          "Record the driver's consent before storing their photo for face verification.",
        );
      }
      // The photo sent, or its capture (issue 14: driverPhotoCaptureId, 404 when not citable).
      const photo = body.driverPhoto
        ? decodeImagePayload(body.driverPhoto).bytes
        : body.driverPhotoCaptureId
          ? await captures.readCapture(actor, body.driverPhotoCaptureId)
          : null;
      const descriptor = photo ? await describeDriverFace(actor, photo) : null;
      const vehicleId = newId();
      const storedPhotoKey = await images.storeOptional(
        actor.tenantId,
        'driver-photos',
        body.driverPhoto,
      );
      try {
        return await database.withTenant(actor.tenantId, async (tx) => {
          const now = clock.now();
          const driverPhotoKey = await captures.resolveImage(tx, actor, {
            image: storedPhotoKey,
            captureId: body.driverPhotoCaptureId,
          });
          const vehicle = await repository.insert(tx, {
            tenantId: actor.tenantId,
            id: vehicleId,
            plateNumber: body.plateNumber,
            driverName: body.driverName.trim(),
            driverLicense: body.driverLicense ?? null,
            company: body.company ?? null,
            driverPhotoKey,
            photoConsentAt: driverPhotoKey ? now : null,
            photoConsentBy: driverPhotoKey ? actor.userId : null,
            photoConsentNotice: driverPhotoKey ? BIOMETRIC_NOTICE_VERSION : null,
            driverFaceDescriptor: descriptor
              ? secretBox.seal(
                  JSON.stringify(descriptor),
                  descriptorContext(actor.tenantId, vehicleId),
                )
              : null,
            faceModelVersion: descriptor ? FACE_MODEL_VERSION : null,
            biometricsPurgeAfter: driverPhotoKey
              ? new Date(now.getTime() + biometricRetentionDays * 86_400_000)
              : null,
            approvedUntil,
            // Issue 21: validated and normalised by the route's schema (TrailersSchema).
            trailers: (body.trailers ?? []).map((trailer) => ({
              plateNumber: trailer.plateNumber,
              discNumber: trailer.discNumber ?? null,
              discExpiry: trailer.discExpiry ?? null,
            })),
            // A proposal stays switched off (and out of the dashboard's counts) until confirmed.
            isActive: isProposal ? false : (body.isActive ?? true),
            createdAt: now,
            createdBy: actor.userId,
            proposal: isProposal ? 'register' : null,
            proposedBy: isProposal ? actor.userId : null,
            proposedAt: isProposal ? now : null,
          });
          await audit.record(tx, {
            tenantId: actor.tenantId,
            actorUserId: actor.userId,
            action: isProposal ? 'approved-vehicle.proposed' : 'approved-vehicle.registered',
            targetType: 'approved_vehicle',
            targetId: vehicle.id,
            ip,
            details: {
              hasDriverPhoto: driverPhotoKey !== null,
              faceEnrolled: descriptor !== null,
              approvedUntil,
            },
          });
          return vehicle;
        });
      } catch (error) {
        if (storedPhotoKey) await images.deleteImage(storedPhotoKey);
        if (isUniqueViolation(error, 'approved_vehicles_one_per_plate')) {
          throw new AppError('CONFLICT', `Vehicle ${body.plateNumber} is already registered.`);
        }
        throw error;
      }
    },

    /**
     * Issue 21: replaces a vehicle's trailers (at most two; none makes it rigid again). A trailer
     * plate the watchlist blocks is refused (422, audited, hits raised) as on registration; a
     * trailer may not carry the vehicle's own plate. Audited with the plates before and after.
     */
    async updateTrailers(actor: Actor, id: string, body: UpdateTrailersBody, ip?: string) {
      const trailers: Trailer[] = body.trailers.map((trailer) => ({
        plateNumber: trailer.plateNumber,
        discNumber: trailer.discNumber ?? null,
        discExpiry: trailer.discExpiry ?? null,
      }));
      const existing = await database.withTenant(actor.tenantId, (tx) =>
        repository.find(tx, actor.tenantId, id),
      );
      if (!existing) throw notFound();
      assertOwnTrailerPlates(existing.plateNumber, trailers);
      await refuseWatchedPlates(
        actor,
        trailers.map((trailer) => trailer.plateNumber),
        ip,
      );
      return database.withTenant(actor.tenantId, async (tx) => {
        const before = await repository.findForDecision(tx, actor.tenantId, id);
        if (!before) throw notFound();
        const updated = await repository.setTrailers(tx, actor.tenantId, id, trailers);
        if (!updated) throw notFound();
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'approved-vehicle.trailers-updated',
          targetType: 'approved_vehicle',
          targetId: id,
          ip,
          details: {
            before: before.trailers.map((trailer) => trailer.plateNumber),
            after: trailers.map((trailer) => trailer.plateNumber),
          },
        });
        return updated;
      });
    },

    /**
     * Deletes an approval, or, for a security guard under separation of duties, proposes its
     * deletion (returned as `proposed`; the vehicle stays as it is until confirmed). A pending
     * registration grants nothing, so anyone who may delete withdraws it at once.
     */
    async deleteVehicle(
      actor: Actor,
      id: string,
      ip?: string,
    ): Promise<{ proposed: ApprovedVehicleRow | null }> {
      if (isGuard(actor)) {
        const proposed = await database.withTenant(actor.tenantId, async (tx) => {
          const { separationOfDuties } = await settings.settingsOf(tx, actor.tenantId);
          if (!separationOfDuties) return null;
          const row = await repository.find(tx, actor.tenantId, id);
          if (!row) throw notFound();
          if (row.proposal === 'register') return null;
          const now = clock.now();
          const updated = await repository.setProposal(tx, actor.tenantId, id, {
            proposal: 'delete',
            proposedBy: actor.userId,
            proposedAt: now,
          });
          await audit.record(tx, {
            tenantId: actor.tenantId,
            actorUserId: actor.userId,
            action: 'approved-vehicle.deletion-proposed',
            targetType: 'approved_vehicle',
            targetId: id,
            ip,
          });
          return updated ?? null;
        });
        if (proposed) return { proposed };
      }
      await removeVehicle(actor, id, 'approved-vehicle.deleted', ip);
      return { proposed: null };
    },

    /**
     * Back office or an admin confirms a guard's proposal: a registration becomes an approval
     * (switched on as the guard asked), a deletion deletes. Audited with who proposed it.
     */
    async confirmProposal(actor: Actor, id: string, body: { note?: string }, ip?: string) {
      const decided = await database.withTenant(actor.tenantId, async (tx) => {
        const row = await repository.findForDecision(tx, actor.tenantId, id);
        if (!row) throw notFound();
        if (!row.proposal) throw nothingPending();
        const details = {
          proposal: row.proposal,
          proposedBy: row.proposedBy,
          proposedAt: row.proposedAt?.toISOString() ?? null,
          ...(body.note ? { note: body.note } : {}),
        };
        if (row.proposal === 'delete') {
          await repository.delete(tx, actor.tenantId, id);
          await audit.record(tx, {
            tenantId: actor.tenantId,
            actorUserId: actor.userId,
            action: 'approved-vehicle.deleted',
            targetType: 'approved_vehicle',
            targetId: id,
            ip,
            details,
          });
          if (row.driverPhotoKey) await captures.release(tx, actor.tenantId, [row.driverPhotoKey]);
          return { outcome: 'deleted' as const, row, vehicle: null };
        }
        const registered = await repository.confirmRegistration(tx, actor.tenantId, id);
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'approved-vehicle.proposal-confirmed',
          targetType: 'approved_vehicle',
          targetId: id,
          ip,
          details,
        });
        return { outcome: 'approved' as const, row, vehicle: registered ?? null };
      });
      if (decided.outcome === 'deleted' && decided.row.driverPhotoKey) {
        await images.deleteImage(decided.row.driverPhotoKey);
      }
      return { outcome: decided.outcome, vehicle: decided.vehicle };
    },

    /**
     * Back office or an admin turns a guard's proposal down: a proposed registration is deleted
     * (with its photo), a proposed deletion is dropped and the vehicle stays as it was.
     */
    async rejectProposal(actor: Actor, id: string, body: { note?: string }, ip?: string) {
      const decided = await database.withTenant(actor.tenantId, async (tx) => {
        const row = await repository.findForDecision(tx, actor.tenantId, id);
        if (!row) throw notFound();
        if (!row.proposal) throw nothingPending();
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'approved-vehicle.proposal-rejected',
          targetType: 'approved_vehicle',
          targetId: id,
          ip,
          details: {
            proposal: row.proposal,
            proposedBy: row.proposedBy,
            proposedAt: row.proposedAt?.toISOString() ?? null,
            ...(body.note ? { note: body.note } : {}),
          },
        });
        if (row.proposal === 'register') {
          await repository.delete(tx, actor.tenantId, id);
          // Like every other delete: a cited capture's photo is released in this transaction.
          if (row.driverPhotoKey) await captures.release(tx, actor.tenantId, [row.driverPhotoKey]);
          return { row, vehicle: null };
        }
        const kept = await repository.setProposal(tx, actor.tenantId, id, {
          proposal: null,
          proposedBy: null,
          proposedAt: null,
        });
        return { row, vehicle: kept ?? null };
      });
      if (!decided.vehicle && decided.row.driverPhotoKey) {
        await images.deleteImage(decided.row.driverPhotoKey);
      }
      return { outcome: 'rejected' as const, vehicle: decided.vehicle };
    },

    /**
     * The gate's plate lookup: the vehicle and, when it was onboarded for a driver, that driver's
     * safety induction (null without a linked driver). The ID number stays on the server.
     */
    async lookupPlate(
      actor: Actor,
      plate: string,
    ): Promise<{ row: ApprovedVehicleRow; induction: InductionValidity | null }> {
      const found = await database.withTenant(actor.tenantId, async (tx) => {
        const row = await repository.findByPlate(tx, actor.tenantId, normalisePlate(plate));
        if (!row) return undefined;
        const idNumber = row.driverId
          ? await drivers.findIdNumber(tx, actor.tenantId, row.driverId)
          : undefined;
        return {
          row,
          induction: idNumber ? await induction.validityWithin(tx, actor.tenantId, idNumber) : null,
        };
      });
      if (!found) throw notFound();
      return found;
    },

    async getVehicle(actor: Actor, id: string) {
      const row = await database.withTenant(actor.tenantId, (tx) =>
        repository.find(tx, actor.tenantId, id),
      );
      if (!row) throw notFound();
      return row;
    },

    /** The reference for a face comparison: the enrolled descriptor, else the photo on file. */
    async getDriverReference(actor: Actor, id: string) {
      const row = await database.withTenant(actor.tenantId, (tx) =>
        repository.find(tx, actor.tenantId, id),
      );
      if (!row) throw notFound();
      const isCurrentModel =
        row.driverFaceDescriptor !== null && row.faceModelVersion === FACE_MODEL_VERSION;
      const descriptor = isCurrentModel
        ? (JSON.parse(
            secretBox.open(row.driverFaceDescriptor ?? '', descriptorContext(row.tenantId, row.id)),
          ) as number[])
        : null;
      return { vehicle: row, descriptor, photoKey: row.driverPhotoKey };
    },

    /**
     * The retention job: ends every approval's biometric data (photo and descriptor) whose period
     * is over (the tenant's own period when shorter than the one stored at enrolment), tenant by
     * tenant, batch after batch until none is due (platform/batches.ts). Safe to run
     * again: a purged row is no longer due.
     */
    purgeExpiredBiometrics: (batch = PURGE_BATCH): Promise<number> =>
      drainInBatches({
        batch,
        nextBatch: (limit) =>
          repository.listDueBiometricPurges(clock.now(), biometricRetentionDays, limit),
        handle: ({ tenantId, vehicleId }) =>
          database.withTenant(tenantId, async (tx) => {
            const row = await repository.find(tx, tenantId, vehicleId);
            if (!row) return false;
            await repository.clearBiometrics(tx, tenantId, vehicleId);
            // Before the commit: a storage failure rolls the clearing back, so the key is found again.
            if (row.driverPhotoKey) {
              await captures.release(tx, tenantId, [row.driverPhotoKey]);
              await images.deleteImage(row.driverPhotoKey);
            }
            await audit.record(tx, {
              tenantId,
              actorUserId: null,
              action: 'biometrics.purged',
              targetType: 'approved_vehicle',
              targetId: vehicleId,
              details: { reason: 'retention period ended' },
            });
            return true;
          }),
      }),

    async verifyVehicle(
      actor: Actor,
      plate: string,
    ): Promise<{
      status: VerifyVehicle['reason'];
      row: ApprovedVehicleRow | undefined;
      plateNumber: string;
    }> {
      const plateNumber = normalisePlate(plate);
      const row = await database.withTenant(actor.tenantId, (tx) =>
        repository.findByPlate(tx, actor.tenantId, plateNumber),
      );
      return { status: approvalStatus(row, today()), row, plateNumber };
    },

    /** For other modules, inside their own tenant transaction. */
    existingPlates: (tx: DbExecutor, tenantId: string, plates: readonly string[]) =>
      repository.existingPlates(tx, tenantId, plates),
    /** Issue 21: the plates the watchlist blocks (bulk import), in the caller's transaction. */
    watchlistBlocks,
    /** Issue 21: refuses (422, audited, hits raised) when the watchlist blocks one of `plates`. */
    refuseWatchedPlates,
    /** Records the hits of plates refused by the bulk import (alerts and `watchlist.hit`). */
    recordRefusedHits: (
      tx: DbExecutor,
      actor: Actor,
      hits: readonly WatchlistHit[],
      about: { targetType: string; targetId: string; ip?: string },
    ) =>
      watchlist.recordHits(
        tx,
        actor,
        { outcomes: [], hits: [...hits] },
        { gatePath: 'pre-registration', decision: 'refused', ...about },
      ),
    /**
     * Approvals registered by onboarding (no driver photo), in the caller's transaction. A plate
     * already registered fails the whole transaction (unique index), never overwrites.
     */
    insertVehicles: (
      tx: DbExecutor,
      actor: Actor,
      vehicles: readonly {
        plateNumber: string;
        driverName: string;
        driverLicense: string | null;
        company: string | null;
        approvedUntil: string | null;
        /** Issue 21: the rig's trailers from the bulk file (none for a rigid vehicle). */
        trailers?: Trailer[];
        /** The driver record the vehicle is onboarded for, of the same tenant (foreign key). */
        driverId: string | null;
      }[],
    ) => {
      const now = clock.now();
      return repository.insertMany(
        tx,
        vehicles.map((vehicle) => ({
          tenantId: actor.tenantId,
          id: newId(),
          ...vehicle,
          isActive: true,
          createdAt: now,
          createdBy: actor.userId,
        })),
      );
    },
    findByPlate: (tx: DbExecutor, tenantId: string, plateNumber: string) =>
      repository.findByPlate(tx, tenantId, plateNumber),
    /** The dashboard's registered vehicles, as a scalar subquery for the caller's statement. */
    activeCountSql: (tenantId: string) => repository.activeCountSql(tenantId, today()),
  };
}
