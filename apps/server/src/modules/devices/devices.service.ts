import type { AuditService } from '@/modules/audit';
import type { Actor } from '@/modules/sessions';
import type { Clock } from '@/platform/clock';
import type { Database } from '@/platform/db';
import { AppError } from '@/platform/errors';
import { newId } from '@/platform/ids';

import type { DevicesRepository } from './devices.repository';
import type { GuardDeviceRow } from './devices.table';

export type DevicesServiceDeps = {
  database: Pick<Database, 'withTenant'>;
  repository: DevicesRepository;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
};

export type DevicesService = ReturnType<typeof createDevicesService>;

export const DEVICE_REVOKED_MESSAGE =
  'This device was revoked by an administrator. Its saved entries and data have been removed.';

const revokedError = () => new AppError('DEVICE_REVOKED', DEVICE_REVOKED_MESSAGE);

export function createDevicesService({ database, repository, audit, clock }: DevicesServiceDeps) {
  return {
    /**
     * POST /api/devices/contact: the device reports in (first contact registers it). A revoked
     * device is refused with DEVICE_REVOKED, and the refusal is audited (a lost phone in use).
     */
    async contact(
      actor: Actor,
      body: { deviceId: string; label?: string },
      ip?: string,
    ): Promise<GuardDeviceRow> {
      const revoked = await database.withTenant(actor.tenantId, async (tx) => {
        const known = await repository.findByKey(tx, actor.tenantId, body.deviceId);
        if (!known?.revokedAt) return null;
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'device.revoked_contact',
          targetType: 'guard_device',
          targetId: known.id,
          ip,
          details: {},
        });
        return known;
      });
      // Thrown after the transaction so the audit row is kept.
      if (revoked) throw revokedError();
      return database.withTenant(actor.tenantId, (tx) =>
        repository.touch(tx, {
          tenantId: actor.tenantId,
          id: newId(),
          deviceKey: body.deviceId,
          label: body.label ?? null,
          lastUserId: actor.userId,
          lastUserName: actor.fullName ?? actor.username,
          lastContactAt: clock.now(),
        }),
      );
    },

    list: (actor: Actor) =>
      database.withTenant(actor.tenantId, (tx) => repository.list(tx, actor.tenantId)),

    /** POST /api/devices/{id}/revoke: audited; revoking a revoked device changes nothing. */
    revoke: (actor: Actor, id: string, ip?: string) =>
      database.withTenant(actor.tenantId, async (tx) => {
        const device = await repository.find(tx, actor.tenantId, id);
        if (!device) throw new AppError('NOT_FOUND', 'Device not found.');
        if (device.revokedAt) return device;
        const revoked = await repository.revoke(tx, actor.tenantId, id, {
          revokedAt: clock.now(),
          revokedBy: actor.userId,
          revokedByName: actor.fullName ?? actor.username,
        });
        if (!revoked) throw new AppError('NOT_FOUND', 'Device not found.');
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'device.revoked',
          targetType: 'guard_device',
          targetId: id,
          ip,
          details: { label: device.label, lastUserId: device.lastUserId },
        });
        return revoked;
      }),
  };
}
