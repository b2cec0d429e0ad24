import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import {
  DeviceContactBodySchema,
  DeviceParamsSchema,
  type GuardDevice,
  GuardDeviceListSchema,
  GuardDeviceSchema,
} from '@boomgate/contracts/devices';

import { ALL_ROLES, rolesAccess } from '@/platform/access';

import type { DevicesService } from './devices.service';
import type { GuardDeviceRow } from './devices.table';

const ADMINS = rolesAccess(['super_admin', 'tenant_admin']);

const toDevice = (row: GuardDeviceRow): GuardDevice => ({
  id: row.id,
  deviceId: row.deviceKey,
  label: row.label,
  lastUser: row.lastUserId ? { id: row.lastUserId, name: row.lastUserName } : null,
  firstSeenAt: row.firstSeenAt.toISOString(),
  lastContactAt: row.lastContactAt.toISOString(),
  revokedAt: row.revokedAt?.toISOString() ?? null,
  revokedBy: row.revokedAt ? { id: row.revokedBy, name: row.revokedByName } : null,
});

export function devicesRoutes(service: DevicesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/devices/contact',
      {
        config: rolesAccess(ALL_ROLES),
        schema: {
          tags: ['devices'],
          operationId: 'deviceContact',
          description:
            'Issue 18: a device with an offline queue reports in whenever the server answers (registered at its first contact). 403 DEVICE_REVOKED for a revoked device: the app wipes its queue and cached data.',
          body: DeviceContactBodySchema,
          response: { 200: GuardDeviceSchema },
        },
      },
      async (request) => toDevice(await service.contact(request.actor, request.body, request.ip)),
    );

    app.get(
      '/devices',
      {
        config: ADMINS,
        schema: {
          tags: ['devices'],
          operationId: 'listDevices',
          description: "The organization's guard devices, last contact first.",
          response: { 200: GuardDeviceListSchema },
        },
      },
      async (request) => (await service.list(request.actor)).map(toDevice),
    );

    app.post(
      '/devices/:id/revoke',
      {
        config: ADMINS,
        schema: {
          tags: ['devices'],
          operationId: 'revokeDevice',
          description:
            'Revokes a lost or stolen device (audited as `device.revoked`): at its next contact it is refused with 403 DEVICE_REVOKED and wipes its offline queue and cache.',
          params: DeviceParamsSchema,
          response: { 200: GuardDeviceSchema },
        },
      },
      async (request) =>
        toDevice(await service.revoke(request.actor, request.params.id, request.ip)),
    );
  };
}
