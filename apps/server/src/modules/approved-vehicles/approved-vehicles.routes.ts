import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import {
  type ApprovedVehicle,
  ApprovedVehicleListSchema,
  ApprovedVehicleSchema,
  CreateApprovedVehicleBodySchema,
  PlateLookupSchema,
  PlateParamsSchema,
  ProposalDecisionBodySchema,
  ProposalDecisionSchema,
  UpdateTrailersBodySchema,
  VehicleIdParamsSchema,
  VerifyVehicleSchema,
} from '@boomgate/contracts/approved-vehicles';
import { NoContentSchema } from '@boomgate/contracts/primitives';

import type { ImagesService } from '@/modules/images';
import { ALL_ROLES, rolesAccess } from '@/platform/access';
import { IMAGE_BODY_LIMIT_BYTES } from '@/platform/images';

import { approvalStatus } from './approval';
import type { ApprovedVehiclesService } from './approved-vehicles.service';
import type { ApprovedVehicleRow } from './approved-vehicles.table';

// Guards pre-register and check vehicles at the gate; every role works the gate.
const gateStaff = rolesAccess(ALL_ROLES);
// Separation of duties: a guard's proposal is confirmed or rejected by back_office or an admin.
const approvers = rolesAccess(['super_admin', 'tenant_admin', 'back_office']);

const PENDING_APPROVAL = { register: 'registration', delete: 'deletion' } as const;

/** The response shape of a vehicle; `today` is the site's calendar day (for isActive). */
export function toApprovedVehicleDto(
  row: ApprovedVehicleRow,
  images: Pick<ImagesService, 'urlFor'>,
  today: string,
): ApprovedVehicle {
  return {
    id: row.id,
    plateNumber: row.plateNumber,
    driverName: row.driverName,
    driverLicense: row.driverLicense,
    company: row.company,
    driverPhoto: images.urlFor(row.driverPhotoKey),
    approvedUntil: row.approvedUntil,
    isActive: approvalStatus(row, today) === 'approved',
    hasFaceEnrolment: row.driverFaceDescriptor !== null,
    createdAt: row.createdAt.toISOString(),
    pendingApproval: row.proposal ? PENDING_APPROVAL[row.proposal] : null,
    trailers: row.trailers,
  };
}

