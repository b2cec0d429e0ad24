import { createHash } from 'node:crypto';

import type { EntryWarning } from '@boomgate/contracts/entry-checks';
import type { GrantEntryBodySchema } from '@boomgate/contracts/entry-logs';
import type { z } from 'zod';

import type { ApprovedVehiclesService } from '@/modules/approved-vehicles';
import type { AuditService } from '@/modules/audit';
import type { CapturesService } from '@/modules/captures';
import type { CorrectionsService } from '@/modules/corrections';
import { citedReadings } from '@/modules/documents';
import type { FaceComparisonResult, FaceEvidence, FacesService } from '@/modules/faces';
import type { ImagesService } from '@/modules/images';
import type { Actor } from '@/modules/sessions';
import type { UsersService } from '@/modules/users';
import { siteDay } from '@/platform/calendar';
import type { Clock } from '@/platform/clock';
import type { Database, DbExecutor } from '@/platform/db';
import { AppError, findPgError, isUniqueViolation } from '@/platform/errors';
import { newId } from '@/platform/ids';
import { decodeImagePayload } from '@/platform/images';

import { readPageCursor, toPage } from '@/platform/page-cursor';
import type { EntryLogsRepository } from './entry-logs.repository';
import type { EntryLogRow } from './entry-logs.table';
import { crossCheckWarnings, driverDetails } from './entry-rules';
import { faceClaimWarnings } from './entry-verdicts';
import { withTypedCorrections } from './typed-corrections';

type GrantEntry = z.output<typeof GrantEntryBodySchema>;

const RECENT_ENTRIES = 10;

export type EntryLogsServiceDeps = {
  database: Pick<Database, 'withTenant'>;
  repository: EntryLogsRepository;
  images: Pick<ImagesService, 'storeOptional' | 'storeImage' | 'deleteImage'>;
  vehicles: Pick<ApprovedVehiclesService, 'findByPlate' | 'isApproved' | 'activeCountSql'>;
  users: Pick<UsersService, 'activeCountSql'>;
  audit: Pick<AuditService, 'record'>;
  faces: Pick<FacesService, 'compareWithVehicle' | 'record' | 'claimForEntry'>;
  /** The cited documents' readings (documents module; the one adapter to switch to typed readings). */
  readings?: typeof citedReadings;
  captures: Pick<CapturesService, 'resolveImage' | 'resolveImages' | 'readCapture'>;
  corrections: Pick<CorrectionsService, 'record'>;
  clock: Clock;
};

export type EntryLogsService = ReturnType<typeof createEntryLogsService>;

const percent = (part: number, whole: number) =>
  whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10;

/** The outcome of grant-entry's own face comparison, made before the entry's transaction. */
type OwnComparison =
  { ok: true; result: FaceComparisonResult } | { ok: false; message: string } | null;

