import { DEFAULT_SITE_TIME_ZONE, siteDay, startOfSiteDay } from '@/platform/calendar';

/** Scheduled reports go out at 06:00 on the site's day (SAST), before the morning shift meeting. */
export const REPORT_SEND_HOUR = 6;

export type ReportFrequency = 'daily' | 'weekly';

const DAY_MS = 86_400_000;
const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T12:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
/** 0 = Monday … 6 = Sunday, for a YYYY-MM-DD day. */
const weekdayOf = (day: string) => (new Date(`${day}T12:00:00Z`).getUTCDay() + 6) % 7;
const sendTimeOn = (day: string, timeZone: string) =>
  new Date(
    startOfSiteDay(new Date(`${day}T12:00:00Z`), timeZone).getTime() + REPORT_SEND_HOUR * 3_600_000,
  );

/**
 * The first send time strictly after `now`: 06:00 on the next day (daily) or the next Monday
 * (weekly), in the site's timezone.
 */
export function nextSendAt(
  frequency: ReportFrequency,
  now: Date,
  timeZone = DEFAULT_SITE_TIME_ZONE,
): Date {
  let day = siteDay(now, timeZone);
  for (let i = 0; i < 8; i++, day = addDays(day, 1)) {
    const at = sendTimeOn(day, timeZone);
    if (at > now && (frequency === 'daily' || weekdayOf(day) === 0)) return at;
  }
  throw new Error('unreachable: a Monday falls within 8 days');
}

/**
 * The site days a report due at `dueAt` covers: the day before (daily) or the Monday to Sunday
 * before (weekly).
 */
export function reportPeriod(
  frequency: ReportFrequency,
  dueAt: Date,
  timeZone = DEFAULT_SITE_TIME_ZONE,
): { from: string; to: string } {
  const to = addDays(siteDay(dueAt, timeZone), -1);
  return { from: frequency === 'daily' ? to : addDays(to, -6), to };
}
