import { z } from 'zod';

import {
  ALERT_RAISED_EVENT,
  type Alert,
  type AlertKind,
  type AlertPushPayload,
  type AlertSettings,
  AlertSettingsSchema,
  type AlertSeverity,
  type AlertState,
  DEFAULT_ALERT_SEVERITY,
  type PushSubscriptionBody,
} from '@boomgate/contracts/alerts';

import type { AuditService } from '@/modules/audit';
import type { Actor } from '@/modules/sessions';
import type { Clock } from '@/platform/clock';
import type { Database, DbExecutor } from '@/platform/db';
import { AppError } from '@/platform/errors';
import { newId } from '@/platform/ids';
import { enqueueJob } from '@/platform/jobs';
import { readPageCursor, toPage } from '@/platform/page-cursor';

import { channelsFor, readAlertSettings } from './alert-routing';
import type { AlertsRepository } from './alerts.repository';
import type { AlertRow } from './alerts.table';
import type { EmailChannel } from './email-channel';
import { type PushChannel, type VapidKeys, deriveVapidKeys } from './push-channel';

/** What a raiser says about an alert; the rest (id, time, state) is the module's. */
export type RaiseAlertInput = {
  tenantId: string;
  kind: AlertKind;
  /** Default: the kind's (DEFAULT_ALERT_SEVERITY). */
  severity?: AlertSeverity;
  /** Default: a sentence made from the kind and the plate. */
  message?: string;
  entryId?: string | null;
  siteId?: string | null;
  gateId?: string | null;
  plateNumber?: string | null;
  /** Raised at most once per key and tenant (e.g. `device_offline:<device>:<since>`). */
  dedupeKey?: string | null;
};

/**
 * The one call other modules make: inside their own transaction, so the alert exists if and only
 * if what caused it committed. Cheap by design (one insert, one job, one NOTIFY): routing and
 * every channel run later in the job queue, so a gate decision never waits for SMTP or a push.
 */
export type RaiseAlert = (tx: DbExecutor, input: RaiseAlertInput) => Promise<AlertRow | undefined>;

/** Channel deliveries: the queue retries a failing one (exponential back-off, ~10 attempts). */
export const CHANNEL_JOB_ATTEMPTS = 10;

export const DispatchJob = {
  name: 'alerts.dispatch',
  maxAttempts: 5,
  payload: z.object({ tenantId: z.uuid(), alertId: z.uuid(), repeat: z.boolean() }),
} as const;
export const EmailJob = {
  name: 'alerts.email',
  maxAttempts: CHANNEL_JOB_ATTEMPTS,
  payload: z.object({ tenantId: z.uuid(), alertId: z.uuid(), recipients: z.array(z.string()) }),
} as const;
export const PushJob = {
  name: 'alerts.push',
  maxAttempts: CHANNEL_JOB_ATTEMPTS,
  payload: z.object({ tenantId: z.uuid(), alertId: z.uuid(), subscriptionId: z.uuid() }),
} as const;

const SCAN_BATCH = 500;

const KIND_TITLES: Record<AlertKind, string> = {
  watchlist_hit: 'Watchlist hit',
  entry_refused: 'Entry refused',
  document_rule_blocked: 'Blocked by a document rule',
  overstay: 'Overstay',
  device_offline: 'Device offline',
  feed_unprocessed: 'Incoming entry not processed',
  callback_failed: 'Callback failed',
  offline_entry_refused: 'Entry refused offline',
  site_stale_decision: 'Site decided on stale data',
};

export const alertTitle = (kind: AlertKind) => KIND_TITLES[kind];

function defaultMessage(input: RaiseAlertInput): string {
  const plate = input.plateNumber ? ` for ${input.plateNumber}` : '';
  return `${KIND_TITLES[input.kind]}${plate}.`;
}

