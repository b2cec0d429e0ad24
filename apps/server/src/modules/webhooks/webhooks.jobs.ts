import { z } from 'zod';

import { type ScheduledJob, defineJob } from '@/platform/jobs';

import { DeliverJob, type WebhooksService } from './webhooks.service';

/** The jobs this module hands to the worker: one delivery attempt, and the periodic sweep. */
export type DeliveryFailure = {
  tenantId: string;
  deliveryId: string;
  eventType: string | undefined;
  error: string;
};

export function createWebhookJobs(
  service: Pick<WebhooksService, 'deliver' | 'sweep'>,
  /** Told about every dead letter (the alerts module raises callback_failed). */
  onDeliveryFailed?: (failure: DeliveryFailure) => Promise<void>,
) {
  const deliver = defineJob({
    ...DeliverJob,
    async run({ tenantId, deliveryId }, { log }) {
      const outcome = await service.deliver(tenantId, deliveryId);
      if (outcome.kind === 'failed') {
        // The dead letter: an operator alert. The delivery log shows it and tenant_admin may replay.
        log(
          'error',
          `webhook delivery ${deliveryId} of tenant ${tenantId} failed permanently: ${outcome.error}`,
        );
        await onDeliveryFailed?.({
          tenantId,
          deliveryId,
          eventType: outcome.eventType,
          error: outcome.error,
        });
      } else if (outcome.kind === 'retry') {
        log(
          'warn',
          `webhook delivery ${deliveryId} of tenant ${tenantId} failed (${outcome.status ?? outcome.error}); next attempt at ${outcome.at.toISOString()}`,
        );
      }
    },
  });

  const sweep = defineJob({
    name: 'webhooks.sweep',
    maxAttempts: 1,
    payload: z.unknown(),
    async run() {
      await service.sweep();
    },
  });

  const schedules: ScheduledJob[] = [{ job: sweep, schedule: '* * * * *' }];
  return { jobs: [deliver, sweep], schedules };
}
