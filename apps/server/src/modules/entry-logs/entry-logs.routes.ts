import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { EntryWithBarrierSchema } from '@boomgate/contracts/barriers';
import {
  DashboardQuerySchema,
  DashboardSchema,
  type EntryLog,
  EntryLogListSchema,
  EntryLogSchema,
  EntryLogParamsSchema,
  GrantEntryBodySchema,
  ListEntryLogsQuerySchema,
  OverrideEntryBodySchema,
} from '@boomgate/contracts/entry-logs';
import { RefusalReasonSchema } from '@boomgate/contracts/entry-checks';
import { EntryDetailSchema, EntryIdParamsSchema } from '@boomgate/contracts/entry-detail';
import type { Role } from '@boomgate/contracts/roles';

import type { ImagesService } from '@/modules/images';
import { ALL_ROLES, rolesAccess } from '@/platform/access';
import { setPageHeaders } from '@/platform/page-cursor';
import { maskIdentifier } from '@/platform/personal-data';
import { IMAGE_BODY_LIMIT_BYTES } from '@/platform/images';
import { presentedResponse } from '@/platform/response-serializer';

import type { createEntryDetail } from './entry-detail';
import type { EntryLogsService } from './entry-logs.service';
import type { EntryLogRow } from './entry-logs.table';
import type { EntryWithOverride, createEntryOverrides } from './entry-overrides';

const gateStaff = rolesAccess(ALL_ROLES);
// A grant carries up to ten images (plate, disc, face, licence, passport, five permits).
const GRANT_BODY_LIMIT_BYTES = IMAGE_BODY_LIMIT_BYTES * 3;

const GrantHeadersSchema = z.object({
  'idempotency-key': z
    .string()
    .min(1)
    .max(100)
    .regex(/^[\w.:-]+$/, 'Idempotency-Key may contain letters, digits and . _ : - only')
    .optional(),
});

/**
 * A stored refusal reason as the contract knows it (an unknown one reads as none). Built once: a
 * zod schema built per row cost the entry lists measurable CPU at 100 rows a page (issue 27).
 */
const storedRefusalReason = RefusalReasonSchema.nullable().catch(null);

/** An entry row (with its override) as the API shows it; shared with the override-pins module. */
/**
 * A stored warning in EntryWarningSchema's key order (jsonb keeps keys in its own order) and with
 * its keys only: the list is serialized as built.
 */
function presentWarning(warning: EntryLog['warnings'][number]): EntryLog['warnings'][number] {
  const presented: EntryLog['warnings'][number] = {
    code: warning.code,
    severity: warning.severity,
    message: warning.message,
    fields: warning.fields,
  };
  if (warning.source !== undefined) presented.source = warning.source;
  if (warning.rule !== undefined) presented.rule = warning.rule;
  return presented;
}

export function entryLogPresenter(images: Pick<ImagesService, 'urlFor'>) {
  // Keys in EntryLogSchema's order: the list is serialized as built (platform/response-serializer.ts).
  return (row: EntryLogRow & { override?: EntryWithOverride['override'] }): EntryLog => ({
    id: row.id,
    timestamp: row.timestamp.toISOString(),
    category: row.category,
    plateNumber: row.plateNumber,
    extractedPlate: row.extractedPlate,
    vehicleApproved: row.vehicleApproved,
    faceVerified: row.faceVerified,
    // Issue 21: an overridden refusal is an entry; the refusal and the override both show.
    entryGranted: row.entryGranted || Boolean(row.override),
    matchScore: row.matchScore,
    refusalReason: storedRefusalReason.parse(row.refusalReason),
    driverName: row.driverName,
    driverSurname: row.driverSurname,
    driverIdNumber: row.driverIdNumber,
    driverPhone1: row.driverPhone1,
    driverPhone2: row.driverPhone2,
    driverPhone3: row.driverPhone3,
    driverPassportNumber: row.driverPassportNumber,
    transportName: row.transportName,
    vehicleLicenceDiscId: row.vehicleLicenceDiscId,
    identityDocumentId: row.identityDocumentId,
    driversLicenceId: row.driversLicenceId,
    passportRecordId: row.passportRecordId,
    weighbridgeTicketId: row.weighbridgeTicketId,
    plateImage: images.urlFor(row.plateImageKey),
    vehicleDiskImage: images.urlFor(row.vehicleDiskImageKey),
    driverFaceImage: images.urlFor(row.driverFaceImageKey),
    driverLicenseImage: images.urlFor(row.driverLicenseImageKey),
    passportImage: images.urlFor(row.passportImageKey),
    permitImages: row.permitImageKeys.map((key) => images.urlFor(key) ?? key),
    warnings: row.warnings.map(presentWarning),
    recordedBy: { id: row.recordedBy, name: row.recordedByName },
    trailerPlates: row.trailerPlates,
    trailerLicenceDiscIds: row.trailerLicenceDiscIds,
    override: row.override
      ? {
          reason: row.override.reason,
          overriddenAt: row.override.overriddenAt.toISOString(),
          overriddenBy: { id: row.override.overriddenBy, name: row.override.overriddenByName },
          enteredBy: row.override.enteredByName
            ? { id: row.override.enteredBy, name: row.override.enteredByName }
            : null,
        }
      : null,
    siteId: row.siteId,
    gateId: row.gateId,
  });
}