export function toAlertDto(row: AlertRow): Alert {
  return {
    id: row.id,
    kind: row.kind,
    severity: row.severity,
    state: row.state,
    createdAt: row.createdAt.toISOString(),
    message: row.message,
    entryId: row.entryId,
    siteId: row.siteId,
    gateId: row.gateId,
    plateNumber: row.plateNumber,
    acknowledgedAt: row.acknowledgedAt?.toISOString() ?? null,
    acknowledgedBy: row.acknowledgedBy,
    acknowledgedByName: row.acknowledgedByName,
  };
}

const notFound = () => new AppError('NOT_FOUND', 'Alert not found.');

export type AlertsServiceDeps = {
  database: Pick<Database, 'withTenant' | 'withoutTenant'>;
  repository: AlertsRepository;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  /** The data encryption key: the tenants' VAPID keys derive from it. */
  encryptionKey: Buffer;
  email: EmailChannel;
  push: PushChannel;
  /** The signed webhook outbox (webhooks module). */
  webhookOutbox: {
    queueEvent(
      tx: DbExecutor,
      tenantId: string,
      event: { eventType: string; body: string; now: Date },
    ): Promise<unknown>;
  };
  /** Where links in e-mails and notifications point (PUBLIC_ORIGIN), if known. */
  publicOrigin?: string;
  /** The clock a site keeps (quiet hours are read on it); sites module. */
  sites: {
    timeZoneOf(tx: DbExecutor, tenantId: string, siteId: string | null): Promise<string>;
    existingSiteIds(
      tx: DbExecutor,
      tenantId: string,
      siteIds: readonly string[],
    ): Promise<string[]>;
  };
  /** Open visits over their site's limit now (visits module), for the overstay scan. */
  visits: { overstays(tenantId: string, limit?: number): Promise<OverstayingVisit[]> };
};

/** What the overstay scan needs of a visit (the visits module's VisitView has it). */
export type OverstayingVisit = {
  id: string;
  kind: 'vehicle' | 'person';
  siteId: string;
  gateId: string | null;
  entryLogId: string | null;
  plateNumber: string | null;
  enteredAt: Date;
  overstayMinutes: number;
};

/** An overstay older than this when first seen is not alerted (no flood when the feature arrives). */
const OVERSTAY_LOOKBACK_MS = 24 * 60 * 60_000;

/** "13 h 5 min", "45 min". */
function formatDuration(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = Math.floor(minutes % 60);
  return hours > 0 ? `${hours} h${rest > 0 ? ` ${rest} min` : ''}` : `${rest} min`;
}

export type AlertsService = ReturnType<typeof createAlertsService>;

