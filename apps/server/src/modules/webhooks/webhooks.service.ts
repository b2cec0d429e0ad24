import { z } from 'zod';

import {
  INCOMING_REQUEST_COMPLETED,
  type IncomingFeedSummary,
  type IncomingRequestCompletedEvent,
  type IncomingRequestPayloadSchema,
  type ProcessRequestBodySchema,
} from '@boomgate/contracts/webhooks';

import type { ApprovedVehiclesService } from '@/modules/approved-vehicles';
import type { AuditService } from '@/modules/audit';
import type { CapturesService } from '@/modules/captures';
import type { CorrectionsService } from '@/modules/corrections';
import { type DocumentRulesService, evaluateDocumentRules } from '@/modules/document-rules';
import { type FieldsOpener, citedReadings } from '@/modules/documents';
import { checkRig } from '@/modules/entry-logs';
import type { InductionService } from '@/modules/induction';
import type { WatchlistService } from '@/modules/watchlist';
import type { RateLimitStore } from '@/modules/rate-limits';
import type { Actor } from '@/modules/sessions';
import { type SiteScoping, type SitesService, inScope, sitesToList } from '@/modules/sites';
import { siteDay } from '@/platform/calendar';
import type { Clock } from '@/platform/clock';
import type { SecretBox } from '@/platform/crypto';
import type { Database, DbExecutor } from '@/platform/db';
import { AppError } from '@/platform/errors';
import { newId } from '@/platform/ids';
import { readPageCursor, toPage } from '@/platform/page-cursor';
import { enqueueJob } from '@/platform/jobs';

import type { CallbackSender, SendResult } from './callback-sender';
import { decideAfterAttempt } from './delivery-policy';
import {
  type CompletionCapture,
  completionDocumentFacts,
  completionDocuments,
  markStated,
} from './incoming-document-rules';
import { pairTrailers } from './incoming-trailers';
import {
  type VerifyFailure,
  generateIntegrationSecret,
  signWebhook,
  verifyWebhook,
} from './signature';
import type { WebhooksRepository } from './webhooks.repository';
import type { WebhookDeliveryRow, WebhookIntegrationRow } from './webhooks.table';

/** The queue job that sends one delivery; payload parsed again when the worker picks it up. */
export const DeliverJob = {
  name: 'webhooks.deliver',
  maxAttempts: 5,
  payload: z.object({ tenantId: z.uuid(), deliveryId: z.uuid() }),
} as const;
export type DeliverJobPayload = z.infer<typeof DeliverJob.payload>;

/** At most one waiting job per delivery: the retry, a sweep and a replay all use this key. */
const deliverJobKey = (deliveryId: string) => `webhooks.deliver:${deliveryId}`;

const SECRET_CACHE_MS = 10_000;
const SECRET_CACHE_MAX_TENANTS = 10_000;
const SWEEP_BATCH = 500;

export type WebhooksServiceDeps = {
  database: Pick<Database, 'db' | 'withTenant' | 'withoutTenant'>;
  repository: WebhooksRepository;
  /** Issue 26: opens a cited document's sealed fields (the tenant keyring). */
  sealer: FieldsOpener;
  secretBox: SecretBox;
  sender: CallbackSender;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  /** How long the previous secret keeps working after a rotation. */
  rotationWindowMs: number;
  /** How long a claimed delivery stays locked; past it a sweep may send it again. */
  leaseMs: number;
  /** The shared rate-limit counters (PostgreSQL): calls whose signature fails, per address. */
  counters: Pick<RateLimitStore, 'hit' | 'refund'>;
  /** Issue 21: completing an incoming entry is a gate path; the watchlist screens it. */
  watchlist: Pick<WatchlistService, 'screen' | 'recordHits'>;
  /**
   * Issue 16: the caller's sites (the feed's `siteId` filter and a guard's scope), and the site
   * a sender names (one of the tenant's).
   */
  sites: SiteScoping & Pick<SitesService['inTransaction'], 'siteOfTenant'>;
  /** Issue 15: the typed values sent with a completion, kept beside what was read. */
  corrections: Pick<CorrectionsService, 'record'>;
  /** Issue 21: the approved vehicle's rig, against which the completion's trailers are checked. */
  vehicles: Pick<ApprovedVehiclesService, 'findByPlate'>;
  /** Issue 21: the weighbridge ticket the dialog read, by its capture (its trailer registrations). */
  captures: Pick<CapturesService, 'findReading'>;
  /** Issue 21: the tenant's document rules, run on what the completion holds. */
  documentRules: Pick<DocumentRulesService, 'rulesOf'>;
  /** Issue 21: the driver's safety induction (induction_missing_or_expired). */
  induction: Pick<InductionService, 'validityWithin'>;
  random?: () => number;
};

