import type {
  CreateApprovedVehicleBody,
  VerifyVehicle,
} from '@boomgate/contracts/approved-vehicles';
import { normalisePlate } from '@boomgate/contracts/plates';

import type { AuditService } from '@/modules/audit';
import type { ImagesService } from '@/modules/images';
import type { Actor } from '@/modules/sessions';
import { siteDay } from '@/platform/calendar';
import type { Clock } from '@/platform/clock';
import type { Database, DbExecutor } from '@/platform/db';
import { AppError, isUniqueViolation } from '@/platform/errors';
import { newId } from '@/platform/ids';

import { approvalStatus } from './approval';
import type { ApprovedVehiclesRepository } from './approved-vehicles.repository';
import type { ApprovedVehicleRow } from './approved-vehicles.table';

/** The privacy notice drivers are shown before their photo is taken; bump when its text changes. */
export const BIOMETRIC_NOTICE_VERSION = 'driver-photo-notice-2026-11';

export type ApprovedVehiclesServiceDeps = {
  database: Pick<Database, 'withTenant'>;
  repository: ApprovedVehiclesRepository;
  images: Pick<ImagesService, 'storeOptional' | 'deleteImage'>;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
};

export type ApprovedVehiclesService = ReturnType<typeof createApprovedVehiclesService>;

const notFound = () => new AppError('NOT_FOUND', 'Vehicle not found.');

export function createApprovedVehiclesService({
  database,
  repository,
  images,
  audit,
  clock,
}: ApprovedVehiclesServiceDeps) {
  const today = () => siteDay(clock.now());

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
      if (body.driverPhoto && body.biometricConsent !== true) {
        throw new AppError(
          'INVALID',
          "Record the driver's consent before storing their photo for face verification.",
        );
      }
      const driverPhotoKey = await images.storeOptional(
        actor.tenantId,
        'driver-photos',
        body.driverPhoto,
      );
      try {
        return await database.withTenant(actor.tenantId, async (tx) => {
          const now = clock.now();
          const vehicle = await repository.insert(tx, {
            tenantId: actor.tenantId,
            id: newId(),
            plateNumber: body.plateNumber,
            driverName: body.driverName.trim(),
            driverLicense: body.driverLicense ?? null,
            company: body.company ?? null,
            driverPhotoKey,
            photoConsentAt: driverPhotoKey ? now : null,
            photoConsentBy: driverPhotoKey ? actor.userId : null,
            photoConsentNotice: driverPhotoKey ? BIOMETRIC_NOTICE_VERSION : null,
            approvedUntil: body.approvedUntil ?? null,
            isActive: body.isActive ?? true,
            createdAt: now,
            createdBy: actor.userId,
          });
          await audit.record(tx, {
            tenantId: actor.tenantId,
            actorUserId: actor.userId,
            action: 'approved-vehicle.registered',
            targetType: 'approved_vehicle',
            targetId: vehicle.id,
            ip,
            details: { hasDriverPhoto: driverPhotoKey !== null },
          });
          return vehicle;
        });
      } catch (error) {
        if (driverPhotoKey) await images.deleteImage(driverPhotoKey);
        if (isUniqueViolation(error, 'approved_vehicles_one_per_plate')) {
          throw new AppError('CONFLICT', `Vehicle ${body.plateNumber} is already registered.`);
        }
        throw error;
      }
    },

    async deleteVehicle(actor: Actor, id: string, ip?: string) {
      const deleted = await database.withTenant(actor.tenantId, async (tx) => {
        const row = await repository.delete(tx, actor.tenantId, id);
        if (!row) throw notFound();
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'approved-vehicle.deleted',
          targetType: 'approved_vehicle',
          targetId: id,
          ip,
        });
        return row;
      });
      if (deleted.driverPhotoKey) await images.deleteImage(deleted.driverPhotoKey);
    },

    async lookupPlate(actor: Actor, plate: string) {
      const row = await database.withTenant(actor.tenantId, (tx) =>
        repository.findByPlate(tx, actor.tenantId, normalisePlate(plate)),
      );
      if (!row) throw notFound();
      return row;
    },

    async getVehicle(actor: Actor, id: string) {
      const row = await database.withTenant(actor.tenantId, (tx) =>
        repository.find(tx, actor.tenantId, id),
      );
      if (!row) throw notFound();
      return row;
    },

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
    findByPlate: (tx: DbExecutor, tenantId: string, plateNumber: string) =>
      repository.findByPlate(tx, tenantId, plateNumber),
    countActive: (tx: DbExecutor, tenantId: string) =>
      repository.countActive(tx, tenantId, today()),
  };
}
