import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { TenantSettingsSchema, UpdateTenantSettingsSchema } from '@boomgate/contracts/settings';

import { rolesAccess } from '@/platform/access';

import type { SettingsService } from './settings.service';

export function settingsRoutes(service: SettingsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/settings',
      {
        config: rolesAccess(['super_admin', 'tenant_admin', 'back_office']),
        schema: {
          tags: ['settings'],
          operationId: 'getSettings',
          description:
            "The organization's settings: retention periods, induction validity, anti-spoofing.",
          response: { 200: TenantSettingsSchema },
        },
      },
      async (request) => service.read(request.actor),
    );

    app.patch(
      '/settings',
      {
        config: rolesAccess(['super_admin', 'tenant_admin']),
        schema: {
          tags: ['settings'],
          operationId: 'updateSettings',
          description:
            'Changes any subset of the settings; the change is audited with before and after.',
          body: UpdateTenantSettingsSchema,
          response: { 200: TenantSettingsSchema },
        },
      },
      async (request) => service.update(request.actor, request.body, request.ip),
    );
  };
}