/**
 * Lists as a role may see them (SEC-15): a security guard gets identity and passport numbers masked
 * and no links to face, licence or passport images. Guards verify drivers through the gate flows,
 * which have their own routes; a list of past entries needs neither.
 */
export const entryAsSeenBy = (role: Role, entry: EntryLog): EntryLog =>
  role !== 'security_guard'
    ? entry
    : {
        ...entry,
        driverIdNumber: maskIdentifier(entry.driverIdNumber),
        driverPassportNumber: maskIdentifier(entry.driverPassportNumber),
        driverFaceImage: null,
        driverLicenseImage: null,
        passportImage: null,
      };

export function entryLogsRoutes(
  service: EntryLogsService,
  images: Pick<ImagesService, 'urlFor'>,
  overrides: ReturnType<typeof createEntryOverrides>,
  entryDetail: ReturnType<typeof createEntryDetail>,
): FastifyPluginAsyncZod {
  const toEntryLog = entryLogPresenter(images);

  return async (app) => {
    app.get(
      '/entry-logs',
      {
        config: gateStaff,
        schema: {
          tags: ['entry-logs'],
          operationId: 'listEntryLogs',
          description:
            'Newest first. When more entries exist, the X-Next-Cursor header holds the `cursor` of the next page.',
          querystring: ListEntryLogsQuerySchema,
          response: { 200: presentedResponse(EntryLogListSchema) },
        },
      },
      async (request, reply) => {
        const page = await service.listEntries(request.actor, request.query);
        setPageHeaders(reply, page.nextCursor);
        return page.rows.map((row) => entryAsSeenBy(request.actor.role, toEntryLog(row)));
      },
    );

    app.get(
      '/entry-logs/:id',
      {
        config: gateStaff,
        schema: {
          tags: ['entry-logs'],
          operationId: 'getEntryLog',
          description:
            'One entry with its evidence (issue 15): every capture with its reading, the corrections typed, the face comparison, warnings and the audit trail. Masked for security guards as the lists are.',
          params: EntryIdParamsSchema,
          response: { 200: EntryDetailSchema },
        },
      },
      async (request) =>
        entryDetail(request.actor, request.params.id, (row) =>
          entryAsSeenBy(request.actor.role, toEntryLog(row)),
        ),
    );

    app.post(
      '/auto-gate/grant-entry',
      {
        config: gateStaff,
        bodyLimit: GRANT_BODY_LIMIT_BYTES,
        schema: {
          tags: ['entry-logs'],
          operationId: 'grantEntry',
          description:
            'Logs an entry (auto gate or real gate). Send an Idempotency-Key header so a retry never logs twice: a replay answers 200 with the first entry.',
          headers: GrantHeadersSchema,
          body: GrantEntryBodySchema,
          response: { 200: EntryLogSchema, 201: EntryWithBarrierSchema },
        },
      },
      async (request, reply) => {
        const { entry, isReplay, barrier } = await service.grantEntry(request.actor, request.body, {
          idempotencyKey: request.headers['idempotency-key'],
          ip: request.ip,
        });
        if (isReplay) return reply.code(200).send(toEntryLog(entry));
        return reply.code(201).send({ ...toEntryLog(entry), barrier: barrier ?? null });
      },
    );

    app.post(
      '/entry-logs/:id/override',
      {
        // Supervisors only; a guard's override with a supervisor's PIN is not built yet.
        config: rolesAccess(['tenant_admin', 'back_office']),
        schema: {
          tags: ['entry-logs'],
          operationId: 'overrideEntry',
          description:
            'Grants one refused entry with a reason (issue 21). Audited as `entry.overridden`; the entry keeps its refusalReason and shows the override (who, why, when). 409 for a granted or already overridden entry.',
          params: EntryLogParamsSchema,
          body: OverrideEntryBodySchema,
          response: { 200: EntryLogSchema },
        },
      },
      async (request) =>
        toEntryLog(
          await overrides.override(
            request.actor,
            request.params.id,
            request.body.reason,
            request.ip,
          ),
        ),
    );

    app.get(
      '/dashboard',
      {
        config: gateStaff,
        schema: {
          tags: ['entry-logs'],
          operationId: 'getDashboard',
          querystring: DashboardQuerySchema,
          response: { 200: DashboardSchema },
        },
      },
      async (request) => {
        const { recent, ...stats } = await service.dashboard(request.actor, request.query);
        return {
          ...stats,
          recentEntries: recent.map((row) => entryAsSeenBy(request.actor.role, toEntryLog(row))),
        };
      },
    );
  };
}
