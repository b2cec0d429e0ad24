import { z } from 'zod';

import { IdSchema, TimestampSchema } from './primitives';

/** Every event the server raises an alert for (issue 22). */
export const ALERT_KINDS = [
  'watchlist_hit',
  'entry_refused',
  'document_rule_blocked',
  'overstay',
  'device_offline',
  'feed_unprocessed',
  'callback_failed',
  'offline_entry_refused',
  /** Issue 28: a site node granted an entry under master data central had already changed. */
  'site_stale_decision',
] as const;
export const AlertKindSchema = z.enum(ALERT_KINDS);
export type AlertKind = z.infer<typeof AlertKindSchema>;

/** Ordered: `critical` is "severe" (repeats until someone acknowledges it). */
export const ALERT_SEVERITIES = ['info', 'warning', 'critical'] as const;
export const AlertSeveritySchema = z.enum(ALERT_SEVERITIES);
export type AlertSeverity = z.infer<typeof AlertSeveritySchema>;

/** The severity each kind is raised with unless its raiser says otherwise. */
export const DEFAULT_ALERT_SEVERITY: Record<AlertKind, AlertSeverity> = {
  watchlist_hit: 'critical',
  entry_refused: 'warning',
  document_rule_blocked: 'warning',
  overstay: 'warning',
  device_offline: 'critical',
  feed_unprocessed: 'warning',
  callback_failed: 'warning',
  offline_entry_refused: 'warning',
  site_stale_decision: 'warning',
};

export const AlertStateSchema = z.enum(['open', 'acknowledged']);
export type AlertState = z.infer<typeof AlertStateSchema>;

/** One alert as GET /api/alerts lists it. */
export const AlertSchema = z.object({
  id: IdSchema,
  kind: AlertKindSchema,
  severity: AlertSeveritySchema,
  state: AlertStateSchema,
  createdAt: TimestampSchema,
  /** A sentence a person reads in the bell, the e-mail and the push notification. */
  message: z.string(),
  /** The entry, site, gate and plate it concerns, where it concerns one. */
  entryId: IdSchema.nullable(),
  siteId: IdSchema.nullable(),
  gateId: IdSchema.nullable(),
  plateNumber: z.string().nullable(),
  acknowledgedAt: TimestampSchema.nullable(),
  acknowledgedBy: IdSchema.nullable(),
  acknowledgedByName: z.string().nullable(),
});
export type Alert = z.infer<typeof AlertSchema>;
export const AlertListSchema = z.array(AlertSchema);

/** GET /api/alerts: newest first, one page; X-Next-Cursor holds the next page's `cursor`. */
export const AlertListQuerySchema = z.object({
  state: AlertStateSchema.optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** Open alerts of the tenant (the bell's count), also a header of GET /api/alerts. */
export const ALERT_UNREAD_COUNT_HEADER = 'x-unread-count';

export const AlertIdParamsSchema = z.object({ id: IdSchema });

/**
 * GET /api/alerts/stream (text/event-stream): `event: unread` with this data on connect and
 * whenever an alert of the tenant is raised or acknowledged.
 */
export const AlertStreamEventSchema = z.object({
  unreadCount: z.number().int().min(0),
  /** The alert that changed the count, when one did. */
  alert: AlertSchema.optional(),
});
export type AlertStreamEvent = z.infer<typeof AlertStreamEventSchema>;

// ----- Web Push ------------------------------------------------------------------------------

/** The browser's PushSubscription.toJSON(). */
export const PushSubscriptionBodySchema = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).max(2048),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    /** The browser's P-256 public key, base64url (65 bytes uncompressed). */
    p256dh: z
      .string()
      .regex(/^[A-Za-z0-9_-]{86,88}={0,2}$/, 'p256dh must be a base64url P-256 public key'),
    /** The 16-byte authentication secret, base64url. */
    auth: z.string().regex(/^[A-Za-z0-9_-]{22,24}={0,2}$/, 'auth must be 16 bytes in base64url'),
  }),
});
export type PushSubscriptionBody = z.infer<typeof PushSubscriptionBodySchema>;

