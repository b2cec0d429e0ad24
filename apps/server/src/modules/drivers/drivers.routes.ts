import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import {
  type Driver,
  DriverIdParamsSchema,
  DriverListSchema,
  ListDriversQuerySchema,
  DriverSchema,
  VerifiedDriverSchema,
  VerifyDriverReferenceBodySchema,
} from '@boomgate/contracts/drivers';

import type { ImagesService } from '@/modules/images';
import { ALL_ROLES, REAUTHENTICATION_MINUTES, rolesAccess } from '@/platform/access';
import { attachment } from '@/platform/csv';
import { setPageHeaders } from '@/platform/page-cursor';
import { presentedResponse } from '@/platform/response-serializer';

import type { DriversService } from './drivers.service';
import type { DriverRow } from './drivers.table';

/** Spec §6: onboarding (and so the driver register) is for super, tenant admins and back office. */
export const ONBOARDING_ROLES = ['super_admin', 'tenant_admin', 'back_office'] as const;
const officeStaff = rolesAccess(ONBOARDING_ROLES);

export function toDriver(row: DriverRow, images: Pick<ImagesService, 'urlFor'>): Driver {
  return {
    id: row.id,
    name: row.name,
    surname: row.surname,
    idNumber: row.idNumber,
    phone: row.phone,
    licenceNumber: row.licenceNumber,
    licenceValidTo: row.licenceValidTo,
    transportCompany: row.transportCompany,
    photo: images.urlFor(row.photoKey),
    licenceImage: images.urlFor(row.licenceImageKey),
    livenessConfidence: row.livenessConfidence,
    source: row.source as Driver['source'],
    createdAt: row.createdAt.toISOString(),
  };
}

export function driversRoutes(
  service: DriversService,
  images: Pick<ImagesService, 'urlFor'>,
): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/drivers',
      {
        config: officeStaff,
        schema: {
          tags: ['drivers'],
          operationId: 'listDrivers',
          description:
            'The organization’s drivers, newest first, a page at a time (`limit`, default 100, at most 500); the X-Next-Cursor header holds the next page’s `cursor`.',
          querystring: ListDriversQuerySchema,
          response: { 200: presentedResponse(DriverListSchema) },
        },
      },
      async (request, reply) => {
        const page = await service.listDrivers(request.actor, request.query);
        setPageHeaders(reply, page.nextCursor);
        return page.rows.map((row) => toDriver(row, images));
      },
    );

    app.get(
      '/drivers/export.csv',
      {
        // SEC-25: a bulk export of personal data needs the password given recently.
        config: rolesAccess(ONBOARDING_ROLES, { recentAuthentication: true }),
        schema: {
          tags: ['drivers'],
          operationId: 'exportDrivers',
          description:
            'Every driver as CSV. Cells that a spreadsheet would run as a formula (= + - @, tab, CR) ' +
            'start with an apostrophe. 401 REAUTH_REQUIRED unless the password was given in the ' +
            `last ${REAUTHENTICATION_MINUTES} minutes (POST /api/auth/reauth).`,
          produces: ['text/csv'],
          response: { 200: z.string() },
        },
      },
      async (request, reply) => {
        const csv = await service.exportCsv(request.actor, request.ip);
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', attachment('drivers.csv'))
          .send(csv);
      },
    );

    app.get(
      '/drivers/:id',
      {
        config: officeStaff,
        schema: {
          tags: ['drivers'],
          operationId: 'getDriver',
          params: DriverIdParamsSchema,
          response: { 200: DriverSchema },
        },
      },
      async (request) =>
        toDriver(await service.getDriver(request.actor, request.params.id), images),
    );

    // Guards scan a driver's QR code at the gate: every role may check one.
    app.post(
      '/drivers/verify-reference',
      {
        config: rolesAccess(ALL_ROLES),
        schema: {
          tags: ['drivers'],
          operationId: 'verifyDriverReference',
          description:
            "Checks the signed reference from a self-onboarded driver's QR code and returns the driver. " +
            "A code not signed by this installation is 422; another organization's driver is 404.",
          body: VerifyDriverReferenceBodySchema,
          response: { 200: VerifiedDriverSchema },
        },
      },
      async (request) => {
        const { row, licenceExpired } = await service.verifyReference(
          request.actor,
          request.body.reference,
          request.ip,
        );
        return { driver: toDriver(row, images), licenceExpired };
      },
    );
  };
}
