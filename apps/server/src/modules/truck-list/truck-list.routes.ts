import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { NEXT_CURSOR_HEADER, PageQuerySchema } from '@boomgate/contracts/primitives';
import { TRUCK_LIST_COUNT_HEADERS, TruckListSchema } from '@boomgate/contracts/truck-list';

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
          description:
            'Number-plate camera reads, newest first, one page (`limit`, default 100). When more ' +
            'exist, the X-Next-Cursor header holds the `cursor` of the next page. The summary ' +
            'cards over every read: X-Total-Count, X-With-Order-Number-Count, X-Today-Count ' +
            '(the site day, SAST).',
          querystring: PageQuerySchema,
          response: { 200: TruckListSchema },
        },
      },
      async (request, reply) => {
        const { rows, summary, nextCursor } = await service.listTrucks(
          request.actor,
          request.query,
        );
        for (const [key, header] of Object.entries(TRUCK_LIST_COUNT_HEADERS))
          void reply.header(header, String(summary[key as keyof typeof summary]));
        if (nextCursor) void reply.header(NEXT_CURSOR_HEADER, nextCursor);
        return rows.map((row) => ({
          id: row.id,
          timestamp: row.timestamp.toISOString(),
          truckNumber: row.truckNumber,
          plateNumber: row.plateNumber,
          category: row.category,
          transportName: row.transportName,
        }));
      },
    );
  };
}
