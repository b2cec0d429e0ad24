import { createHash } from 'node:crypto';

import type { GrantEntryBodySchema } from '@boomgate/contracts/entry-logs';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';

import type { ApprovedVehiclesService } from '@/modules/approved-vehicles';
import type { AuditService } from '@/modules/audit';
import type { CapturesService } from '@/modules/captures';
import { FACE_COMPARED_ACTION } from '@/modules/faces';
import type { ImagesService } from '@/modules/images';
import type { Actor } from '@/modules/sessions';
import type { SettingsService } from '@/modules/settings';
import type { UsersService } from '@/modules/users';
import { siteDay } from '@/platform/calendar';
import type { Clock } from '@/platform/clock';
import type { Database, DbExecutor } from '@/platform/db';
import { AppError, findPgError, isUniqueViolation } from '@/platform/errors';
import { newId } from '@/platform/ids';

import { readPageCursor, toPage } from '@/platform/page-cursor';
import type { EntryLogsRepository } from './entry-logs.repository';
import type { EntryLogRow } from './entry-logs.table';

type GrantEntry = z.output<typeof GrantEntryBodySchema>;

/** Spec §4 and §9: a face match must be at least 70 percent. */
export const FACE_MATCH_THRESHOLD = 70;
const RECENT_ENTRIES = 10;
/** A face comparison can back an entry for this long: the truck is at the gate, not tomorrow. */
const FACE_COMPARISON_VALID_MS = 15 * 60_000;

export type EntryLogsServiceDeps = {
  database: Pick<Database, 'withTenant'>;
  repository: EntryLogsRepository;
  images: Pick<ImagesService, 'storeOptional' | 'storeImage' | 'deleteImage'>;
  vehicles: Pick<ApprovedVehiclesService, 'findByPlate' | 'isApproved' | 'activeCountSql'>;
  users: Pick<UsersService, 'activeCountSql'>;
  audit: Pick<AuditService, 'record' | 'find' | 'hasDetail'>;
  settings: Pick<SettingsService, 'settingsOf'>;
  captures: Pick<CapturesService, 'resolveImage' | 'resolveImages'>;
  clock: Clock;
};

export type EntryLogsService = ReturnType<typeof createEntryLogsService>;

const percent = (part: number, whole: number) =>
  whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10;

