import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import {
  DeliveryIdParamsSchema,
  INCOMING_FEED_COUNT_HEADERS,
  INCOMING_REQUEST_BODY_LIMIT_BYTES,
  IncomingRequestAckSchema,
  type IncomingRequestEntry,
  IncomingRequestIdParamsSchema,
  IncomingRequestListSchema,
  IncomingRequestParamsSchema,
  IncomingRequestPayloadSchema,
  type Integration,
  IntegrationSchema,
  IntegrationSecretSchema,
  ListDeliveriesQuerySchema,
  ProcessRequestBodySchema,
  PendingRequestsQuerySchema,
  ProcessRequestResponseSchema,
  SetCallbackUrlBodySchema,
  type WebhookDelivery,
  WebhookDeliveryListSchema,
  WebhookDeliverySchema,
  incomingRequestStatus,
} from '@boomgate/contracts/webhooks';

import { IncomingExitPayloadSchema, type Visit, VisitSchema } from '@boomgate/contracts/visits';

import { ALL_ROLES, publicAccess, rolesAccess } from '@/platform/access';
import { AppError } from '@/platform/errors';
import { holdsNulCharacter, UNSTORABLE_VALUE_MESSAGE } from '@/platform/http';
import { setPageHeaders } from '@/platform/page-cursor';
import { presentedResponse } from '@/platform/response-serializer';

import { MAX_DELIVERY_ATTEMPTS } from './delivery-policy';
import { pairTrailers } from './incoming-trailers';
import { WebhookVerificationError, type WebhooksService } from './webhooks.service';
import type {
  IncomingRequestListRow,
  WebhookDeliveryRow,
  WebhookIntegrationRow,
} from './webhooks.table';

// Spec §6: every role sees the feed. Processing captures the driver's documents where the driver
// is, which is the gate as often as the office, so guards may process too (audited per user).
const feedAccess = rolesAccess(ALL_ROLES);
const adminAccess = rolesAccess(['tenant_admin', 'super_admin']);

export const incomingUrlFor = (tenantId: string) => `/api/webhook/incoming/${tenantId}`;

export const SIGNATURE_HELP = `Requests are signed with the Standard Webhooks scheme (https://www.standardwebhooks.com) and the
tenant's integration secret (\`whsec_\` + base64; create or rotate it with \`POST /api/integrations/secret\`).

* \`webhook-id\`: a unique message id. Resending the same message with the same id is safe: it is stored once.
* \`webhook-timestamp\`: Unix seconds; more than 5 minutes from our clock is refused.
* \`webhook-signature\`: \`v1,<base64>\`, space-separated if several, where the value is
  base64(HMAC-SHA256(secret bytes, "<webhook-id>.<webhook-timestamp>.<raw body bytes>")) and the secret bytes
  are the base64-decoded part after \`whsec_\`. Sign the exact bytes you send: re-serialised JSON will not verify.

After a rotation the previous secret is accepted for the rotation window (24 h by default).`;

/** Keys in IncomingRequestEntrySchema's order: the feed is serialized as built. */
export function toIncomingRequestEntry(row: IncomingRequestListRow): IncomingRequestEntry {
  return {
    id: row.id,
    timestamp: row.timestamp.toISOString(),
    plateNumber: row.plateNumber,
    driverName: row.driverName,
    driverSurname: row.driverSurname,
    driverIdNumber: row.driverIdNumber,
    driverPhone1: row.driverPhone1,
    transportName: row.transportName,
    referenceNumber: row.referenceNumber,
    weighbridgeTicketId: row.weighbridgeTicketId,
    extractedDiskData: row.extractedDiskData,
    status: incomingRequestStatus(row),
    completedAt: row.completedAt?.toISOString() ?? null,
    entryLogId: row.entryLogId ?? null,
    trailerPlates: row.trailerPlates,
    trailerLicenceDiscIds: row.trailerLicenceDiscIds,
    trailers: pairTrailers(row.trailerPlates, row.trailerDiscs ?? []),
    // Rebuilt in the schema's key order (jsonb keeps keys in its own): the list is serialized as built.
    warnings: row.warnings.map(({ code, message }) => ({ code, message })),
    ruleEvidence: row.ruleEvidence.map(({ document, source, captureId }) => ({
      document,
      source,
      captureId,
    })),
  };
}

