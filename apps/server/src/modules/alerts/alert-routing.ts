import {
  ALERT_SEVERITIES,
  type AlertChannel,
  type AlertKind,
  type AlertSettings,
  AlertSettingsSchema,
  type AlertSeverity,
  DEFAULT_ALERT_SETTINGS,
} from '@boomgate/contracts/alerts';

import { DEFAULT_SITE_TIME_ZONE } from '@/platform/calendar';

const rank = (severity: AlertSeverity) => ALERT_SEVERITIES.indexOf(severity);

/** Stored settings (jsonb) read back leniently: a missing or older document means the defaults. */
export function readAlertSettings(stored: unknown): AlertSettings {
  if (stored === undefined || stored === null) return DEFAULT_ALERT_SETTINGS;
  const parsed = AlertSettingsSchema.partial().safeParse(stored);
  return parsed.success ? { ...DEFAULT_ALERT_SETTINGS, ...parsed.data } : DEFAULT_ALERT_SETTINGS;
}

const timeFormats = new Map<string, Intl.DateTimeFormat>();
function timeFormat(timeZone: string): Intl.DateTimeFormat {
  let format = timeFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    timeFormats.set(timeZone, format);
  }
  return format;
}

/** Minutes since midnight in the site's time zone. */
function siteMinutes(instant: Date, timeZone: string): number {
  const [hours = 0, minutes = 0] = timeFormat(timeZone).format(instant).split(':').map(Number);
  return hours * 60 + minutes;
}

const toMinutes = (time: string) => {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return hours * 60 + minutes;
};

/**
 * Whether `instant` falls in the quiet hours, read on the site's clock (`timeZone`); a window may
 * run over midnight (22:00–06:00).
 */
export function isQuietTime(
  quietHours: AlertSettings['quietHours'],
  instant: Date,
  timeZone: string = DEFAULT_SITE_TIME_ZONE,
): boolean {
  if (!quietHours) return false;
  const now = siteMinutes(instant, timeZone);
  const start = toMinutes(quietHours.start);
  const end = toMinutes(quietHours.end);
  if (start === end) return false;
  return start < end ? now >= start && now < end : now >= start || now < end;
}

/** The quiet hours that apply at a site: its own, else the tenant's. */
export function quietHoursAt(settings: AlertSettings, siteId: string | null) {
  const own = siteId ? settings.siteQuietHours.find((entry) => entry.siteId === siteId) : undefined;
  return own
    ? { start: own.start, end: own.end, minSeverity: own.minSeverity }
    : settings.quietHours;
}

/**
 * The channels an alert goes to besides the bell. Rules for the alert's own site replace the
 * general rules for its kind there; each rule applies from its minimum severity up. In quiet
 * hours (the site's own or the tenant's, on the site's clock) e-mail and push go out only from
 * the quiet hours' own minimum severity up.
 */
export function channelsFor(
  settings: AlertSettings,
  alert: { kind: AlertKind; severity: AlertSeverity; siteId: string | null },
  instant: Date,
  timeZone: string = DEFAULT_SITE_TIME_ZONE,
): Set<AlertChannel> {
  const ofKind = settings.routes.filter((route) => route.kind === alert.kind);
  const forSite = alert.siteId ? ofKind.filter((route) => route.siteId === alert.siteId) : [];
  const rules = forSite.length > 0 ? forSite : ofKind.filter((route) => route.siteId === null);
  const channels = new Set<AlertChannel>();
  for (const rule of rules) {
    if (rank(alert.severity) < rank(rule.minSeverity)) continue;
    for (const channel of rule.channels) channels.add(channel);
  }
  const quiet = quietHoursAt(settings, alert.siteId);
  if (
    quiet &&
    isQuietTime(quiet, instant, timeZone) &&
    rank(alert.severity) < rank(quiet.minSeverity)
  ) {
    channels.delete('email');
    channels.delete('push');
  }
  return channels;
}
