import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import {
  TRUCK_LIST_COUNT_HEADERS,
  TruckListQuerySchema,
  TruckListSchema,
} from '@boomgate/contracts/truck-list';

import { ALL_ROLES, rolesAccess } from '@/platform/access';
import { setPageHeaders } from '@/platform/page-cursor';

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
            'exist, the X-Next-Cursor header holds the `cursor` of the next page. `siteId`: one ' +
            "site's reads (a guard sees their sites' only). The summary " +
            'cards over every read: X-Total-Count, X-With-Order-Number-Count, X-Today-Count ' +
            '(the site day, SAST).',
          querystring: TruckListQuerySchema,
          response: { 200: TruckListSchema },
        },
      },
      async (request, reply) => {
        const { rows, summary, nextCursor } = await service.listTrucks(
          request.actor,
          request.query,
        );
        setPageHeaders(reply, nextCursor, { headers: TRUCK_LIST_COUNT_HEADERS, values: summary });
        return rows.map((row) => ({
          id: row.id,
          timestamp: row.timestamp.toISOString(),
          truckNumber: row.truckNumber,
          plateNumber: row.plateNumber,
          category: row.category,
          transportName: row.transportName,
          entryLogId: row.entryLogId,
          trailerPlates: row.trailerPlates ?? [],
        }));
      },
    );
  };
}