function toIntegration(tenantId: string, row: WebhookIntegrationRow | undefined): Integration {
  return {
    incomingUrl: incomingUrlFor(tenantId),
    hasSecret: Boolean(row?.secretCiphertext),
    secretCreatedAt: row?.secretCreatedAt?.toISOString() ?? null,
    previousSecretExpiresAt: row?.previousSecretExpiresAt?.toISOString() ?? null,
    callbackUrl: row?.callbackUrl ?? null,
    callbackDisabledAt: row?.callbackDisabledAt?.toISOString() ?? null,
    callbackDisabledReason: row?.callbackDisabledReason ?? null,
  };
}

function toDelivery(row: WebhookDeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    webhookId: row.webhookId,
    eventType: row.eventType,
    incomingRequestId: row.incomingRequestId,
    status: row.status,
    attempts: row.attempts,
    maxAttempts: MAX_DELIVERY_ATTEMPTS,
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    lastResponseStatus: row.lastResponseStatus,
    lastError: row.lastError,
    nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The incoming feed, processing, and the tenant admin's integration settings (cookie sessions). */
export function webhooksRoutes(service: WebhooksService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/webhook/pending-requests',
      {
        config: feedAccess,
        schema: {
          tags: ['incoming-feed'],
          operationId: 'listIncomingRequests',
          description:
            'Incoming entries of the tenant, newest first, one page (`limit`, default 100); polled ' +
            'by the feed. When more exist, the X-Next-Cursor header holds the `cursor` of the next ' +
            "page. `siteId`: one site's entries (a guard sees their sites' only). The cards over " +
            'every entry: X-Total-Count, X-Processed-Count, X-Pending-Count.',
          querystring: PendingRequestsQuerySchema,
          response: { 200: presentedResponse(IncomingRequestListSchema) },
        },
      },
      async (request, reply) => {
        const { rows, summary, nextCursor } = await service.listIncomingRequests(
          request.actor,
          request.query,
        );
        setPageHeaders(reply, nextCursor, {
          headers: INCOMING_FEED_COUNT_HEADERS,
          values: summary,
        });
        return rows.map(toIncomingRequestEntry);
      },
    );

    app.post(
      '/webhook/process-request/:id',
      {
        config: feedAccess,
        schema: {
          tags: ['incoming-feed'],
          operationId: 'processIncomingRequest',
          description:
            'Completes (or edits) an entry with the captured data and queues the signed callback ' +
            '(`incoming-request.completed`) to the tenant’s callback URL in the same transaction. ' +
            'Optional `expectedCompletedAt` makes the call conditional: null for an entry not yet ' +
            'processed, the entry’s `completedAt` to edit a processed one. When the entry is no ' +
            'longer in that state the answer is 409 CONFLICT and no callback is sent, so two ' +
            'people processing the same entry at once, or a double submit, queue one callback. ' +
            'Omitted, the call completes or edits the entry as it is (the behaviour before the ' +
            'field existed); concurrent calls are applied one after another, each with its own ' +
            'completion time and its own callback. `callbackQueued` says whether the callback can ' +
            'go out: false when the tenant has no callback URL, it is disabled (410) or there is ' +
            'no secret to sign it (the outbox row is then dead-lettered with that reason). ' +
            'Issue 21: `trailerPlates`/`trailerLicenceDiscIds` are checked against the approved ' +
            'vehicle’s rig (a failure is 422); `weighbridgeTicketCaptureId` cites the ticket read ' +
            'in the dialog, whose trailer registrations the rig lacks come back as `warnings`. ' +
            'The tenant’s document rules run on the completion (the licence end date, the ID ' +
            'number’s checksum, the induction, the driver against the registered driver): a ' +
            '`block` rule is 422 naming it, a `warn` rule one of the `warnings`. The warnings are ' +
            'stored on the entry (listed with it) and sent with the callback. The rules judge the ' +
            'readings stored for `driversLicenceCaptureId` and `identityDocumentCaptureId` (the ' +
            'dialog’s captures; 400 when not the organization’s reading of that type), not the ' +
            'stated details; those only for a document not captured, and the verdict says so. ' +
            '`ruleEvidence` records which (capture ids, or `stated`).',
          params: IncomingRequestIdParamsSchema,
          body: ProcessRequestBodySchema,
          response: { 200: ProcessRequestResponseSchema },
        },
      },
      async (request) => {
        const { row, callbackQueued, warnings } = await service.processRequest(
          request.actor,
          request.params.id,
          request.body,
          request.ip,
        );
        return { ...toIncomingRequestEntry(row), callbackQueued, warnings };
      },
    );

    app.get(
      '/integrations',
      {
        config: adminAccess,
        schema: {
          tags: ['integrations'],
          operationId: 'getIntegration',
          response: { 200: IntegrationSchema },
        },
      },
      async (request) =>
        toIntegration(request.actor.tenantId, await service.getIntegration(request.actor)),
    );

    app.post(
      '/integrations/secret',
      {
        config: adminAccess,
        schema: {
          tags: ['integrations'],
          operationId: 'rotateIntegrationSecret',
          description:
            'Creates the integration secret, or replaces it. The secret is shown only in this response. ' +
            'The previous secret stays valid (inbound) and also signs callbacks until `previousSecretExpiresAt`.',
          response: { 201: IntegrationSecretSchema },
        },
      },
      async (request, reply) => {
        const { secret, row } = await service.rotateSecret(request.actor, request.ip);
        return reply.code(201).send({
          secret,
          createdAt: (row.secretCreatedAt ?? new Date()).toISOString(),
          previousSecretExpiresAt: row.previousSecretExpiresAt?.toISOString() ?? null,
        });
      },
    );

    app.patch(
      '/integrations',
      {
        config: adminAccess,
        schema: {
          tags: ['integrations'],
          operationId: 'setCallbackUrl',
          description:
            'Sets the callback URL (null clears it). https only in production; private, loopback, ' +
            'link-local and other non-public addresses are refused. Saving re-enables a disabled endpoint.',
          body: SetCallbackUrlBodySchema,
          response: { 200: IntegrationSchema },
        },
      },
      async (request) =>
        toIntegration(
          request.actor.tenantId,
          await service.setCallbackUrl(request.actor, request.body.callbackUrl || null, request.ip),
        ),
    );

    app.get(
      '/integrations/deliveries',
      {
        config: adminAccess,
        schema: {
          tags: ['integrations'],
          operationId: 'listWebhookDeliveries',
          querystring: ListDeliveriesQuerySchema,
          response: { 200: WebhookDeliveryListSchema },
        },
      },
      async (request) =>
        (await service.listDeliveries(request.actor, request.query)).map(toDelivery),
    );

    app.post(
      '/integrations/deliveries/:id/replay',
      {
        config: adminAccess,
        schema: {
          tags: ['integrations'],
          operationId: 'replayWebhookDelivery',
          description:
            'Sends the callback again from a fresh retry schedule, with the same webhook-id.',
          params: DeliveryIdParamsSchema,
          response: { 202: WebhookDeliverySchema },
        },
      },
      async (request, reply) =>
        reply
          .code(202)
          .send(
            toDelivery(await service.replayDelivery(request.actor, request.params.id, request.ip)),
          ),
    );
  };
}