export function approvedVehiclesRoutes(
  service: ApprovedVehiclesService,
  images: Pick<ImagesService, 'urlFor'>,
): FastifyPluginAsyncZod {
  const toApprovedVehicle = (row: ApprovedVehicleRow) =>
    toApprovedVehicleDto(row, images, service.today());

  return async (app) => {
    app.get(
      '/approved-vehicles',
      {
        config: gateStaff,
        schema: {
          tags: ['approved-vehicles'],
          operationId: 'listApprovedVehicles',
          response: { 200: ApprovedVehicleListSchema },
        },
      },
      async (request) => (await service.listVehicles(request.actor)).map(toApprovedVehicle),
    );

    app.post(
      '/approved-vehicles',
      {
        config: gateStaff,
        bodyLimit: IMAGE_BODY_LIMIT_BYTES,
        schema: {
          tags: ['approved-vehicles'],
          operationId: 'registerApprovedVehicle',
          body: CreateApprovedVehicleBodySchema,
          response: { 201: ApprovedVehicleSchema },
        },
      },
      async (request, reply) => {
        const row = await service.registerVehicle(request.actor, request.body, request.ip);
        return reply.code(201).send(toApprovedVehicle(row));
      },
    );

    app.delete(
      '/approved-vehicles/:id',
      {
        config: gateStaff,
        schema: {
          tags: ['approved-vehicles'],
          operationId: 'deleteApprovedVehicle',
          description:
            'Deletes the approval (204). A security_guard under separation of duties (the ' +
            "tenant's separationOfDuties setting, on by default) proposes the deletion instead: " +
            '202 with the vehicle, pendingApproval "deletion", until back_office or an admin ' +
            'confirms or rejects it.',
          params: VehicleIdParamsSchema,
          response: { 202: ApprovedVehicleSchema, 204: NoContentSchema },
        },
      },
      async (request, reply) => {
        const { proposed } = await service.deleteVehicle(
          request.actor,
          request.params.id,
          request.ip,
        );
        if (proposed) return reply.code(202).send(toApprovedVehicle(proposed));
        return reply.code(204).send(null);
      },
    );

    app.put(
      '/approved-vehicles/:id/trailers',
      {
        config: approvers,
        schema: {
          tags: ['approved-vehicles'],
          operationId: 'updateApprovedVehicleTrailers',
          summary: "Replace a vehicle's trailers (a rig's, at most two)",
          description:
            'Issue 21: `{trailers: [{plateNumber, discNumber?, discExpiry?}]}` replaces the ' +
            'trailers (an empty list makes the vehicle rigid). 400 for more than two trailers or ' +
            "a plate given twice; 422 when a trailer carries the vehicle's own plate or the " +
            'watchlist blocks a trailer plate (refusal audited, hits raised). Audited ' +
            '(approved-vehicle.trailers-updated, plates before and after).',
          params: VehicleIdParamsSchema,
          body: UpdateTrailersBodySchema,
          response: { 200: ApprovedVehicleSchema },
        },
      },
      async (request) =>
        toApprovedVehicle(
          await service.updateTrailers(request.actor, request.params.id, request.body, request.ip),
        ),
    );

    for (const decision of ['confirm', 'reject'] as const) {
      app.post(
        `/approved-vehicles/:id/${decision}`,
        {
          config: approvers,
          schema: {
            tags: ['approved-vehicles'],
            operationId:
              decision === 'confirm' ? 'confirmVehicleProposal' : 'rejectVehicleProposal',
            summary:
              decision === 'confirm'
                ? "Confirm a security guard's proposed registration or deletion"
                : "Reject a security guard's proposed registration or deletion",
            description:
              decision === 'confirm'
                ? 'A proposed registration becomes an approval (outcome "approved"); a proposed ' +
                  'deletion deletes the vehicle (outcome "deleted", vehicle null). 409 when ' +
                  'nothing is pending. Audited.'
                : 'A proposed registration is deleted with its photo (vehicle null); a proposed ' +
                  'deletion is dropped and the vehicle stays. 409 when nothing is pending. Audited.',
            params: VehicleIdParamsSchema,
            body: ProposalDecisionBodySchema,
            response: { 200: ProposalDecisionSchema },
          },
        },
        async (request) => {
          const input = [request.actor, request.params.id, request.body, request.ip] as const;
          const { outcome, vehicle } =
            decision === 'confirm'
              ? await service.confirmProposal(...input)
              : await service.rejectProposal(...input);
          return { outcome, vehicle: vehicle ? toApprovedVehicle(vehicle) : null };
        },
      );
    }

    app.get(
      '/approved-vehicles/plate/:plate',
      {
        config: gateStaff,
        schema: {
          tags: ['approved-vehicles'],
          operationId: 'lookupApprovedVehicleByPlate',
          params: PlateParamsSchema,
          response: { 200: PlateLookupSchema },
        },
      },
      async (request) => {
        const { row, induction } = await service.lookupPlate(request.actor, request.params.plate);
        const vehicle = toApprovedVehicle(row);
        return {
          id: vehicle.id,
          plateNumber: vehicle.plateNumber,
          isActive: vehicle.isActive,
          driverPhoto: vehicle.driverPhoto,
          driverName: vehicle.driverName,
          company: vehicle.company,
          hasFaceEnrolment: vehicle.hasFaceEnrolment,
          pendingApproval: vehicle.pendingApproval === 'registration',
          induction,
        };
      },
    );

    app.get(
      '/verify-vehicle/:plate',
      {
        config: gateStaff,
        schema: {
          tags: ['approved-vehicles'],
          operationId: 'verifyVehicle',
          params: PlateParamsSchema,
          response: { 200: VerifyVehicleSchema },
        },
      },
      async (request) => {
        const { status, row, plateNumber } = await service.verifyVehicle(
          request.actor,
          request.params.plate,
        );
        return {
          approved: status === 'approved',
          reason: status,
          plateNumber,
          vehicle: row ? toApprovedVehicle(row) : null,
        };
      },
    );
  };
}
