/** Sites in South Africa run on SAST; "today" on the dashboard and approval dates mean the site's day. */
export const DEFAULT_SITE_TIME_ZONE = 'Africa/Johannesburg';

// Building an Intl.DateTimeFormat costs about half a millisecond; the dashboard asks twice per request.
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day (YYYY-MM-DD) at `instant` in `timeZone`. */
export function siteDay(instant: Date, timeZone = DEFAULT_SITE_TIME_ZONE): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dayFormats.set(timeZone, format);
  }
  return format.format(instant);
}

/** The instant the site's day containing `instant` began. */
export function startOfSiteDay(instant: Date, timeZone = DEFAULT_SITE_TIME_ZONE): Date {
  const day = siteDay(instant, timeZone);
  const utcMidnight = new Date(`${day}T00:00:00Z`);
  const offsetMs =
    utcMidnight.getTime() - new Date(utcMidnight.toLocaleString('en-US', { timeZone })).getTime();
  const midnightUtcGuess = new Date(utcMidnight.getTime() + offsetMs);
  // Re-check across a DST change: the guess must fall on the same site day.
  return siteDay(midnightUtcGuess, timeZone) === day ? midnightUtcGuess : utcMidnight;
}

/** `months` calendar months after the YYYY-MM-DD `day`. */
export function addMonths(day: string, months: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const result = new Date(Date.UTC(year, month - 1 + months, date));
  return result.toISOString().slice(0, 10);
}

/**
 * The instants bounding site days `from` to `to` (YYYY-MM-DD, both inclusive): from the start of
 * `from` up to (not including) the start of the day after `to`. Noon is on its day at any offset.
 */
export function siteDayRange(
  from: string,
  to: string,
  timeZone = DEFAULT_SITE_TIME_ZONE,
): { from: Date; until: Date } {
  const next = new Date(`${to}T12:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return {
    from: startOfSiteDay(new Date(`${from}T12:00:00Z`), timeZone),
    until: startOfSiteDay(next, timeZone),
  };
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** `instant` as ISO 8601 in the site's local time with its offset: 2026-11-26T10:15:00+02:00. */
export function siteTimestamp(instant: Date, timeZone = DEFAULT_SITE_TIME_ZONE): string {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'longOffset',
    });
    offsetFormats.set(timeZone, format);
  }
  const part = Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, p.value]));
  const offset = (part.timeZoneName ?? 'GMT').replace('GMT', '') || '+00:00';
  return `${part.year}-${part.month}-${part.day}T${part.hour}:${part.minute}:${part.second}${offset}`;
}
