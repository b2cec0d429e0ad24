/**
 * Alerts (issue 22): something went wrong at a gate and a person must be told and acknowledge
 * it. Other modules raise alerts through `raiseAlert(tx, …)` inside their own transaction (cheap:
 * one insert, one job, one NOTIFY); routing per tenant (kind, site, severity, quiet hours) and the
 * channels (e-mail over SMTP, Web Push, the signed webhook outbox) run in the job queue with
 * retries; the in-app bell is live over server-sent events (LISTEN/NOTIFY across processes).
 * Overstays are found by the `alerts.overstay` job (visits past their site's limit).
 * Owns: alerts, alert_settings, alert_push_subscriptions.
 */
import type { CallbackSender, DeliveryFailure } from '@/modules/webhooks';
import type { Database } from '@/platform/db';
import { ALERT_RAISED_EVENT } from '@boomgate/contracts/alerts';

import { createAlertStreamHub } from './alert-stream';
import { createAlertJobs } from './alerts.jobs';
import { createAlertsPersonalData } from './alerts.personal-data';
import { createAlertsRepository } from './alerts.repository';
import { alertsRoutes } from './alerts.routes';
import {
  type AlertsServiceDeps,
  alertTitle,
  createAlertsService,
  toAlertDto,
} from './alerts.service';
import { createEmailChannel } from './email-channel';
import { type PushChannel, createPushChannel } from './push-channel';

export type { AlertsService, RaiseAlert, RaiseAlertInput } from './alerts.service';
export type { EmailChannel, EmailMessage } from './email-channel';

/** What grant-entry tells the alerts module about a refused entry. */
export type RefusedEntry = {
  tenantId: string;
  id: string;
  plateNumber: string;
  refusalReason: string | null;
};

export function createAlertsModule({
  database,
  smtp,
  pushSender,
  vapidSubject,
  log,
  ...deps
}: Omit<AlertsServiceDeps, 'repository' | 'email' | 'push' | 'database'> & {
  database: Pick<Database, 'withTenant' | 'withoutTenant' | 'pool'>;
  smtp: { url: string | undefined; from: string };
  /** Sends push requests (the webhooks' guarded sender). */
  pushSender: Pick<CallbackSender, 'send'>;
  vapidSubject: string;
  log: (message: string) => void;
}) {
  const email = createEmailChannel({ smtpUrl: smtp.url, from: smtp.from });
  const push: PushChannel = createPushChannel({ sender: pushSender, subject: vapidSubject });
  const repository = createAlertsRepository();
  const service = createAlertsService({
    ...deps,
    database,
    repository,
    email,
    push,
  });
  const hub = createAlertStreamHub({
    pool: database.pool,
    log,
    async readEvent(tenantId, alertId) {
      const [unreadCount, alert] = await Promise.all([
        service.unreadCount(tenantId),
        alertId ? service.find(tenantId, alertId) : undefined,
      ]);
      return { unreadCount, ...(alert ? { alert: toAlertDto(alert) } : {}) };
    },
  });

  // With the app (its preClose): open streams end and the LISTEN connection goes back to the
  // pool. The channels stay open: the worker may still be finishing jobs (main.ts stops it after).
  const close = () => hub.close();

  return {
    service,
    /** The SMTP channel, shared with the scheduled report e-mails (issue 23). */
    email,
    routes: alertsRoutes(service, { hub, close }),
    ...createAlertJobs(service),
    // POPIA: alert messages about a driver's entries (the privacy module runs it).
    personalData: createAlertsPersonalData(alertTitle),
    /** The hooks other modules call; the merger wires each feature with one of these calls. */
    hooks: {
      raiseAlert: service.raiseAlert,
      raise: service.raise,
      /** grant-entry with entryGranted false (entry-logs). */
      entryRefused: (tx: Parameters<typeof service.raiseAlert>[0], entry: RefusedEntry) =>
        service.raiseAlert(tx, {
          tenantId: entry.tenantId,
          kind: 'entry_refused',
          entryId: entry.id,
          plateNumber: entry.plateNumber,
          message: `Entry refused for ${entry.plateNumber}${entry.refusalReason ? ` (${entry.refusalReason.replaceAll('_', ' ')})` : ''}.`,
          dedupeKey: `entry_refused:${entry.id}`,
        }),
      /** A callback dead-lettered (webhooks). Alerts' own webhook events never raise one. */
      callbackFailed: async (failure: DeliveryFailure) => {
        if (failure.eventType === ALERT_RAISED_EVENT) return;
        await service.raise({
          tenantId: failure.tenantId,
          kind: 'callback_failed',
          message: `A callback to your system failed after every retry: ${failure.error}`,
          dedupeKey: `callback_failed:${failure.deliveryId}`,
        });
      },
    },
    /** Everything, for a process that is ending (streams, LISTEN, the SMTP transport). */
    close: async () => {
      email.close();
      await close();
    },
  };
}
export type AlertsModule = ReturnType<typeof createAlertsModule>;
