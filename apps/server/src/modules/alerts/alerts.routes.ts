import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import {
  ALERT_UNREAD_COUNT_HEADER,
  AlertIdParamsSchema,
  AlertListQuerySchema,
  AlertListSchema,
  AlertSchema,
  AlertSettingsPatchSchema,
  AlertSettingsSchema,
  type AlertStreamEvent,
  PushKeySchema,
  PushSubscriptionBodySchema,
  PushUnsubscribeBodySchema,
} from '@boomgate/contracts/alerts';
import { ACTION_ROLES } from '@boomgate/contracts/roles';
import { EmptyBodySchema, NoContentSchema } from '@boomgate/contracts/primitives';

import { rolesAccess } from '@/platform/access';
import { AppError } from '@/platform/errors';
import { setPageHeaders } from '@/platform/page-cursor';

import type { AlertStreamHub } from './alert-stream';
import { type AlertsService, toAlertDto } from './alerts.service';

/** A comment line keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 15_000;

export function alertsRoutes(
  service: AlertsService,
  { hub, close }: { hub: AlertStreamHub; close: () => Promise<void> },
): FastifyPluginAsyncZod {
  return async (app) => {
    const streams = new Set<() => void>();
    // Open streams would hold app.close() (and a graceful shutdown) until they end by themselves.
    app.addHook('preClose', async () => {
      for (const end of streams) end();
      await close();
    });

    app.get(
      '/alerts',
      {
        config: rolesAccess(ACTION_ROLES.viewAlerts),
        schema: {
          tags: ['alerts'],
          operationId: 'listAlerts',
          description:
            'Alerts of the organization, newest first, one page (`limit`, default 50), optionally ' +
            'only `open` or `acknowledged` ones. When more exist, X-Next-Cursor holds the `cursor` ' +
            'of the next page; X-Unread-Count is the number of open alerts.',
          querystring: AlertListQuerySchema,
          response: { 200: AlertListSchema },
        },
      },
      async (request, reply) => {
        const { rows, nextCursor, unreadCount } = await service.list(request.actor, request.query);
        setPageHeaders(reply, nextCursor, {
          headers: { unread: ALERT_UNREAD_COUNT_HEADER },
          values: { unread: unreadCount },
        });
        return rows.map(toAlertDto);
      },
    );

    app.post(
      '/alerts/:id/acknowledge',
      {
        config: rolesAccess(ACTION_ROLES.viewAlerts),
        schema: {
          tags: ['alerts'],
          operationId: 'acknowledgeAlert',
          description:
            'Records who acknowledged the alert and when (audited). An acknowledged alert stops ' +
            'repeating; acknowledging it again answers it unchanged.',
          params: AlertIdParamsSchema,
          body: EmptyBodySchema,
          response: { 200: AlertSchema },
        },
      },
      async (request) =>
        toAlertDto(await service.acknowledge(request.actor, request.params.id, request.ip)),
    );

    app.get(
      '/alerts/stream',
      {
        config: rolesAccess(ACTION_ROLES.viewAlerts),
        schema: {
          tags: ['alerts'],
          operationId: 'streamAlerts',
          description:
            'Server-sent events (text/event-stream; send Accept: text/event-stream, else 400) ' +
            'for the bell: `event: unread` with ' +
            '`{ unreadCount, alert? }` on connect and whenever an alert of the organization is ' +
            'raised or acknowledged, on every API instance (PostgreSQL LISTEN/NOTIFY).',
        },
      },
      async (request, reply) => {
        // Only EventSource's own request (Accept: text/event-stream) opens a stream; anything
        // else gets 400 at once instead of a response that never ends.
        if (!/\btext\/event-stream\b/.test(request.headers.accept ?? '')) {
          throw new AppError(
            'INVALID',
            'This is a server-sent event stream: send Accept: text/event-stream.',
          );
        }
        const { tenantId } = request.actor;
        const headers = {
          ...(reply.getHeaders() as Record<string, string>),
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-store',
          'x-accel-buffering': 'no',
          connection: 'keep-alive',
        };
        reply.hijack();
        const raw = reply.raw;
        raw.writeHead(200, headers);
        const send = (event: AlertStreamEvent) =>
          raw.write(`event: unread\ndata: ${JSON.stringify(event)}\n\n`);

        let unsubscribe = () => undefined as void;
        let isEnded = false;
        const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), HEARTBEAT_MS);
        const end = () => {
          if (isEnded) return; // the catch below and the request's close may both end it
          isEnded = true;
          clearInterval(heartbeat);
          unsubscribe();
          streams.delete(end);
          if (!raw.writableEnded) raw.end();
        };
        streams.add(end);
        request.raw.on('close', end);
        try {
          unsubscribe = await hub.subscribe(tenantId, send);
          // The browser may have gone while the subscription started: end it now, or the
          // listener (and the hub's listening connection) would stay forever.
          if (isEnded) {
            unsubscribe();
            return;
          }
          send({ unreadCount: await service.unreadCount(tenantId) });
        } catch (error) {
          request.log.warn({ err: error }, 'alerts stream could not start');
          end();
        }
      },
    );

    app.get(
      '/alerts/push-key',
      {
        config: rolesAccess(ACTION_ROLES.manageAlerts),
        schema: {
          tags: ['alerts'],
          operationId: 'getAlertPushKey',
          description:
            "The organization's VAPID public key (base64url): the browser's " +
            '`applicationServerKey` when it subscribes to push.',
          response: { 200: PushKeySchema },
        },
      },
      async (request) => ({ publicKey: service.pushPublicKey(request.actor) }),
    );

    app.post(
      '/alerts/push-subscriptions',
      {
        config: rolesAccess(ACTION_ROLES.manageAlerts),
        schema: {
          tags: ['alerts'],
          operationId: 'subscribeAlertPush',
          description:
            "Registers this browser's PushSubscription (its `toJSON()`) for alert notifications " +
            '(audited). Subscribing the same endpoint again replaces its keys.',
          body: PushSubscriptionBodySchema,
          response: { 201: NoContentSchema },
        },
      },
      async (request, reply) => {
        await service.subscribe(request.actor, request.body, request.ip);
        return reply.code(201).send(null);
      },
    );

    app.delete(
      '/alerts/push-subscriptions',
      {
        config: rolesAccess(ACTION_ROLES.manageAlerts),
        schema: {
          tags: ['alerts'],
          operationId: 'unsubscribeAlertPush',
          description: 'Removes the subscription with this `endpoint` (audited).',
          body: PushUnsubscribeBodySchema,
          response: { 204: NoContentSchema },
        },
      },
      async (request, reply) => {
        await service.unsubscribe(request.actor, request.body.endpoint, request.ip);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/settings/alerts',
      {
        config: rolesAccess(ACTION_ROLES.manageAlerts),
        schema: {
          tags: ['alerts'],
          operationId: 'getAlertSettings',
          description:
            'Alert routing: which kinds go to e-mail, push and the webhook, per site, from which ' +
            'severity; e-mail recipients; quiet hours (site time); how often unacknowledged ' +
            'critical alerts repeat; when a pending incoming entry raises feed_unprocessed.',
          response: { 200: AlertSettingsSchema },
        },
      },
      async (request) => service.getSettings(request.actor),
    );

    app.patch(
      '/settings/alerts',
      {
        config: rolesAccess(ACTION_ROLES.manageAlerts),
        schema: {
          tags: ['alerts'],
          operationId: 'updateAlertSettings',
          description: 'Changes any subset of the alert routing (audited).',
          body: AlertSettingsPatchSchema,
          response: { 200: AlertSettingsSchema },
        },
      },
      async (request) => service.updateSettings(request.actor, request.body, request.ip),
    );
  };
}