export function createEntryLogsService({
  database,
  repository,
  images,
  vehicles,
  users,
  audit,
  settings,
  captures,
  clock,
}: EntryLogsServiceDeps) {
  /**
   * The face verdict of an entry. With `faceComparisonId` it is the server's own audited record of
   * the comparison (same user, recent, same vehicle, not cited by an earlier entry), so a client
   * cannot claim a match it did not get; without it the client's claim stands, unless the
   * organization gates on anti-spoofing.
   */
  async function faceVerdict(
    tx: DbExecutor,
    actor: Actor,
    body: GrantEntry,
    vehicle: { id: string; driverPhotoKey: string | null } | null,
  ): Promise<{ faceVerified: boolean; matchScore: number | null }> {
    if (!body.faceComparisonId) {
      if (body.faceVerified && (await settings.settingsOf(tx, actor.tenantId)).antispoofGating)
        throw new AppError(
          'INVALID',
          'This organization checks faces for spoofing: a verified face must cite its face comparison (faceComparisonId).',
        );
      return { faceVerified: body.faceVerified, matchScore: body.matchScore ?? null };
    }
    const record = await audit.find(tx, actor.tenantId, body.faceComparisonId);
    const isUsable =
      record !== undefined &&
      record.action === FACE_COMPARED_ACTION &&
      record.actorUserId === actor.userId &&
      clock.now().getTime() - record.occurredAt.getTime() <= FACE_COMPARISON_VALID_MS;
    if (!isUsable)
      throw new AppError(
        'INVALID',
        'The face comparison was not found or has expired: compare the face again.',
      );
    // A vehicle with a driver on file must be verified against that driver, not against a photo
    // the client chose (a two-photo comparison has no target).
    const mustTargetVehicle = vehicle?.driverPhotoKey != null;
    if ((record.targetId || mustTargetVehicle) && record.targetId !== vehicle?.id)
      throw new AppError('INVALID', 'The face comparison was made for another vehicle.');
    // One comparison backs one entry: the lock makes two concurrent citations queue, and the
    // second then finds the first one's audit event.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${record.id}))`);
    if (await audit.hasDetail(tx, actor.tenantId, 'faceComparisonId', record.id, record.occurredAt))
      throw new AppError(
        'INVALID',
        'The face comparison already backs another entry: compare the face again.',
      );
    const details = (record.details ?? {}) as { matchScore?: number; decision?: string };
    const faceVerified = details.decision === 'match';
    if (body.faceVerified && !faceVerified)
      throw new AppError(
        'INVALID',
        `The face comparison did not verify the face (${details.decision ?? 'no decision'}).`,
      );
    return { faceVerified, matchScore: details.matchScore ?? null };
  }

  async function storeImages(actor: Actor, body: GrantEntry) {
    const store = (kind: Parameters<ImagesService['storeOptional']>[1], payload: string | null) =>
      images.storeOptional(actor.tenantId, kind, payload);
    return {
      plateImageKey: await store('plates', body.plateImage),
      vehicleDiskImageKey: await store('discs', body.vehicleDiskImage),
      driverFaceImageKey: await store('faces', body.driverFaceImage),
      driverLicenseImageKey: await store('drivers-licences', body.driverLicenseImage),
      passportImageKey: await store('passports', body.passportImage),
      permitImageKeys: await Promise.all(
        body.permitImages.map((image) => images.storeImage(actor.tenantId, 'permits', image)),
      ),
    };
  }

  /** Issue 14: image fields cited as captures (`<field>CaptureId`) become the captures' keys. */
  async function resolveCaptures(
    tx: DbExecutor,
    actor: Actor,
    body: GrantEntry,
    stored: Awaited<ReturnType<typeof storeImages>>,
  ): Promise<Awaited<ReturnType<typeof storeImages>>> {
    const one = (image: string | null, captureId: string | null) =>
      captures.resolveImage(tx, actor, { image, captureId });
    return {
      plateImageKey: await one(stored.plateImageKey, body.plateImageCaptureId),
      vehicleDiskImageKey: await one(stored.vehicleDiskImageKey, body.vehicleDiskImageCaptureId),
      driverFaceImageKey: await one(stored.driverFaceImageKey, body.driverFaceImageCaptureId),
      driverLicenseImageKey: await one(
        stored.driverLicenseImageKey,
        body.driverLicenseImageCaptureId,
      ),
      passportImageKey: await one(stored.passportImageKey, body.passportImageCaptureId),
      permitImageKeys: await captures.resolveImages(tx, actor, {
        images: stored.permitImageKeys,
        captureIds: body.permitImagesCaptureIds,
      }),
    };
  }

  const keysOf = (stored: Awaited<ReturnType<typeof storeImages>>) =>
    [
      stored.plateImageKey,
      stored.vehicleDiskImageKey,
      stored.driverFaceImageKey,
      stored.driverLicenseImageKey,
      stored.passportImageKey,
      ...stored.permitImageKeys,
    ].filter((key): key is string => key !== null);

  return {
    /**
     * Logs an entry. Whether the vehicle is approved is decided here from the register, not taken
     * from the client. With an Idempotency-Key a retry returns the first entry (`isReplay`).
     */
    async grantEntry(
      actor: Actor,
      body: GrantEntry,
      { idempotencyKey, ip }: { idempotencyKey?: string; ip?: string },
    ): Promise<{ entry: EntryLogRow; isReplay: boolean }> {
      if (body.faceVerified && body.matchScore != null && body.matchScore < FACE_MATCH_THRESHOLD) {
        throw new AppError(
          'INVALID',
          `A face match of ${body.matchScore}% is below ${FACE_MATCH_THRESHOLD}%: the face is not verified.`,
        );
      }
      const requestHash = createHash('sha256').update(JSON.stringify(body)).digest('base64url');

      if (idempotencyKey) {
        const earlier = await database.withTenant(actor.tenantId, (tx) =>
          repository.findByIdempotencyKey(tx, actor.tenantId, idempotencyKey),
        );
        if (earlier) return { entry: assertSameRequest(earlier, requestHash), isReplay: true };
      }

      const stored = await storeImages(actor, body);
      try {
        const entry = await database.withTenant(actor.tenantId, async (tx) => {
          const imageKeys = await resolveCaptures(tx, actor, body, stored);
          const vehicle = await vehicles.findByPlate(tx, actor.tenantId, body.plateNumber);
          const isApproved = vehicles.isApproved(vehicle);
          const face = await faceVerdict(tx, actor, body, vehicle ?? null);
          const warnings = [...body.warnings];
          if (body.vehicleApproved && !isApproved)
            warnings.push('The client reported the vehicle as approved; the register does not.');
          const row = await repository.insert(tx, {
            tenantId: actor.tenantId,
            id: newId(),
            timestamp: clock.now(),
            category: body.category,
            plateNumber: body.plateNumber,
            extractedPlate: body.extractedPlate,
            vehicleApproved: isApproved,
            faceVerified: face.faceVerified,
            entryGranted: body.entryGranted,
            matchScore: face.matchScore,
            driverName: body.driverName ?? vehicle?.driverName ?? null,
            driverSurname: body.driverSurname,
            driverIdNumber: body.driverIdNumber,
            driverPhone1: body.driverPhone1,
            driverPhone2: body.driverPhone2,
            driverPhone3: body.driverPhone3,
            driverPassportNumber: body.driverPassportNumber,
            transportName: body.transportName ?? vehicle?.company ?? null,
            vehicleLicenceDiscId: body.vehicleLicenceDiscId,
            identityDocumentId: body.identityDocumentId,
            driversLicenceId: body.driversLicenceId,
            passportRecordId: body.passportRecordId,
            weighbridgeTicketId: body.weighbridgeTicketId,
            ...imageKeys,
            warnings,
            recordedBy: actor.userId,
            recordedByName: actor.fullName ?? actor.username,
            idempotencyKey: idempotencyKey ?? null,
            requestHash,
          });
          await audit.record(tx, {
            tenantId: actor.tenantId,
            actorUserId: actor.userId,
            action: row.entryGranted ? 'entry.granted' : 'entry.refused',
            targetType: 'entry_log',
            targetId: row.id,
            ip,
            ...(body.faceComparisonId
              ? { details: { faceComparisonId: body.faceComparisonId } }
              : {}),
          });
          return row;
        });
        return { entry, isReplay: false };
      } catch (error) {
        await Promise.all(keysOf(stored).map((key) => images.deleteImage(key)));
        if (idempotencyKey && isUniqueViolation(error, 'entry_logs_one_per_idempotency_key')) {
          // A concurrent retry won the race: answer with its entry.
          const winner = await database.withTenant(actor.tenantId, (tx) =>
            repository.findByIdempotencyKey(tx, actor.tenantId, idempotencyKey),
          );
          if (winner) return { entry: assertSameRequest(winner, requestHash), isReplay: true };
        }
        if (findPgError(error)?.code === '23503') {
          throw new AppError(
            'INVALID',
            'A document id in the entry does not exist. Save the document first.',
          );
        }
        throw error;
      }
    },

    async listEntries(actor: Actor, { limit, cursor }: { limit: number; cursor?: string }) {
      const after = readPageCursor(cursor);
      const rows = await database.withTenant(actor.tenantId, (tx) =>
        repository.list(tx, actor.tenantId, limit + 1, after),
      );
      return toPage(rows, limit);
    },

    async dashboard(actor: Actor) {
      return database.withTenant(actor.tenantId, async (tx) => {
        const counts = await repository.counts(tx, actor.tenantId, siteDay(clock.now()), {
          registeredVehicles: vehicles.activeCountSql(actor.tenantId),
          activeUsers: users.activeCountSql(actor.tenantId),
        });
        const recent = await repository.list(tx, actor.tenantId, RECENT_ENTRIES);
        return {
          totalEntries: counts.total,
          todayEntries: counts.today,
          approvedEntries: counts.approved,
          faceVerifiedEntries: counts.faceVerified,
          approvalRate: percent(counts.approved, counts.total),
          verificationRate: percent(counts.faceVerified, counts.total),
          registeredVehicles: counts.registeredVehicles,
          activeUsers: counts.activeUsers,
          recent,
        };
      });
    },
  };
}

function assertSameRequest(entry: EntryLogRow, requestHash: string): EntryLogRow {
  if (entry.requestHash !== requestHash) {
    throw new AppError('CONFLICT', 'This Idempotency-Key was already used for a different entry.');
  }
  return entry;
}
