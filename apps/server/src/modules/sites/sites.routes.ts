import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { IdSchema } from '@boomgate/contracts/primitives';
import {
  CreateGateSchema,
  CreateSiteSchema,
  type Gate,
  GateListSchema,
  GateSchema,
  type Site,
  SiteIdParamsSchema,
  SiteListSchema,
  SiteSchema,
  UpdateGateSchema,
  UpdateSiteSchema,
} from '@boomgate/contracts/sites';
import { z } from 'zod';

import { ALL_ROLES, rolesAccess } from '@/platform/access';

import type { SitesService } from './sites.service';
import type { GateRow, SiteRow } from './sites.table';

const siteAdmins = rolesAccess(['super_admin', 'tenant_admin']);
// Guards pick their site and gate at the gate; they see only their own sites.
const gateStaff = rolesAccess(ALL_ROLES);
const IdParamsSchema = z.object({ id: IdSchema });

export const toSite = (row: SiteRow): Site => ({
  id: row.id,
  name: row.name,
  timezone: row.timezone,
  overstayMinutes: row.overstayMinutes,
  isDefault: row.isDefault,
  isActive: row.isActive,
  createdAt: row.createdAt.toISOString(),
});

export const toGate = (row: GateRow): Gate => ({
  id: row.id,
  siteId: row.siteId,
  name: row.name,
  lanes: row.lanes,
  isActive: row.isActive,
  createdAt: row.createdAt.toISOString(),
});

export function sitesRoutes(service: SitesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/sites',
      {
        config: gateStaff,
        schema: {
          tags: ['sites'],
          operationId: 'listSites',
          description: "The tenant's sites; a user assigned to sites sees those only.",
          response: { 200: SiteListSchema },
        },
      },
      async (request) => (await service.listSites(request.actor)).map(toSite),
    );

    app.post(
      '/sites',
      {
        config: siteAdmins,
        schema: {
          tags: ['sites'],
          operationId: 'createSite',
          body: CreateSiteSchema,
          response: { 201: SiteSchema },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(toSite(await service.createSite(request.actor, request.body, request.ip))),
    );

    app.patch(
      '/sites/:id',
      {
        config: siteAdmins,
        schema: {
          tags: ['sites'],
          operationId: 'updateSite',
          params: IdParamsSchema,
          body: UpdateSiteSchema,
          response: { 200: SiteSchema },
        },
      },
      async (request) =>
        toSite(
          await service.updateSite(request.actor, request.params.id, request.body, request.ip),
        ),
    );

    app.get(
      '/sites/:siteId/gates',
      {
        config: gateStaff,
        schema: {
          tags: ['sites'],
          operationId: 'listGates',
          params: SiteIdParamsSchema,
          response: { 200: GateListSchema },
        },
      },
      async (request) =>
        (await service.listGates(request.actor, request.params.siteId)).map(toGate),
    );

    app.post(
      '/sites/:siteId/gates',
      {
        config: siteAdmins,
        schema: {
          tags: ['sites'],
          operationId: 'createGate',
          params: SiteIdParamsSchema,
          body: CreateGateSchema,
          response: { 201: GateSchema },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(
            toGate(
              await service.createGate(
                request.actor,
                request.params.siteId,
                request.body,
                request.ip,
              ),
            ),
          ),
    );

    app.patch(
      '/gates/:id',
      {
        config: siteAdmins,
        schema: {
          tags: ['sites'],
          operationId: 'updateGate',
          params: IdParamsSchema,
          body: UpdateGateSchema,
          response: { 200: GateSchema },
        },
      },
      async (request) =>
        toGate(
          await service.updateGate(request.actor, request.params.id, request.body, request.ip),
        ),
    );
  };
}