const WebhookHeadersSchema = z.object({
  'webhook-id': z.string().max(255),
  'webhook-timestamp': z.string(),
  'webhook-signature': z.string(),
});

const verifiedWebhookIds = new WeakMap<object, string>();

/**
 * `POST /api/webhook/incoming/{tenantId}`: public, authenticated by signature. JSON is read as raw
 * bytes by a parser scoped to this plugin (so the signature covers exactly what was sent), limited
 * to 256 KiB; the signature is checked before the body is parsed or validated.
 */
/** Issue 16: the exit a booking system pushes closes the vehicle's visit (the visits module). */
export type WebhookExits = {
  recordWebhookExit(
    tenantId: string,
    webhookId: string,
    payload: z.output<typeof IncomingExitPayloadSchema>,
  ): Promise<{ visit: Visit; duplicate: boolean }>;
};

export const IncomingExitAckSchema = z.object({
  duplicate: z.boolean(),
  visit: VisitSchema,
});

export function incomingWebhookRoutes(
  service: WebhooksService,
  exits?: WebhookExits,
): FastifyPluginAsyncZod {
  return async (app) => {
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: INCOMING_REQUEST_BODY_LIMIT_BYTES },
      (_request, body, done) => done(null, body),
    );

    /** The signature is checked on the raw bytes, before the body is parsed or validated. */
    async function verifySigned(request: FastifyRequest) {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const tenantId = (request.params as { tenantId?: string }).tenantId ?? '';
      try {
        const { webhookId } = await service.verifyIncoming(
          tenantId,
          request.headers,
          raw,
          request.ip,
        );
        verifiedWebhookIds.set(request, webhookId);
        request.log.info({ tenantId, webhookId, result: 'verified' }, 'inbound webhook');
      } catch (error) {
        if (error instanceof WebhookVerificationError) {
          const webhookId = request.headers['webhook-id'];
          request.log.warn(
            { tenantId, webhookId, result: error.reason },
            'inbound webhook refused',
          );
        }
        throw error;
      }
      (request as { body: unknown }).body = parseJson(raw);
    }

    app.post(
      '/webhook/incoming/:tenantId',
      {
        config: publicAccess(),
        bodyLimit: INCOMING_REQUEST_BODY_LIMIT_BYTES,
        schema: {
          tags: ['incoming-feed'],
          operationId: 'receiveIncomingRequest',
          summary: 'Receive a vehicle entry from an external system (signed webhook)',
          description: SIGNATURE_HELP,
          security: [],
          params: IncomingRequestParamsSchema,
          headers: WebhookHeadersSchema,
          body: IncomingRequestPayloadSchema,
          response: { 200: IncomingRequestAckSchema, 202: IncomingRequestAckSchema },
        },
        preValidation: verifySigned,
      },
      async (request, reply) => {
        const webhookId = verifiedWebhookIds.get(request);
        if (!webhookId)
          throw new AppError('UNAUTHENTICATED', 'The webhook signature could not be verified.');
        const ack = await service.recordIncoming(request.params.tenantId, webhookId, request.body);
        return reply.code(ack.duplicate ? 200 : 202).send(ack);
      },
    );

    if (exits)
      app.post(
        '/webhook/incoming/:tenantId/exit',
        {
          config: publicAccess(),
          bodyLimit: INCOMING_REQUEST_BODY_LIMIT_BYTES,
          schema: {
            tags: ['incoming-feed'],
            operationId: 'receiveIncomingExit',
            summary: "Receive a vehicle's exit from an external system (signed webhook)",
            description:
              'Closes the visit of `entryLogId` (the entry id Boomgate gave), else the open visit of ' +
              '`plateNumber`: 404 when there is none, 409 when its exit was recorded otherwise; a ' +
              'redelivery answers 200 with `duplicate`. The exit time is the time of receipt; the ' +
              "ticket and seals sent are checked against the entry's (`exitMismatches`).\n\n" +
              SIGNATURE_HELP,
            security: [],
            params: IncomingRequestParamsSchema,
            headers: WebhookHeadersSchema,
            body: IncomingExitPayloadSchema,
            response: { 200: IncomingExitAckSchema },
          },
          preValidation: verifySigned,
        },
        async (request) => {
          const webhookId = verifiedWebhookIds.get(request);
          if (!webhookId)
            throw new AppError('UNAUTHENTICATED', 'The webhook signature could not be verified.');
          return exits.recordWebhookExit(request.params.tenantId, webhookId, request.body);
        },
      );
  };
}

/** Verified bytes to a value; prototype-polluting keys are dropped. */
function parseJson(raw: Buffer): unknown {
  const text = raw.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text, (key, value: unknown) =>
      key === '__proto__' || key === 'constructor' ? undefined : value,
    );
  } catch {
    throw new AppError('INVALID', 'The request body is not valid JSON.');
  }
  // As every JSON body (app.ts): a NUL would reach sealed columns the database cannot check.
  if (holdsNulCharacter(text)) throw new AppError('INVALID', UNSTORABLE_VALUE_MESSAGE);
  return parsed;
}