export const PushUnsubscribeBodySchema = z.object({ endpoint: z.string().min(1).max(2048) });

/** GET /api/alerts/push-key: the VAPID public key browsers subscribe with (base64url). */
export const PushKeySchema = z.object({ publicKey: z.string() });

/** What a push message carries (JSON, encrypted as RFC 8291 says). */
export const AlertPushPayloadSchema = z.object({
  title: z.string(),
  body: z.string(),
  alertId: IdSchema,
  kind: AlertKindSchema,
  severity: AlertSeveritySchema,
  url: z.string(),
});
export type AlertPushPayload = z.infer<typeof AlertPushPayloadSchema>;

// ----- Routing (GET/PATCH /api/settings/alerts) ---------------------------------------------

/** Where an alert goes besides the in-app notification centre, which shows every alert. */
export const ALERT_CHANNELS = ['email', 'webhook', 'push'] as const;
export const AlertChannelSchema = z.enum(ALERT_CHANNELS);
export type AlertChannel = z.infer<typeof AlertChannelSchema>;

const TimeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Enter a time as HH:MM (24-hour)');

/**
 * One rule: alerts of `kind` at or above `minSeverity` go to `channels`. `siteId` null applies
 * everywhere; a rule for the alert's own site replaces the general rules for that kind there.
 */
export const AlertRouteSchema = z.object({
  kind: AlertKindSchema,
  siteId: IdSchema.nullable().default(null),
  channels: z.array(AlertChannelSchema).max(ALERT_CHANNELS.length),
  minSeverity: AlertSeveritySchema.default('info'),
});
export type AlertRoute = z.infer<typeof AlertRouteSchema>;

const QuietHoursSchema = z.object({
  start: TimeOfDay,
  end: TimeOfDay,
  minSeverity: AlertSeveritySchema,
});

/** A site's own quiet hours, in place of the tenant's (e.g. a depot that works nights). */
export const SiteQuietHoursSchema = QuietHoursSchema.extend({ siteId: IdSchema });
export type SiteQuietHours = z.infer<typeof SiteQuietHoursSchema>;

export const AlertSettingsSchema = z.object({
  routes: z.array(AlertRouteSchema).max(500),
  emailRecipients: z.array(z.email('Enter a valid e-mail address').max(254)).max(50),
  /**
   * In each site's own time zone (an alert without a site: the default site's). Between `start`
   * and `end` only alerts at or above `minSeverity` are sent by e-mail and push; the bell and
   * webhooks are not silenced.
   */
  quietHours: QuietHoursSchema.nullable(),
  /** Sites with quiet hours of their own (one entry per site); the others use `quietHours`. */
  siteQuietHours: z
    .array(SiteQuietHoursSchema)
    .max(200)
    .refine(
      (entries) => new Set(entries.map((entry) => entry.siteId)).size === entries.length,
      'Each site has one set of quiet hours',
    ),
  /** Unacknowledged critical alerts are sent again this often. */
  repeatEveryMinutes: z.number().int().min(5).max(1440),
  /** An incoming-feed entry still pending after this long raises `feed_unprocessed`. */
  feedUnprocessedMinutes: z.number().int().min(1).max(10_080),
});
export type AlertSettings = z.infer<typeof AlertSettingsSchema>;
export const AlertSettingsPatchSchema = AlertSettingsSchema.partial();

export const DEFAULT_ALERT_SETTINGS: AlertSettings = {
  routes: ALERT_KINDS.map((kind) => ({
    kind,
    siteId: null,
    channels: ['email', 'push'],
    minSeverity: 'info',
  })),
  emailRecipients: [],
  quietHours: null,
  siteQuietHours: [],
  repeatEveryMinutes: 30,
  feedUnprocessedMinutes: 30,
};

/** The event type of alerts sent through the signed webhook outbox. */
export const ALERT_RAISED_EVENT = 'alert.raised';
