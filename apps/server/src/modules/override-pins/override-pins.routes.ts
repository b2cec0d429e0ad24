import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import {
  EntryLogParamsSchema,
  EntryLogSchema,
  type EntryLog,
} from '@boomgate/contracts/entry-logs';
import {
  IssueOverridePinBodySchema,
  IssuedOverridePinSchema,
  OverridePinSettingsSchema,
  PinOverrideBodySchema,
  UpdateOverridePinSettingsSchema,
} from '@boomgate/contracts/override-pins';

import type { EntryWithOverride } from '@/modules/entry-logs';
import type { Role } from '@boomgate/contracts/roles';
import { rolesAccess } from '@/platform/access';

import type { OverridePinsService } from './override-pins.service';

export function overridePinsRoutes(
  service: OverridePinsService,
  present: (role: Role, row: EntryWithOverride) => EntryLog,
): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/settings/override-pins',
      {
        config: rolesAccess(['super_admin', 'tenant_admin', 'back_office']),
        schema: {
          tags: ['settings'],
          operationId: 'getOverridePinSettings',
          description:
            "Whether guards may override a refused entry with a supervisor's one-time PIN, and how long a PIN works (minutes). Off by default.",
          response: { 200: OverridePinSettingsSchema },
        },
      },
      async (request) => service.readSettings(request.actor),
    );

    app.patch(
      '/settings/override-pins',
      {
        config: rolesAccess(['super_admin', 'tenant_admin']),
        schema: {
          tags: ['settings'],
          operationId: 'updateOverridePinSettings',
          description:
            'Turns supervisor PINs on or off, or changes how long a PIN works (1 to 1440 minutes); audited with before and after.',
          body: UpdateOverridePinSettingsSchema,
          response: { 200: OverridePinSettingsSchema },
        },
      },
      async (request) => service.updateSettings(request.actor, request.body, request.ip),
    );

    app.post(
      '/overrides/pins',
      {
        config: rolesAccess(['tenant_admin', 'back_office']),
        schema: {
          tags: ['entry-logs'],
          operationId: 'issueOverridePin',
          description:
            'Issues a one-time supervisor PIN (six digits), shown once in this answer and stored only as a keyed hash. It overrides one refused entry until it expires. Audited as `override_pin.issued`. 409 while PINs are turned off.',
          body: IssueOverridePinBodySchema,
          response: { 201: IssuedOverridePinSchema },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await service.issue(request.actor, request.body, request.ip)),
    );

    app.post(
      '/entry-logs/:id/pin-override',
      {
        config: rolesAccess(['tenant_admin', 'back_office', 'security_guard']),
        schema: {
          tags: ['entry-logs'],
          operationId: 'pinOverrideEntry',
          description:
            "A guard grants one refused entry with a supervisor's one-time PIN and a reason. The override is in the supervisor's name and records who entered the PIN; audited as `entry.overridden` (a wrong PIN as `entry.pin_override_failed`). 403 for a wrong, spent or expired PIN or when PINs are off; 429 after too many attempts; 404/409 as for /override.",
          params: EntryLogParamsSchema,
          body: PinOverrideBodySchema,
          response: { 200: EntryLogSchema },
        },
      },
      async (request) =>
        present(
          request.actor.role,
          await service.overrideWithPin(request.actor, request.params.id, request.body, request.ip),
        ),
    );
  };
}
