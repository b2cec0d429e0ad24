import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { IdSchema } from '@boomgate/contracts/primitives';
import type { Role } from '@boomgate/contracts/roles';
import {
  OnSiteQuerySchema,
  RecordExitBodySchema,
  RecordPlateExitBodySchema,
  SignInPersonBodySchema,
  type Visit,
  VisitListSchema,
  VisitSchema,
} from '@boomgate/contracts/visits';

import { ALL_ROLES, rolesAccess } from '@/platform/access';
import { encodeCursor, setPageHeaders } from '@/platform/page-cursor';
import { maskIdentifier } from '@/platform/personal-data';
import { presentedResponse } from '@/platform/response-serializer';

import type { VisitView, VisitsService } from './visits.service';

const gateStaff = rolesAccess(ALL_ROLES);
const IdParamsSchema = z.object({ id: IdSchema });
/** Issue 18: an exit queued offline carries its client id, so a replay is stored once. */
const ExitHeadersSchema = z.object({
  'idempotency-key': z
    .string()
    .min(1)
    .max(100)
    .regex(/^[\w.:-]+$/, 'Idempotency-Key may contain letters, digits and . _ : - only')
    .optional(),
});

/** The wire format; a guard sees ID numbers masked, as in the entry lists (SEC-15). */
export function toVisit(row: VisitView, role: Role): Visit {
  return {
    id: row.id,
    kind: row.kind,
    siteId: row.siteId,
    gateId: row.gateId,
    entryLogId: row.entryLogId,
    plateNumber: row.plateNumber,
    personName: row.personName,
    personIdNumber:
      role === 'security_guard' ? maskIdentifier(row.personIdNumber) : row.personIdNumber,
    company: row.company,
    enteredAt: row.enteredAt.toISOString(),
    enteredBy: { id: row.enteredBy, name: row.enteredByName },
    reEntry: row.reEntry,
    overstay: row.overstay,
    exitedAt: row.exitedAt?.toISOString() ?? null,
    exitGateId: row.exitGateId,
    exitSource: row.exitSource,
    exitedBy: row.exitedAt ? { id: row.exitedBy, name: row.exitedByName } : null,
    exitTicketNumber: row.exitTicketNumber,
    exitSealNumbers: row.exitSealNumbers,
    // In the schema's key order (jsonb keeps keys in its own): the list is serialized as built.
    exitMismatches: (row.exitMismatches ?? []).map(({ code, entry, exit, message }) => ({
      code,
      entry,
      exit,
      message,
    })),
    turnaroundMinutes: row.exitedAt
      ? Math.round((row.exitedAt.getTime() - row.enteredAt.getTime()) / 60_000)
      : null,
  };
}

export function visitsRoutes(service: VisitsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/entry-logs/:id/exit',
      {
        config: gateStaff,
        schema: {
          tags: ['visits'],
          operationId: 'recordEntryExit',
          description:
            "Records the vehicle's exit: 404 for an unknown entry, 409 when it has already exited (or never came in). With an Idempotency-Key, a replay of the same exit answers 200 with it.",
          headers: ExitHeadersSchema,
          params: IdParamsSchema,
          body: RecordExitBodySchema,
          response: { 200: VisitSchema },
        },
      },
      async (request) =>
        toVisit(
          await service.recordEntryExit(
            request.actor,
            request.params.id,
            request.body,
            request.ip,
            request.headers['idempotency-key'],
          ),
          request.actor.role,
        ),
    );

    app.get(
      '/entry-logs/:id/visit',
      {
        config: gateStaff,
        schema: {
          tags: ['visits'],
          operationId: 'getEntryVisit',
          description:
            "The entry's visit: on site or exited, with the exit's gate, turnaround and the mismatches of its ticket and seals with the entry's. 404 when the entry has no visit (refused, unknown, another site's).",
          params: IdParamsSchema,
          response: { 200: VisitSchema },
        },
      },
      async (request) =>
        toVisit(await service.entryVisit(request.actor, request.params.id), request.actor.role),
    );

    app.post(
      '/visits/:id/exit',
      {
        config: gateStaff,
        schema: {
          tags: ['visits'],
          operationId: 'recordVisitExit',
          description: 'Records the exit of a visit (a person on foot, or a vehicle by its visit).',
          headers: ExitHeadersSchema,
          params: IdParamsSchema,
          body: RecordExitBodySchema,
          response: { 200: VisitSchema },
        },
      },
      async (request) =>
        toVisit(
          await service.recordVisitExit(
            request.actor,
            request.params.id,
            request.body,
            request.ip,
            request.headers['idempotency-key'],
          ),
          request.actor.role,
        ),
    );

    app.post(
      '/visits/plate-exit',
      {
        config: gateStaff,
        schema: {
          tags: ['visits'],
          operationId: 'recordPlateExit',
          description:
            "A guard's plate scan (or typed plate) at an out-lane records the vehicle's exit: the " +
            "plate's open visit at the gate's site (`gateId`), else at `siteId`, else at the " +
            "caller's sites. 404 when the plate is not on site there; a gate or site outside the " +
            "caller's sites is 404. `plateImageCaptureId` (POST /api/ocr): its receipt time is the " +
            "exit's time. The ticket and seals are checked against the entry's (`exitMismatches`).",
          body: RecordPlateExitBodySchema,
          response: { 200: VisitSchema },
        },
      },
      async (request) =>
        toVisit(
          await service.recordPlateExitByActor(request.actor, request.body, request.ip),
          request.actor.role,
        ),
    );

    app.post(
      '/visits/people',
      {
        config: gateStaff,
        schema: {
          tags: ['visits'],
          operationId: 'signInPerson',
          description: 'Signs in a visitor, contractor or passenger on foot at a gate.',
          body: SignInPersonBodySchema,
          response: { 201: VisitSchema },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(
            toVisit(
              await service.signInPerson(request.actor, request.body, request.ip),
              request.actor.role,
            ),
          ),
    );

    app.get(
      '/on-site',
      {
        config: gateStaff,
        schema: {
          tags: ['visits'],
          operationId: 'listOnSite',
          description:
            'Vehicles and people inside now, newest first (one site, or every site of the caller). When more exist, the X-Next-Cursor header holds the `cursor` of the next page.',
          querystring: OnSiteQuerySchema,
          response: { 200: presentedResponse(VisitListSchema) },
        },
      },
      async (request, reply) => {
        const page = await service.onSite(request.actor, request.query);
        setPageHeaders(reply, page.next ? encodeCursor(page.next) : null);
        return page.rows.map((row) => toVisit(row, request.actor.role));
      },
    );
  };
}
