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