/**
 * Signed calls from one address that fail verification: 100 in 10 minutes, then 429 with
 * Retry-After until the window ends. A call counts until its signature verifies, so however many
 * arrive at once no more than the limit are verified; a verified call is given back.
 */
export const BAD_SIGNATURE_RULE = { limit: 100, windowMs: 10 * 60_000 } as const;
const badSignatureKey = (ip: string) => `webhook-signature:ip:${ip}`;

export type WebhooksService = ReturnType<typeof createWebhooksService>;

export type DeliveryOutcome =
  | { kind: 'skipped' }
  | { kind: 'delivered'; status: number }
  | { kind: 'retry'; at: Date; status: number | null; error: string | null }
  | {
      kind: 'failed';
      status: number | null;
      error: string;
      isEndpointDisabled: boolean;
      /** The event the dead letter carried (alerts leave their own out of callback_failed). */
      eventType?: string;
    }
  | { kind: 'stale' };

export class WebhookVerificationError extends AppError {
  constructor(readonly reason: VerifyFailure | 'unknown-tenant') {
    super('UNAUTHENTICATED', 'The webhook signature could not be verified.');
  }
}

const notFound = () => new AppError('NOT_FOUND', 'Incoming request not found.');
const changedMeanwhile = () =>
  new AppError(
    'CONFLICT',
    'This entry was processed by someone else in the meantime. Reload the feed and edit it again if needed.',
  );
