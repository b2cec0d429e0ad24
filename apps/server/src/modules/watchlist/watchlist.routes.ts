import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { NoContentSchema } from '@boomgate/contracts/primitives';
import {
  CreateWatchlistEntrySchema,
  UpdateWatchlistEntrySchema,
  WatchlistEntryParamsSchema,
  WatchlistEntrySchema,
  WatchlistSchema,
} from '@boomgate/contracts/watchlist';

import { EXPORT_ROW_COUNT_HEADER, ExportRangeQuerySchema } from '@boomgate/contracts/exports';

import { REAUTHENTICATION_MINUTES, rolesAccess } from '@/platform/access';
import { attachment } from '@/platform/csv';

import type { WatchlistExportService } from './watchlist-export.service';

import type { WatchlistService } from './watchlist.service';

// Back office completes incoming entries and may see why one is refused; only admins change the
// list. Guards never read it: a covert entry must stay unknown at the gate.
const readers = rolesAccess(['super_admin', 'tenant_admin', 'back_office']);
const editors = rolesAccess(['super_admin', 'tenant_admin']);

export function watchlistRoutes(
  service: WatchlistService,
  exports: WatchlistExportService,
): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/exports/watchlist-hits',
      {
        // Issue 23: the readers of the list; SEC-25: a bulk export needs the password given recently.
        config: rolesAccess(['super_admin', 'tenant_admin', 'back_office'], {
          recentAuthentication: true,
        }),
        schema: {
          tags: ['watchlist'],
          operationId: 'exportWatchlistHits',
          description:
            'Every watchlist hit (gate and incoming feed) of the site days `from` to `to` (SAST, both inclusive), oldest first, streamed as CSV (formula cells neutralised) or XLSX; ID numbers masked. ' +
            `${EXPORT_ROW_COUNT_HEADER} holds the number of rows. Audited (watchlist-hits.exported). ` +
            `401 REAUTH_REQUIRED unless the password was given in the last ${REAUTHENTICATION_MINUTES} minutes.`,
          querystring: ExportRangeQuerySchema,
          produces: [
            'text/csv',
            'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          ],
        },
      },
      async (request, reply) => {
        const file = await exports.exportHits(request.actor, request.query, request.ip);
        return reply
          .type(file.contentType)
          .header('content-disposition', attachment(file.fileName))
          .header(EXPORT_ROW_COUNT_HEADER, String(file.rowCount))
          .send(file.body);
      },
    );

    app.get(
      '/watchlist',
      {
        config: readers,
        schema: {
          tags: ['watchlist'],
          operationId: 'listWatchlist',
          description: "The organization's watchlist: plates, driver ID numbers, companies.",
          response: { 200: WatchlistSchema },
        },
      },
      async (request) => service.list(request.actor),
    );

    app.post(
      '/watchlist',
      {
        config: editors,
        schema: {
          tags: ['watchlist'],
          operationId: 'createWatchlistEntry',
          description:
            'Adds a plate, driver ID number or transport company. A `block` entry refuses every gate path (`refusalReason: watchlist`); an `alert` grants with a warning.',
          body: CreateWatchlistEntrySchema,
          response: { 201: WatchlistEntrySchema },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await service.create(request.actor, request.body, request.ip)),
    );

    app.patch(
      '/watchlist/:id',
      {
        config: editors,
        schema: {
          tags: ['watchlist'],
          operationId: 'updateWatchlistEntry',
          params: WatchlistEntryParamsSchema,
          body: UpdateWatchlistEntrySchema,
          response: { 200: WatchlistEntrySchema },
        },
      },
      async (request) => service.update(request.actor, request.params.id, request.body, request.ip),
    );

    app.delete(
      '/watchlist/:id',
      {
        config: editors,
        schema: {
          tags: ['watchlist'],
          operationId: 'deleteWatchlistEntry',
          params: WatchlistEntryParamsSchema,
          response: { 204: NoContentSchema },
        },
      },
      async (request, reply) => {
        await service.remove(request.actor, request.params.id, request.ip);
        return reply.code(204).send(null);
      },
    );
  };
}
