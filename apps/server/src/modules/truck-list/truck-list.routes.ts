import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { TruckListSchema } from '@boomgate/contracts/truck-list';

import { ALL_ROLES, rolesAccess } from '@/platform/access';

import type { TruckListService } from './truck-list.service';

export function truckListRoutes(service: TruckListService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/truck-list',
      {
        config: rolesAccess(ALL_ROLES),
        schema: {
          tags: ['truck-list'],
          operationId: 'listTrucks',
          response: { 200: TruckListSchema },
        },
      },
      async (request) =>
        (await service.listTrucks(request.actor)).map((row) => ({
          id: row.id,
          timestamp: row.timestamp.toISOString(),
          truckNumber: row.truckNumber,
          plateNumber: row.plateNumber,
          category: row.category,
          transportName: row.transportName,
        })),
    );
  };
}