const deliveryNotFound = () => new AppError('NOT_FOUND', 'Delivery not found.');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createWebhooksService({
  database,
  repository,
  sealer,
  secretBox,
  sender,
  audit,
  clock,
  rotationWindowMs,
  leaseMs,
  counters,
  watchlist,
  sites,
  corrections,
  vehicles,
  captures,
  documentRules,
  induction,
  random = Math.random,
}: WebhooksServiceDeps) {
  /**
   * Issue 21: the trailer registrations the server read on a cited weighbridge ticket capture,
   * as the rig check takes them ("A, B"); a capture that is not the tenant's ticket is a 400.
   */
  /**
   * Issue 21: a capture the Process Vehicle Entry dialog cites, with the reading the server stored
   * for it; a capture that is not the tenant's reading of `type` is a 400 naming `citedAs`.
   */
  async function dialogCapture(
    tx: DbExecutor,
    tenantId: string,
    captureId: string,
    type: 'weighbridge' | 'license' | 'id',
    citedAs: string,
    what: string,
  ): Promise<CompletionCapture> {
    const capture = await captures.findReading(tx, tenantId, captureId);
    if (!capture || capture.type !== type || !capture.reading)
      throw new AppError(
        'INVALID',
        `${citedAs}: no ${what} read with this capture in this organization.`,
      );
    return { captureId, fields: capture.reading.fields };
  }

  /**
   * Issue 21: the trailer registrations the server read on a cited weighbridge ticket capture,
   * as the rig check takes them ("A, B"); a capture that is not the tenant's ticket is a 400.
   */
  async function ticketTrailerRegs(tx: DbExecutor, tenantId: string, captureId: string) {
    const { fields } = await dialogCapture(
      tx,
      tenantId,
      captureId,
      'weighbridge',
      'weighbridgeTicketCaptureId',
      'weighbridge ticket',
    );
    const regs = fields.trailerRegs?.value;
    return Array.isArray(regs) ? regs.filter((reg) => typeof reg === 'string').join(', ') : '';
  }

  /** The current secret first, then the previous one while its rotation window lasts. */
  function activeSecrets(integration: WebhookIntegrationRow | undefined, now: Date): string[] {
    if (!integration?.secretCiphertext) return [];
    const secrets = [secretBox.open(integration.secretCiphertext, integration.tenantId)];
    if (
      integration.previousSecretCiphertext &&
      integration.previousSecretExpiresAt &&
      integration.previousSecretExpiresAt > now
    ) {
      secrets.push(secretBox.open(integration.previousSecretCiphertext, integration.tenantId));
    }
    return secrets;
  }

  /**
   * Decrypted secrets per tenant for SECRET_CACHE_MS, so a burst of posts costs one database read
   * per tenant, not one per post. This process forgets a tenant's entry when it rotates; another
   * process may accept only the old secret for up to SECRET_CACHE_MS after a rotation (the old
   * one stays valid for the rotation window anyway).
   */
  const secretCache = new Map<
    string,
    { integration: WebhookIntegrationRow | undefined; until: number }
  >();
  async function inboundSecrets(tenantId: string, now: Date): Promise<string[]> {
    const cached = secretCache.get(tenantId);
    if (cached && cached.until > now.getTime()) return activeSecrets(cached.integration, now);
    const integration = await database.withTenant(tenantId, (tx) =>
      repository.findIntegration(tx, tenantId),
    );
    if (secretCache.size >= SECRET_CACHE_MAX_TENANTS) secretCache.clear();
    secretCache.set(tenantId, { integration, until: now.getTime() + SECRET_CACHE_MS });
    return activeSecrets(integration, now);
  }

  async function enqueueDelivery(
    tx: DbExecutor,
    tenantId: string,
    deliveryId: string,
    runAt?: Date,
  ) {
    await enqueueJob<DeliverJobPayload>(
      tx,
      DeliverJob,
      { tenantId, deliveryId },
      {
        runAt,
        jobKey: deliverJobKey(deliveryId),
      },
    );
  }

  return {
    // ----- Inbound ----------------------------------------------------------------------------

    /**
     * Checks a post's Standard Webhooks signature over the raw body with the tenant's secrets.
     * An unknown tenant, a tenant without a secret and a bad signature answer alike (401).
     */
    async verifyIncoming(
      tenantId: string,
      headers: Record<string, string | string[] | undefined>,
      rawBody: Buffer,
      ip = 'unknown',
    ): Promise<{ webhookId: string }> {
      const attempt = await counters.hit(badSignatureKey(ip), BAD_SIGNATURE_RULE);
      if (!attempt.allowed) {
        const minutes = Math.ceil(attempt.retryAfterSeconds / 60);
        throw new AppError(
          'RATE_LIMITED',
          `Too many calls with a bad signature. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
          { retryAfterSeconds: attempt.retryAfterSeconds },
        );
      }
      if (!UUID.test(tenantId)) throw new WebhookVerificationError('unknown-tenant');
      const now = clock.now();
      const result = verifyWebhook({
        headers,
        body: rawBody,
        secrets: await inboundSecrets(tenantId, now),
        now,
      });
      if (!result.ok) throw new WebhookVerificationError(result.reason);
      await counters.refund(badSignatureKey(ip), BAD_SIGNATURE_RULE);
      return { webhookId: result.webhookId };
    },

    /**
     * Stores a verified entry once per webhook-id: concurrent redeliveries of one message meet
     * the unique index, and every one of them answers with the same entry id.
     */
    async recordIncoming(
      tenantId: string,
      webhookId: string,
      payload: z.output<typeof IncomingRequestPayloadSchema>,
    ): Promise<{ id: string; duplicate: boolean }> {
      const receivedAt = clock.now();
      const receive = (db: DbExecutor, siteId: string | null) =>
        repository.receiveIncomingRequest(db, {
          tenantId,
          siteId,
          id: newId(),
          webhookId,
          receivedAt,
          timestamp: payload.timestamp ? new Date(payload.timestamp) : receivedAt,
          plateNumber: payload.plateNumber,
          driverName: payload.driverName,
          driverSurname: payload.driverSurname,
          driverIdNumber: payload.driverIdNumber,
          driverPhone1: payload.driverPhone1,
          transportName: payload.transportName,
          referenceNumber: payload.referenceNumber,
          weighbridgeTicketId: payload.weighbridgeTicketId,
          extractedDiskData: payload.extractedDiskData,
        });
      // Issue 16: a site named is checked (one of the tenant's, active) in the insert's transaction.
      const { siteId } = payload;
      if (!siteId) return receive(database.db, null);
      return database.withTenant(tenantId, async (tx) => {
        await sites.siteOfTenant(tx, tenantId, siteId);
        return receive(tx, siteId);
      });
    },

    // ----- The feed ---------------------------------------------------------------------------

    /** One page of the feed, newest first, and its cards over every incoming entry. */
    /**
     * One page of the feed: the site named (404 outside the caller's sites), else the caller's
     * sites. The cards stay over every entry of the tenant (the day counters are per tenant).
     */
    async listIncomingRequests(
      actor: Actor,
      { limit, cursor, siteId }: { limit: number; cursor?: string; siteId?: string },
    ) {
      const after = readPageCursor(cursor);
      return database.withTenant(actor.tenantId, async (tx) => {
        const siteIds = await sitesToList(tx, actor, sites, siteId);
        const rows = await repository.listIncomingRequests(
          tx,
          actor.tenantId,
          siteIds,
          limit + 1,
          after,
        );
        const counts = await repository.incomingRequestCounts(tx, actor.tenantId);
        const summary: IncomingFeedSummary = {
          ...counts,
          pending: counts.total - counts.processed,
        };
        return { ...toPage(rows, limit), summary };
      });
    },

    /**
     * Completes (or edits) an entry and, in the same transaction, writes the callback to the
     * outbox and enqueues its delivery: the callback exists if and only if the completion does.
     * REL-04: with `expectedCompletedAt` (null or a timestamp) in the body, only one of several
     * concurrent calls on that state of the entry completes it; the others answer 409 and queue
     * nothing. Without it (callers written before REL-04), every call completes or edits the
     * entry as it is then, one after another on the row lock, each with its own callback.
     */
    async processRequest(
      actor: Actor,
      id: string,
      body: z.output<typeof ProcessRequestBodySchema>,
      ip?: string,
    ) {
      const now = clock.now();
      // ----- Issue 21: the watchlist screens the completion and the rig check runs on its
      // trailers (each on the approved vehicle's rig with a disc in date). A `block` refuses it
      // (422, the outcome's message; "Manual check required" for a covert entry); the refusal and
      // its hits are logged in their own transaction, so they stay when the request is refused. -----
      const subject = {
        plateNumbers: [body.plateNumber, ...body.trailerPlates],
        idNumber: body.driverIdNumber,
        company: body.transportName,
      };
      const { refusal, trailerDiscs, warnings, ruleEvidence } = await database.withTenant(
        actor.tenantId,
        async (tx) => {
          // Issue 16: another site's entry is not the caller's to process (404, as unknown). An
          // entry's site never changes, so this check holds for the completion below.
          const found = await repository.incomingRequestSite(tx, actor.tenantId, id);
          if (found && !inScope(await sites.scopeOf(tx, actor), found.siteId)) throw notFound();
          const screening = await watchlist.screen(tx, actor.tenantId, subject);
          const hasTrailers =
            body.trailerPlates.length > 0 || body.trailerLicenceDiscIds.length > 0;
          // The cited trailer discs as read (a 400 for another tenant's): checked here, and
          // their disc numbers and expiry dates go out with the callback.
          const discs = hasTrailers
            ? ((
                await citedReadings(
                  tx,
                  actor.tenantId,
                  {
                    vehicleLicenceDiscId: null,
                    identityDocumentId: null,
                    driversLicenceId: null,
                    passportRecordId: null,
                    weighbridgeTicketId: null,
                    trailerLicenceDiscIds: body.trailerLicenceDiscIds,
                  },
                  sealer,
                )
              ).trailerDiscs ?? [])
            : [];
          // The feed's `weighbridgeTicketId` is the sender's reference; the ticket checked is the
          // one the dialog read, cited by its capture.
          const ticketRegs = body.weighbridgeTicketCaptureId
            ? await ticketTrailerRegs(tx, actor.tenantId, body.weighbridgeTicketCaptureId)
            : null;
          const vehicle = await vehicles.findByPlate(tx, actor.tenantId, body.plateNumber);
          const rigOutcomes =
            hasTrailers || ticketRegs !== null
              ? checkRig({
                  rig: vehicle?.trailers ?? null,
                  trailerPlates: body.trailerPlates,
                  trailerDiscs: discs,
                  ticketTrailerRegs: ticketRegs,
                  today: siteDay(now),
                })
              : [];
          // The tenant's document rules, on the readings the server stored for the licence and
          // ID captured in the dialog; the stated details only for a document not captured,
          // and marked so (incoming-document-rules.ts).
          const documents = completionDocuments(body, {
            licence: body.driversLicenceCaptureId
              ? await dialogCapture(
                  tx,
                  actor.tenantId,
                  body.driversLicenceCaptureId,
                  'license',
                  'driversLicenceCaptureId',
                  "driver's licence",
                )
              : null,
            identity: body.identityDocumentCaptureId
              ? await dialogCapture(
                  tx,
                  actor.tenantId,
                  body.identityDocumentCaptureId,
                  'id',
                  'identityDocumentCaptureId',
                  'ID document',
                )
              : null,
          });
          const ruleModes = await documentRules.rulesOf(tx, actor.tenantId);
          const inductionStatus =
            ruleModes.induction_missing_or_expired !== 'off' && documents.idNumber
              ? (await induction.validityWithin(tx, actor.tenantId, documents.idNumber)).status
              : null;
          const documentOutcomes = markStated(
            evaluateDocumentRules(
              completionDocumentFacts(body, documents, {
                registeredDriverName: vehicle?.driverName ?? null,
                today: siteDay(now),
                induction: inductionStatus === 'none' ? 'missing' : inductionStatus,
              }),
              ruleModes,
            ),
            documents,
          );
          // Only the rig's and the document rules' warnings are told: a watchlist alert may be
          // covert.
          const rigWarnings = [...rigOutcomes, ...documentOutcomes].filter(
            (outcome) => outcome.verdict === 'warn',
          );
          const outcomes = [...screening.outcomes, ...rigOutcomes, ...documentOutcomes];
          const blocking = outcomes.find((outcome) => outcome.verdict === 'block');
          const ruleEvidence = documents.evidence;
          if (!blocking)
            return { refusal: null, trailerDiscs: discs, warnings: rigWarnings, ruleEvidence };
          if (!(await repository.hasIncomingRequest(tx, actor.tenantId, id))) throw notFound();
          await audit.record(tx, {
            tenantId: actor.tenantId,
            actorUserId: actor.userId,
            action: 'incoming-request.refused',
            targetType: 'incoming_request',
            targetId: id,
            ip,
            details: {
              refusalReason: blocking.refusalReason,
              ruleOutcomes: outcomes,
              ruleEvidence,
              watchlistHits: screening.hits,
            },
          });
          await watchlist.recordHits(tx, actor, screening, {
            gatePath: 'incoming-feed',
            targetType: 'incoming_request',
            targetId: id,
            decision: 'refused',
            ip,
          });
          return { refusal: blocking, trailerDiscs: discs, warnings: rigWarnings, ruleEvidence };
        },
      );
      if (refusal) throw new AppError('UNPROCESSABLE', `Entry refused: ${refusal.message}`);
      // ----- end of issue 21's screening -----
      const told = warnings.map(({ code, message }) => ({ code, message }));
      return database.withTenant(actor.tenantId, async (tx) => {
        // Omitted (undefined) is not null: it asks for no check at all.
        const expectedCompletedAt: Date | null | 'any' =
          body.expectedCompletedAt === undefined
            ? 'any'
            : body.expectedCompletedAt === null
              ? null
              : new Date(body.expectedCompletedAt);
        const row = await repository.completeIncomingRequest(
          tx,
          actor.tenantId,
          id,
          expectedCompletedAt,
          {
            plateNumber: body.plateNumber,
            driverName: body.driverName,
            driverSurname: body.driverSurname,
            driverIdNumber: body.driverIdNumber,
            driverPhone1: body.driverPhone,
            transportName: body.transportName,
            driverLicenseNumber: body.driverLicenseNumber,
            driverLicenseValidTo: body.driverLicenseValidTo,
            driverDateOfBirth: body.driverDateOfBirth,
            driverSex: body.driverSex,
            completedAt: now,
            completedBy: actor.userId,
            trailerPlates: body.trailerPlates,
            trailerLicenceDiscIds: body.trailerLicenceDiscIds,
            // Issue 21: stored on the entry (an edit replaces them) and sent with the callback.
            warnings: told,
            // Issue 21: what the document rules judged (the captures' readings, else stated).
            ruleEvidence,
          },
        );
        if (!row) {
          throw (await repository.hasIncomingRequest(tx, actor.tenantId, id))
            ? changedMeanwhile()
            : notFound();
        }
        const completedAt = (row.completedAt ?? now).toISOString();

        const event: IncomingRequestCompletedEvent = {
          type: INCOMING_REQUEST_COMPLETED,
          timestamp: completedAt,
          data: {
            id: row.id,
            referenceNumber: row.referenceNumber,
            weighbridgeTicketId: row.weighbridgeTicketId,
            plateNumber: body.plateNumber,
            driverName: body.driverName,
            driverSurname: body.driverSurname,
            driverIdNumber: body.driverIdNumber,
            driverPhone: body.driverPhone,
            transportName: body.transportName,
            driverLicenseNumber: body.driverLicenseNumber,
            driverLicenseValidTo: body.driverLicenseValidTo,
            driverDateOfBirth: body.driverDateOfBirth,
            driverSex: body.driverSex,
            receivedAt: row.receivedAt.toISOString(),
            completedAt,
            // Issue 21: the rig as completed, each trailer with the disc cited for it (the rig
            // check above refused a disc for a trailer not presented).
            trailerPlates: body.trailerPlates,
            trailers: pairTrailers(body.trailerPlates, trailerDiscs),
            warnings: told,
          },
        };
        const delivery = await repository.insertDelivery(tx, {
          tenantId: actor.tenantId,
          id: newId(),
          webhookId: `msg_${newId().replaceAll('-', '')}`,
          eventType: INCOMING_REQUEST_COMPLETED,
          body: JSON.stringify(event),
          incomingRequestId: row.id,
          nextAttemptAt: now,
          createdAt: now,
        });
        await enqueueDelivery(tx, actor.tenantId, delivery.id);
        // The outbox row is written either way (an admin sees it dead-lettered with the reason
        // and can replay it once a callback is set up); the caller is told whether it can go out.
        const integration = await repository.findIntegration(tx, actor.tenantId);
        const callbackQueued = Boolean(
          integration?.callbackUrl &&
          !integration.callbackDisabledAt &&
          integration.secretCiphertext,
        );
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'incoming-request.completed',
          targetType: 'incoming_request',
          targetId: row.id,
          ip,
          details: {
            deliveryId: delivery.id,
            callbackQueued,
            ...(warnings.length > 0 ? { ruleOutcomes: warnings } : {}),
            ruleEvidence,
          },
        });
        // Issue 15: in the completion's transaction, so the typed values exist if and only if
        // the completion does; the read values come from the captures the server holds.
        await corrections.record(
          tx,
          actor,
          { documentType: 'incoming_request', documentId: row.id },
          body.corrections,
          ip,
        );
        // Issue 21: alert hits grant; they are logged as hits like the refused ones.
        const screening = await watchlist.screen(tx, actor.tenantId, subject);
        await watchlist.recordHits(tx, actor, screening, {
          gatePath: 'incoming-feed',
          targetType: 'incoming_request',
          targetId: row.id,
          decision: 'granted',
          ip,
        });
        // The answer pairs the trailers with their discs as the feed lists them.
        return {
          row: { ...row, trailerDiscs },
          callbackQueued,
          warnings: told,
        };
      });
    },

    /**
     * Another module's event into the signed outbox, in the caller's transaction (alerts): it is
     * sent like a callback, with the same signature, retries and delivery log.
     */
    async queueEvent(
      tx: DbExecutor,
      tenantId: string,
      { eventType, body, now }: { eventType: string; body: string; now: Date },
    ): Promise<{ deliveryId: string }> {
      const delivery = await repository.insertDelivery(tx, {
        tenantId,
        id: newId(),
        webhookId: `msg_${newId().replaceAll('-', '')}`,
        eventType,
        body,
        incomingRequestId: null,
        nextAttemptAt: now,
        createdAt: now,
      });
      await enqueueDelivery(tx, tenantId, delivery.id);
      return { deliveryId: delivery.id };
    },

    // ----- Integration settings (tenant_admin) ------------------------------------------------

    getIntegration: (actor: Actor) =>
      database.withTenant(actor.tenantId, (tx) => repository.findIntegration(tx, actor.tenantId)),

    /** A new secret, returned once. The previous one stays valid for the rotation window. */
    async rotateSecret(actor: Actor, ip?: string) {
      const now = clock.now();
      const secret = generateIntegrationSecret();
      const row = await database.withTenant(actor.tenantId, async (tx) => {
        const current = await repository.findIntegration(tx, actor.tenantId);
        const keepPrevious = Boolean(current?.secretCiphertext) && rotationWindowMs > 0;
        const updated = await repository.upsertIntegration(tx, actor.tenantId, {
          secretCiphertext: secretBox.seal(secret, actor.tenantId),
          secretCreatedAt: now,
          previousSecretCiphertext: keepPrevious ? (current?.secretCiphertext ?? null) : null,
          previousSecretExpiresAt: keepPrevious ? new Date(now.getTime() + rotationWindowMs) : null,
          updatedAt: now,
        });
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: current?.secretCiphertext
            ? 'integration.secret-rotated'
            : 'integration.secret-created',
          targetType: 'webhook_integration',
          targetId: actor.tenantId,
          ip,
        });
        return updated;
      });
      secretCache.delete(actor.tenantId);
      return { secret, row };
    },

    /** Saves (or clears) the callback URL after the SSRF checks; saving re-enables it after a 410. */
    async setCallbackUrl(actor: Actor, callbackUrl: string | null, ip?: string) {
      let normalised: string | null = null;
      if (callbackUrl) {
        const checked = await sender.check(callbackUrl);
        if (!checked.ok) throw new AppError('INVALID', checked.reason);
        normalised = checked.url.toString();
      }
      const now = clock.now();
      return database.withTenant(actor.tenantId, async (tx) => {
        const row = await repository.upsertIntegration(tx, actor.tenantId, {
          callbackUrl: normalised,
          callbackDisabledAt: null,
          callbackDisabledReason: null,
          updatedAt: now,
        });
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'integration.callback-url-set',
          targetType: 'webhook_integration',
          targetId: actor.tenantId,
          ip,
          details: { callbackUrl: normalised },
        });
        return row;
      });
    },

    listDeliveries: (
      actor: Actor,
      query: { status?: WebhookDeliveryRow['status']; limit: number },
    ) =>
      database.withTenant(actor.tenantId, (tx) =>
        repository.listDeliveries(tx, actor.tenantId, query),
      ),

    /** Sends a delivery again from a fresh schedule with the same webhook-id and body (audited). */
    async replayDelivery(actor: Actor, id: string, ip?: string) {
      const now = clock.now();
      return database.withTenant(actor.tenantId, async (tx) => {
        const existing = await repository.findDelivery(tx, actor.tenantId, id);
        if (!existing) throw deliveryNotFound();
        if (existing.lockedUntil && existing.lockedUntil > now) {
          throw new AppError(
            'CONFLICT',
            'This delivery is being sent right now; try again shortly.',
          );
        }
        const row = await repository.resetDelivery(tx, actor.tenantId, id, now);
        await enqueueDelivery(tx, actor.tenantId, id);
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'webhook-delivery.replayed',
          targetType: 'webhook_delivery',
          targetId: id,
          ip,
          details: { webhookId: row.webhookId, previousStatus: existing.status },
        });
        return row;
      });
    },

    // ----- The worker's side ------------------------------------------------------------------

    /**
     * One attempt at one delivery, inside its tenant (SEC-12): claim with a lease, sign and send
     * outside any transaction, then record the outcome and schedule the next attempt.
     */
    async deliver(tenantId: string, deliveryId: string): Promise<DeliveryOutcome> {
      const claimedAt = clock.now();
      const claimed = await database.withTenant(tenantId, async (tx) => {
        const delivery = await repository.claimDelivery(
          tx,
          tenantId,
          deliveryId,
          claimedAt,
          new Date(claimedAt.getTime() + leaseMs),
        );
        return (
          delivery && { delivery, integration: await repository.findIntegration(tx, tenantId) }
        );
      });
      if (!claimed) return { kind: 'skipped' }; // not due, already sent, or another worker has it
      const { delivery, integration } = claimed;

      const problem = !integration?.callbackUrl
        ? 'No callback URL is configured.'
        : integration.callbackDisabledAt
          ? 'The callback endpoint is disabled (it answered 410 Gone); save its URL again to re-enable it.'
          : !integration.secretCiphertext
            ? 'No integration secret exists to sign the callback.'
            : null;

      let result: SendResult;
      if (problem || !integration?.callbackUrl) {
        result = { status: null, retryAfter: null, error: problem };
      } else {
        const sentAt = clock.now();
        result = await sender.send({
          url: integration.callbackUrl,
          body: delivery.body,
          headers: signWebhook({
            webhookId: delivery.webhookId,
            sentAt,
            body: delivery.body,
            secrets: activeSecrets(integration, sentAt),
          }),
        });
      }

      const now = clock.now();
      const decision = problem
        ? ({ kind: 'dead-letter' } as const)
        : decideAfterAttempt({
            attempt: delivery.attempts,
            status: result.status,
            retryAfter: result.retryAfter,
            now,
            random,
          });
      const base = { lastResponseStatus: result.status, lastError: result.error };

      return database.withTenant(tenantId, async (tx): Promise<DeliveryOutcome> => {
        const record = (outcome: Parameters<WebhooksRepository['recordAttempt']>[4]) =>
          repository.recordAttempt(tx, tenantId, deliveryId, delivery.attempts, outcome);
        switch (decision.kind) {
          case 'delivered':
            if (!(await record({ ...base, status: 'delivered', deliveredAt: now })))
              return { kind: 'stale' };
            return { kind: 'delivered', status: result.status ?? 0 };
          case 'disable-endpoint': {
            const error = 'The receiver answered 410 Gone; the callback endpoint is now disabled.';
            if (!(await record({ ...base, status: 'failed', lastError: error })))
              return { kind: 'stale' };
            await repository.upsertIntegration(tx, tenantId, {
              callbackDisabledAt: now,
              callbackDisabledReason: '410 Gone',
              updatedAt: now,
            });
            return {
              kind: 'failed',
              status: result.status,
              error,
              isEndpointDisabled: true,
              eventType: delivery.eventType,
            };
          }
          case 'dead-letter': {
            const error = result.error ?? `The receiver answered ${result.status ?? 'nothing'}.`;
            if (!(await record({ ...base, status: 'failed', lastError: error })))
              return { kind: 'stale' };
            return {
              kind: 'failed',
              status: result.status,
              error,
              isEndpointDisabled: false,
              eventType: delivery.eventType,
            };
          }
          case 'retry':
            if (!(await record({ ...base, status: 'pending', nextAttemptAt: decision.at }))) {
              return { kind: 'stale' };
            }
            await enqueueDelivery(tx, tenantId, deliveryId, decision.at);
            return { kind: 'retry', at: decision.at, status: result.status, error: result.error };
        }
      });
    },

    /**
     * Re-enqueues every delivery that is due and not leased, across tenants, by the app's clock:
     * covers a worker that died mid-attempt (its lease expires) and a job that was lost.
     */
    async sweep(): Promise<number> {
      const now = clock.now();
      return database.withoutTenant(async (tx) => {
        const due = await repository.listDueDeliveries(tx, now, SWEEP_BATCH);
        for (const { tenantId, deliveryId } of due) await enqueueDelivery(tx, tenantId, deliveryId);
        return due.length;
      });
    },
  };
}