export function createAlertsService({
  database,
  repository,
  audit,
  clock,
  encryptionKey,
  email,
  push,
  webhookOutbox,
  publicOrigin,
  sites,
  visits,
}: AlertsServiceDeps) {
  const alertsLink = `${publicOrigin ?? ''}/alerts`;

  const raiseAlert: RaiseAlert = async (tx, input) => {
    const now = clock.now();
    const row = await repository.insert(tx, {
      tenantId: input.tenantId,
      id: newId(),
      kind: input.kind,
      severity: input.severity ?? DEFAULT_ALERT_SEVERITY[input.kind],
      message: input.message ?? defaultMessage(input),
      entryId: input.entryId ?? null,
      siteId: input.siteId ?? null,
      gateId: input.gateId ?? null,
      plateNumber: input.plateNumber ?? null,
      dedupeKey: input.dedupeKey ?? null,
      createdAt: now,
      lastNotifiedAt: now,
    });
    if (!row) return undefined; // raised before under the same key
    await enqueueJob(tx, DispatchJob, { tenantId: row.tenantId, alertId: row.id, repeat: false });
    await repository.notifyChanged(tx, row.tenantId, row.id);
    return row;
  };

  const vapidKeys = new Map<string, VapidKeys>();
  function pushKeys(tenantId: string): VapidKeys {
    let keys = vapidKeys.get(tenantId);
    if (!keys) {
      if (vapidKeys.size >= 10_000) vapidKeys.clear();
      keys = deriveVapidKeys(encryptionKey, tenantId);
      vapidKeys.set(tenantId, keys);
    }
    return keys;
  }

  async function settingsOf(tx: DbExecutor, tenantId: string): Promise<AlertSettings> {
    return readAlertSettings(await repository.findSettings(tx, tenantId));
  }

  return {
    raiseAlert,

    /** raiseAlert in a transaction of its own, for raisers that hold none (jobs). */
    raise: (input: RaiseAlertInput) =>
      database.withTenant(input.tenantId, (tx) => raiseAlert(tx, input)),

    // ----- People ----------------------------------------------------------------------------

    async list(
      actor: Actor,
      { state, cursor, limit }: { state?: AlertState; cursor?: string; limit: number },
    ) {
      const after = readPageCursor(cursor);
      return database.withTenant(actor.tenantId, async (tx) => {
        const rows = await repository.list(tx, actor.tenantId, { state, limit: limit + 1, after });
        const page = toPage(
          rows.map((row) => ({ ...row, timestamp: row.createdAt })),
          limit,
        );
        return { ...page, unreadCount: await repository.countOpen(tx, actor.tenantId) };
      });
    },

    unreadCount: (tenantId: string) =>
      database.withTenant(tenantId, (tx) => repository.countOpen(tx, tenantId)),

    find: (tenantId: string, id: string) =>
      database.withTenant(tenantId, (tx) => repository.find(tx, tenantId, id)),

    /** Who and when (audited). Acknowledging an acknowledged alert answers it as it is. */
    async acknowledge(actor: Actor, id: string, ip?: string): Promise<AlertRow> {
      return database.withTenant(actor.tenantId, async (tx) => {
        const updated = await repository.acknowledge(tx, actor.tenantId, id, {
          userId: actor.userId,
          name: actor.fullName ?? actor.username,
          at: clock.now(),
        });
        if (!updated) {
          const existing = await repository.find(tx, actor.tenantId, id);
          if (!existing) throw notFound();
          return existing;
        }
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'alert.acknowledged',
          targetType: 'alert',
          targetId: id,
          ip,
          details: { kind: updated.kind, severity: updated.severity },
        });
        await repository.notifyChanged(tx, actor.tenantId, id);
        return updated;
      });
    },

    // ----- Routing (tenant admins) -----------------------------------------------------------

    getSettings: (actor: Actor) =>
      database.withTenant(actor.tenantId, (tx) => settingsOf(tx, actor.tenantId)),

    async updateSettings(actor: Actor, patch: Partial<AlertSettings>, ip?: string) {
      return database.withTenant(actor.tenantId, async (tx) => {
        const next = AlertSettingsSchema.parse({
          ...(await settingsOf(tx, actor.tenantId)),
          ...patch,
        });
        // A rule or quiet hours for a site the tenant does not have would silently do nothing.
        const named = [
          ...new Set([
            ...next.routes.flatMap((route) => (route.siteId ? [route.siteId] : [])),
            ...next.siteQuietHours.map((entry) => entry.siteId),
          ]),
        ];
        const known = new Set(await sites.existingSiteIds(tx, actor.tenantId, named));
        if (named.some((siteId) => !known.has(siteId))) {
          throw new AppError(
            'INVALID',
            'An alert rule or quiet hours name a site that does not exist.',
          );
        }
        await repository.saveSettings(tx, actor.tenantId, next, clock.now());
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'alert-settings.updated',
          targetType: 'alert_settings',
          targetId: actor.tenantId,
          ip,
          details: { changed: Object.keys(patch) },
        });
        return next;
      });
    },

    // ----- Web Push subscriptions ------------------------------------------------------------

    pushPublicKey: (actor: Actor) => pushKeys(actor.tenantId).publicKey,

    async subscribe(actor: Actor, body: PushSubscriptionBody, ip?: string) {
      return database.withTenant(actor.tenantId, async (tx) => {
        const saved = await repository.upsertSubscription(tx, {
          tenantId: actor.tenantId,
          id: newId(),
          userId: actor.userId,
          endpoint: body.endpoint,
          p256dh: body.keys.p256dh,
          auth: body.keys.auth,
          createdAt: clock.now(),
        });
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'alert-push.subscribed',
          targetType: 'alert_push_subscription',
          targetId: saved.id,
          ip,
          details: { origin: new URL(body.endpoint).origin },
        });
        return saved;
      });
    },

    async unsubscribe(actor: Actor, endpoint: string, ip?: string) {
      return database.withTenant(actor.tenantId, async (tx) => {
        if (!(await repository.deleteSubscription(tx, actor.tenantId, { endpoint }))) {
          throw new AppError('NOT_FOUND', 'Push subscription not found.');
        }
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'alert-push.unsubscribed',
          targetType: 'alert_push_subscription',
          ip,
        });
      });
    },

    // ----- The worker's side -----------------------------------------------------------------

    /**
     * Routes one alert: e-mail and push become jobs of their own (each retried alone), the
     * webhook goes into the signed outbox (retried by it). A repeat skips the webhook, and an
     * alert acknowledged meanwhile is not repeated.
     */
    async dispatch(tenantId: string, alertId: string, repeat: boolean) {
      const now = clock.now();
      return database.withTenant(tenantId, async (tx) => {
        const alert = await repository.find(tx, tenantId, alertId);
        if (!alert || (repeat && alert.state !== 'open')) return [];
        const settings = await settingsOf(tx, tenantId);
        const timeZone = await sites.timeZoneOf(tx, tenantId, alert.siteId);
        const channels = channelsFor(settings, alert, now, timeZone);
        const queued: string[] = [];
        if (channels.has('email') && email.isConfigured && settings.emailRecipients.length > 0) {
          await enqueueJob(tx, EmailJob, {
            tenantId,
            alertId,
            recipients: settings.emailRecipients,
          });
          queued.push('email');
        }
        if (channels.has('push')) {
          for (const subscription of await repository.listSubscriptions(tx, tenantId)) {
            await enqueueJob(tx, PushJob, { tenantId, alertId, subscriptionId: subscription.id });
          }
          queued.push('push');
        }
        if (channels.has('webhook') && !repeat) {
          await webhookOutbox.queueEvent(tx, tenantId, {
            eventType: ALERT_RAISED_EVENT,
            body: JSON.stringify({
              type: ALERT_RAISED_EVENT,
              timestamp: alert.createdAt.toISOString(),
              data: toAlertDto(alert),
            }),
            now,
          });
          queued.push('webhook');
        }
        return queued;
      });
    },

    /** One e-mail; throws when the SMTP server does not take it, so the queue retries. */
    async sendEmail(tenantId: string, alertId: string, recipients: string[]) {
      const alert = await database.withTenant(tenantId, (tx) =>
        repository.find(tx, tenantId, alertId),
      );
      if (!alert) return;
      const repeated = alert.notifications > 1 ? ' (reminder: not yet acknowledged)' : '';
      await email.send({
        to: recipients,
        subject: `[Boomgate] ${alertTitle(alert.kind)}${alert.plateNumber ? `: ${alert.plateNumber}` : ''}${repeated}`,
        text: [
          alert.message,
          '',
          `Severity: ${alert.severity}`,
          `Raised: ${alert.createdAt.toISOString()}`,
          ...(alert.plateNumber ? [`Plate: ${alert.plateNumber}`] : []),
          ...(alert.entryId ? [`Entry: ${alert.entryId}`] : []),
          '',
          `Acknowledge it in Boomgate: ${alertsLink}`,
        ].join('\n'),
      });
    },

    /**
     * One push message to one browser. A subscription the push service calls gone is deleted;
     * any other failure throws, so the queue retries.
     */
    async sendPush(tenantId: string, alertId: string, subscriptionId: string) {
      const found = await database.withTenant(tenantId, async (tx) => {
        const alert = await repository.find(tx, tenantId, alertId);
        const subscription = await repository.findSubscription(tx, tenantId, subscriptionId);
        return alert && subscription && { alert, subscription, keys: pushKeys(tenantId) };
      });
      if (!found) return;
      const { alert, subscription, keys } = found;
      const payload: AlertPushPayload = {
        title: alertTitle(alert.kind),
        body: alert.message,
        alertId: alert.id,
        kind: alert.kind,
        severity: alert.severity,
        url: '/alerts',
      };
      const result = await push.send(
        {
          endpoint: subscription.endpoint,
          keys: { p256dh: subscription.p256dh, auth: subscription.auth },
        },
        JSON.stringify(payload),
        keys,
      );
      if (result.kind === 'gone') {
        await database.withTenant(tenantId, (tx) =>
          repository.deleteSubscription(tx, tenantId, { id: subscriptionId }),
        );
      } else if (result.kind === 'failed') {
        throw new Error(`push to ${new URL(subscription.endpoint).origin} failed: ${result.error}`);
      }
    },

    /** Unacknowledged critical alerts whose repeat interval ran out go out again. */
    async repeatDue(): Promise<number> {
      const now = clock.now();
      const due = await database.withoutTenant((tx) =>
        repository.listDueRepeats(tx, now, SCAN_BATCH),
      );
      let repeated = 0;
      for (const { tenantId, alertId, lastNotifiedAt } of due) {
        await database.withTenant(tenantId, async (tx) => {
          if (
            !(await repository.markRepeated(tx, tenantId, alertId, { seen: lastNotifiedAt, now }))
          )
            return;
          await enqueueJob(tx, DispatchJob, { tenantId, alertId, repeat: true });
          repeated++;
        });
      }
      return repeated;
    },

    /**
     * Visits still open past their site's limit raise `overstay` once each (the dedupe key). The
     * cross-tenant function names only the tenants with such a visit not yet alerted; the
     * visits module lists them inside each tenant.
     */
    async scanOverstays(): Promise<number> {
      const now = clock.now();
      const tenants = await database.withoutTenant((tx) =>
        repository.listOverstayTenants(tx, now, SCAN_BATCH),
      );
      let raised = 0;
      for (const tenantId of tenants) {
        const overstaying = (await visits.overstays(tenantId, SCAN_BATCH)).filter(
          (visit) =>
            visit.enteredAt.getTime() + visit.overstayMinutes * 60_000 >
            now.getTime() - OVERSTAY_LOOKBACK_MS,
        );
        if (overstaying.length === 0) continue;
        raised += await database.withTenant(tenantId, async (tx) => {
          let count = 0;
          for (const visit of overstaying) {
            const stayed = (now.getTime() - visit.enteredAt.getTime()) / 60_000;
            // No names: a person on foot is "a visitor" (names stay with the visit, erasable).
            const who = visit.plateNumber ?? 'A visitor on foot';
            const row = await raiseAlert(tx, {
              tenantId,
              kind: 'overstay',
              siteId: visit.siteId,
              gateId: visit.gateId,
              entryId: visit.entryLogId,
              plateNumber: visit.plateNumber,
              message: `${who} has been on site for ${formatDuration(stayed)}, longer than the site's limit of ${formatDuration(visit.overstayMinutes)}.`,
              dedupeKey: `overstay:${visit.id}`,
            });
            if (row) count++;
          }
          return count;
        });
      }
      return raised;
    },

    /** Incoming-feed entries pending longer than the tenant's limit raise feed_unprocessed once. */
    async scanUnprocessedFeed(): Promise<number> {
      const now = clock.now();
      const due = await database.withoutTenant((tx) =>
        repository.listUnprocessedFeedEntries(tx, now, SCAN_BATCH),
      );
      let raised = 0;
      for (const { tenantId, incomingRequestId, plateNumber, receivedAt } of due) {
        const row = await database.withTenant(tenantId, async (tx) => {
          const minutes = Math.max(1, Math.round((now.getTime() - receivedAt.getTime()) / 60_000));
          return raiseAlert(tx, {
            tenantId,
            kind: 'feed_unprocessed',
            plateNumber,
            message: `An incoming entry${plateNumber ? ` for ${plateNumber}` : ''} has waited ${minutes} minutes without being processed.`,
            dedupeKey: `feed_unprocessed:${incomingRequestId}`,
          });
        });
        if (row) raised++;
      }
      return raised;
    },
  };
}
