import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import {
  CreatedIdSchema,
  DriversLicenceBodySchema,
  IdentityDocumentBodySchema,
  LicenceDiscBodySchema,
  PassportBodySchema,
  type WeighbridgeTicket,
  WeighbridgeTicketBodySchema,
  WeighbridgeTicketListSchema,
} from '@boomgate/contracts/documents';

import { type ReadingCorrectionRow, toCorrection } from '@/modules/corrections';
import type { ImagesService } from '@/modules/images';
import { ALL_ROLES, rolesAccess } from '@/platform/access';
import { IMAGE_BODY_LIMIT_BYTES } from '@/platform/images';

import type { DocumentsService } from './documents.service';
import type { WeighbridgeTicketRow } from './documents.table';

const gateStaff = rolesAccess(ALL_ROLES);
const created = { 201: CreatedIdSchema };
const tags = ['documents'];

export function documentsRoutes(
  service: DocumentsService,
  images: Pick<ImagesService, 'urlFor'>,
): FastifyPluginAsyncZod {
  const toTicket = ({
    ticket: row,
    corrections,
  }: {
    ticket: WeighbridgeTicketRow;
    corrections: ReadingCorrectionRow[];
  }): WeighbridgeTicket => {
    const text = (key: string) => {
      const value = row.fields[key];
      return typeof value === 'string' ? value : null;
    };
    return {
      id: row.id,
      createdAt: row.createdAt.toISOString(),
      ticketNumber: row.ticketNumber,
      site: text('site'),
      product: text('product'),
      vehicleReg: row.vehicleReg,
      trailerRegs: text('trailerRegs'),
      tareWeight: row.tareWeightKg,
      grossWeight: row.grossWeightKg,
      netWeight: row.netWeightKg,
      customer: text('customer'),
      transporter: text('transporter'),
      supplier: text('supplier'),
      sealNumbers: text('sealNumbers'),
      tareOperator: text('tareOperator'),
      grossOperator: text('grossOperator'),
      tareDateTime: text('tareDateTime'),
      grossDateTime: text('grossDateTime'),
      ticketImage: images.urlFor(row.imageKey),
      weightsConsistent: row.weightsConsistent,
      corrections: corrections.map(toCorrection),
    };
  };

  return async (app) => {
    app.post(
      '/licence-disc',
      {
        config: gateStaff,
        bodyLimit: IMAGE_BODY_LIMIT_BYTES,
        schema: {
          tags,
          operationId: 'saveLicenceDisc',
          body: LicenceDiscBodySchema,
          response: created,
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(await service.saveLicenceDisc(request.actor, request.body, request.ip)),
    );
    app.post(
      '/identity-document',
      {
        config: gateStaff,
        bodyLimit: IMAGE_BODY_LIMIT_BYTES,
        schema: {
          tags,
          operationId: 'saveIdentityDocument',
          body: IdentityDocumentBodySchema,
          response: created,
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(await service.saveIdentityDocument(request.actor, request.body, request.ip)),
    );
    app.post(
      '/drivers-licence',
      {
        config: gateStaff,
        bodyLimit: IMAGE_BODY_LIMIT_BYTES,
        schema: {
          tags,
          operationId: 'saveDriversLicence',
          body: DriversLicenceBodySchema,
          response: created,
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(await service.saveDriversLicence(request.actor, request.body, request.ip)),
    );
    app.post(
      '/passport',
      {
        config: gateStaff,
        bodyLimit: IMAGE_BODY_LIMIT_BYTES,
        schema: { tags, operationId: 'savePassport', body: PassportBodySchema, response: created },
      },
      async (request, reply) =>
        reply.code(201).send(await service.savePassport(request.actor, request.body, request.ip)),
    );
    app.post(
      '/weighbridge-ticket',
      {
        config: gateStaff,
        bodyLimit: IMAGE_BODY_LIMIT_BYTES,
        schema: {
          tags,
          operationId: 'saveWeighbridgeTicket',
          body: WeighbridgeTicketBodySchema,
          response: created,
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(await service.saveWeighbridgeTicket(request.actor, request.body, request.ip)),
    );

    app.get(
      '/weighbridge-tickets',
      {
        config: gateStaff,
        schema: {
          tags: ['documents'],
          operationId: 'listWeighbridgeTickets',
          response: { 200: WeighbridgeTicketListSchema },
        },
      },
      async (request) => (await service.listWeighbridgeTickets(request.actor)).map(toTicket),
    );
  };
}
