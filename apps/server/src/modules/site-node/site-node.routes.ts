import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { SiteSyncStatusSchema } from '@boomgate/contracts/site-sync';

import { ALL_ROLES, rolesAccess } from '@/platform/access';
import { errorBody } from '@/platform/http';

import type { SiteNodeService } from './site-node.service';

export function siteNodeRoutes(service: SiteNodeService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/site-sync/status',
      {
        config: rolesAccess(ALL_ROLES),
        schema: {
          tags: ['site-sync'],
          operationId: 'siteSyncStatus',
          description:
            'Issue 28: whether this server is a site node and when it last synced with central each way. ' +
            '`offline` (site node only): either direction older than SITE_SYNC_STALE_AFTER_MS, so this site decides alone.',
          response: { 200: SiteSyncStatusSchema },
        },
      },
      async (request) => service.status(request.actor.tenantId),
    );
  };
}

/**
 * Master-data writes a site node refuses while SITE_NODE=1 (ADR 0009: central wins; the node's
 * copy is replaced at the next pull). Keyed `METHOD /api/path` as the routes are registered.
 */
export const MANAGED_CENTRALLY_ROUTES: ReadonlySet<string> = new Set([
  'POST /api/approved-vehicles',
  'DELETE /api/approved-vehicles/:id',
  'POST /api/approved-vehicles/:id/confirm',
  'POST /api/approved-vehicles/:id/reject',
  'POST /api/watchlist',
  'PATCH /api/watchlist/:id',
  'DELETE /api/watchlist/:id',
  'PATCH /api/settings',
  'PATCH /api/settings/alerts',
  'PATCH /api/settings/rules',
  'PATCH /api/settings/override-pins',
  'POST /api/users',
  'PATCH /api/users/:id',
  'PATCH /api/users/:id/deactivate',
  'PATCH /api/users/:id/reactivate',
  'POST /api/users/:id/mfa/reset',
  'POST /api/sites',
  'PATCH /api/sites/:id',
  'POST /api/sites/:siteId/gates',
  'PATCH /api/gates/:id',
  // Issue 28c: the tenant's keys are central's (delivered wrapped for the node); a rotation made
  // at the node would be a second key under central's next version.
  'POST /api/keys/rotate',
]);

export const MANAGED_CENTRALLY_MESSAGE =
  'Managed centrally: this site node takes master data from head office. Make the change there; it reaches this site at the next sync.';

/**
 * On a site node: the routes above answer 409 in the spec's error format, after authentication
 * and the role check (a signed-out caller still gets 401, a guard 403 where admins only may).
 */
export function registerManagedCentrally(app: FastifyInstance) {
  app.addHook('preHandler', async (request, reply) => {
    const route = `${request.method} ${request.routeOptions.url ?? ''}`;
    if (!MANAGED_CENTRALLY_ROUTES.has(route)) return;
    return reply.code(409).send(errorBody('CONFLICT', MANAGED_CENTRALLY_MESSAGE));
  });
}