export function createEntryLogsService({
  database,
  repository,
  images,
  vehicles,
  users,
  audit,
  faces,
  readings: readCited = citedReadings,
  captures,
  corrections,
  clock,
}: EntryLogsServiceDeps) {
  /**
   * With a face image, no cited comparison, and a driver on file for the plate's vehicle, the
   * server compares the face itself (same engine and threshold as /api/face-comparison). Made
   * outside the entry's transaction: the engine takes hundreds of milliseconds. A face the engine
   * cannot compare (none, two) is no verdict, recorded as a warning; the attempt is still logged.
   */
  async function ownComparison(actor: Actor, body: GrantEntry): Promise<OwnComparison> {
    if (body.faceComparisonId || !(body.driverFaceImage || body.driverFaceImageCaptureId)) {
      return null;
    }
    const vehicle = await database.withTenant(actor.tenantId, (tx) =>
      vehicles.findByPlate(tx, actor.tenantId, body.plateNumber),
    );
    if (!vehicle?.driverPhotoKey && !vehicle?.driverFaceDescriptor) return null;
    try {
      // The face sent, or the capture it cites (issue 14: an unknown or expired capture is a 404).
      const live = body.driverFaceImage
        ? decodeImagePayload(body.driverFaceImage).bytes
        : await captures.readCapture(actor, body.driverFaceImageCaptureId ?? '');
      return { ok: true, result: await faces.compareWithVehicle(actor, live, vehicle.id) };
    } catch (error) {
      // No face or two faces: no verdict. A bad image (415) or a busy engine (503) is the
      // request's failure, answered as such.
      if (error instanceof AppError && error.code === 'UNPROCESSABLE')
        return { ok: false, message: error.message };
      throw error;
    }
  }

  /** The entry's face verdict: from a cited comparison, the server's own, or none. */
  async function faceEvidence(
    tx: DbExecutor,
    actor: Actor,
    body: GrantEntry,
    context: {
      entryId: string;
      vehicle: {
        id: string;
        driverPhotoKey: string | null;
        driverFaceDescriptor: string | null;
      } | null;
      own: OwnComparison;
      ip?: string;
    },
  ): Promise<{ evidence: FaceEvidence | null; warnings: EntryWarning[] }> {
    const { entryId, vehicle, own } = context;
    if (body.faceComparisonId) {
      const evidence = await faces.claimForEntry(tx, actor, body.faceComparisonId, {
        entryId,
        vehicle: vehicle && {
          id: vehicle.id,
          hasReference: vehicle.driverPhotoKey !== null || vehicle.driverFaceDescriptor !== null,
        },
      });
      return { evidence, warnings: [] };
    }
    if (own?.ok) {
      const comparisonId = await faces.record(tx, actor, own.result, {
        usedByEntryId: entryId,
        ip: context.ip,
      });
      return {
        evidence: {
          comparisonId,
          faceVerified: own.result.decision === 'match',
          matchScore: own.result.matchScore,
        },
        warnings: [],
      };
    }
    if (own && !own.ok)
      return {
        evidence: null,
        warnings: [
          {
            code: 'face_comparison_failed',
            severity: 'warning',
            message: `The face sent with the entry could not be compared: ${own.message}`,
            fields: ['driverFaceImage'],
          },
        ],
      };
    return { evidence: null, warnings: [] };
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
      const requestHash = createHash('sha256').update(JSON.stringify(body)).digest('base64url');

      if (idempotencyKey) {
        const earlier = await database.withTenant(actor.tenantId, (tx) =>
          repository.findByIdempotencyKey(tx, actor.tenantId, idempotencyKey),
        );
        if (earlier) return { entry: assertSameRequest(earlier, requestHash), isReplay: true };
      }

      const own = await ownComparison(actor, body);
      const stored = await storeImages(actor, body);
      try {
        const entry = await database.withTenant(actor.tenantId, async (tx) => {
          const imageKeys = await resolveCaptures(tx, actor, body, stored);
          const entryId = newId();
          const vehicle =
            (await vehicles.findByPlate(tx, actor.tenantId, body.plateNumber)) ?? null;
          const isApproved = vehicles.isApproved(vehicle ?? undefined);
          const face = await faceEvidence(tx, actor, body, {
            entryId,
            vehicle,
            own,
            ip,
          });
          // Issue 15: driver fields the guard corrected stand in for the misread ones.
          const cited = withTypedCorrections(
            await readCited(tx, actor.tenantId, body),
            body.corrections,
          );
          const driver = driverDetails(cited, {
            driverName: body.driverName,
            driverSurname: body.driverSurname,
            driverIdNumber: body.driverIdNumber,
            driverPhone1: body.driverPhone1,
            driverPhone2: body.driverPhone2,
            driverPhone3: body.driverPhone3,
            driverPassportNumber: body.driverPassportNumber,
          });
          const warnings: EntryWarning[] = [
            ...face.warnings,
            ...faceClaimWarnings(body, face.evidence),
            ...(body.vehicleApproved && !isApproved
              ? [
                  {
                    code: 'vehicle_claim_contradicted' as const,
                    severity: 'warning' as const,
                    message: 'The client reported the vehicle as approved; the register does not.',
                    fields: ['vehicleApproved'],
                  },
                ]
              : []),
            ...crossCheckWarnings({
              plateNumber: body.plateNumber,
              readings: cited,
              registeredDriverName: vehicle?.driverName ?? null,
              today: siteDay(clock.now()),
            }),
            ...driver.warnings,
            ...body.warnings.map((message) => ({
              code: 'guard_note' as const,
              severity: 'info' as const,
              message,
              fields: [],
            })),
          ];
          const row = await repository.insert(tx, {
            tenantId: actor.tenantId,
            id: entryId,
            timestamp: clock.now(),
            category: body.category,
            plateNumber: body.plateNumber,
            extractedPlate: body.extractedPlate,
            vehicleApproved: isApproved,
            faceVerified: face.evidence?.faceVerified ?? false,
            entryGranted: body.entryGranted,
            matchScore: face.evidence?.matchScore ?? null,
            refusalReason: body.entryGranted ? null : (body.refusalReason ?? 'guard_refused'),
            ...driver.details,
            driverName: driver.details.driverName ?? vehicle?.driverName ?? null,
            transportName:
              cited.ticket?.transporter ?? body.transportName ?? vehicle?.company ?? null,
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
            details: {
              ...(face.evidence ? { faceComparisonId: face.evidence.comparisonId } : {}),
              ...(row.refusalReason ? { refusalReason: row.refusalReason } : {}),
              warnings: warnings.map((warning) => warning.code),
            },
          });
          await corrections.record(tx, actor, { entryLogId: row.id }, body.corrections, ip);
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
          grantedEntries: counts.granted,
          faceVerifiedEntries: counts.faceVerified,
          // Every attempt counts (refusals are logged): Approval Rate = granted ÷ total.
          approvalRate: percent(counts.granted, counts.total),
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
