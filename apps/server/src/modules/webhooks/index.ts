/**
 * Webhooks: vehicle entries posted by external systems (signed, idempotent by webhook-id), the
 * incoming feed and its processing, the signed callback that processing sends (an outbox with
 * retries, delivered by the job worker), and the tenant admin's integration settings.
 * Owns: webhook_integrations, incoming_requests, webhook_deliveries. Publishes: incoming-request.completed.
 */
import { z } from 'zod';

import { IncomingRequestCompletedEventSchema } from '@boomgate/contracts/webhooks';

import { createMaskedWarningsTable } from '@/modules/entry-logs';
import { createSecretBox } from '@/platform/crypto';
import type { ColumnSealer } from '@/platform/sealing';

import { type Lookup, createCallbackSender } from './callback-sender';
import { type DeliveryFailure, createWebhookJobs } from './webhooks.jobs';
import { createWebhooksRepository } from './webhooks.repository';
import {
  SIGNATURE_HELP,
  type WebhookExits,
  incomingWebhookRoutes,
  webhooksRoutes,
} from './webhooks.routes';
import { type WebhooksServiceDeps, createWebhooksService } from './webhooks.service';
import { createWebhooksPersonalData } from './webhooks.personal-data';
import { deliveriesSealedTable, withSealedDeliveries } from './sealed-deliveries';
import { INCOMING_SEALED_COLUMNS, withSealedIncoming } from './sealed-incoming';

export type { WebhooksService } from './webhooks.service';
export { type CallbackSender, createCallbackSender } from './callback-sender';
export { type WebhookExits, incomingUrlFor } from './webhooks.routes';
export type { DeliveryFailure } from './webhooks.jobs';

export function createWebhooksModule({
  encryptionKey,
  timeoutMs,
  rotationWindowMs,
  callbackPolicy,
  lookup,
  onDeliveryFailed,
  exits,
  sealer,
  ...deps
}: Omit<
  WebhooksServiceDeps,
  'repository' | 'secretBox' | 'sender' | 'leaseMs' | 'rotationWindowMs'
> & {
  encryptionKey: Buffer;
  timeoutMs: number;
  rotationWindowMs: number;
  callbackPolicy: { allowLoopback: boolean };
  /** Tests replace DNS with a stub; production uses the system resolver. */
  lookup?: Lookup;
  /** Called after a callback is dead-lettered (alerts: callback_failed). */
  onDeliveryFailed?: (failure: DeliveryFailure) => Promise<void>;
  /** Issue 16: POST /api/webhook/incoming/{tenantId}/exit closes the vehicle's visit. */
  exits?: WebhookExits;
  /** The tenant keyring: callback bodies are sealed in the outbox (issue 26). */
  sealer: ColumnSealer;
}) {
  const sender = createCallbackSender({ policy: callbackPolicy, timeoutMs, lookup });
  const service = createWebhooksService({
    ...deps,
    sealer,
    repository: withSealedIncoming(
      withSealedDeliveries(createWebhooksRepository(), sealer),
      sealer,
    ),
    secretBox: createSecretBox(encryptionKey),
    sender,
    rotationWindowMs,
    // Longer than one attempt can take (connect + timeout), so a live attempt is never doubled.
    leaseMs: timeoutMs * 2 + 30_000,
  });
  return {
    service,
    routes: webhooksRoutes(service),
    incomingRoutes: incomingWebhookRoutes(service, exits),
    ...createWebhookJobs(service, onDeliveryFailed),
    personalData: createWebhooksPersonalData(sealer),
    sealedTable: deliveriesSealedTable(deps.database, sealer),
    /** Issue 26: the feed's ID numbers, sealed by the keys module's jobs (rows stored before). */
    sealedColumns: INCOMING_SEALED_COLUMNS,
    /**
     * Issue 26: watchlist warnings stored on requests before they were masked at the source,
     * masked by keys.seal-stored-data as entries' are (migration …_masked_feed_warnings_security).
     */
    maskedWarnings: createMaskedWarningsTable(deps.database, {
      table: 'incoming_requests',
      unmaskedTenants: 'incoming_requests_unmasked_warning_tenants',
    }),
    openApi: {
      tags: [
        {
          name: 'incoming-feed',
          description: 'Vehicle entries posted by external systems, and their processing.',
        },
        {
          name: 'integrations',
          description:
            'The integration secret, the callback URL and the delivery log (tenant admins).\n\n' +
            'When an entry is processed Boomgate POSTs `IncomingRequestCompletedEvent` (see Schemas) as JSON to ' +
            'the callback URL, signed the same way as inbound posts:\n\n' +
            SIGNATURE_HELP +
            '\n\nEvery retry of one callback carries the same `webhook-id`; use it to ignore duplicates. Answer 2xx ' +
            'within 15 s. Other answers and timeouts are retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and ' +
            '10 h (±10%); redirects are not followed; 410 disables the endpoint; 429, 502 and 504 may carry ' +
            'Retry-After. During a secret rotation callbacks carry two signatures, one per secret.',
        },
      ],
      // Plain JSON Schema objects for the OpenAPI document's components (typed loosely for swagger).
      schemas: {
        IncomingRequestCompletedEvent: z.toJSONSchema(IncomingRequestCompletedEventSchema, {
          target: 'openapi-3.0',
        }),
      } as unknown as Record<string, never>,
    },
    close: () => sender.close(),
  };
}
