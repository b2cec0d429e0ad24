import { describe, expect, it } from 'vitest';

import { type AlertSettings, DEFAULT_ALERT_SETTINGS } from '@boomgate/contracts/alerts';

import { channelsFor, isQuietTime, quietHoursAt, readAlertSettings } from './alert-routing';

const SITE = '5b0c8f7e-0000-4000-8000-000000000001';
// 20:30 UTC is 22:30 at the site (SAST, UTC+2).
const LATE_EVENING = new Date('2026-03-02T20:30:00Z');
const MIDDAY = new Date('2026-03-02T10:00:00Z');

const settings = (overrides: Partial<AlertSettings>): AlertSettings => ({
  ...DEFAULT_ALERT_SETTINGS,
  ...overrides,
});

describe('alert routing', () => {
  it('sends a kind to the channels of its general rule from the rule’s severity up', () => {
    const routed = settings({
      routes: [
        { kind: 'entry_refused', siteId: null, channels: ['email'], minSeverity: 'warning' },
      ],
    });
    const refused = { kind: 'entry_refused' as const, siteId: null };
    expect([...channelsFor(routed, { ...refused, severity: 'warning' }, MIDDAY)]).toEqual([
      'email',
    ]);
    expect(channelsFor(routed, { ...refused, severity: 'info' }, MIDDAY).size).toBe(0);
    expect(
      channelsFor(routed, { kind: 'overstay', severity: 'critical', siteId: null }, MIDDAY).size,
    ).toBe(0);
  });

  it('lets a site’s own rules replace the general ones there', () => {
    const routed = settings({
      routes: [
        { kind: 'overstay', siteId: null, channels: ['email'], minSeverity: 'info' },
        { kind: 'overstay', siteId: SITE, channels: ['push', 'webhook'], minSeverity: 'info' },
      ],
    });
    const atSite = channelsFor(
      routed,
      { kind: 'overstay', severity: 'warning', siteId: SITE },
      MIDDAY,
    );
    expect([...atSite].sort()).toEqual(['push', 'webhook']);
    const elsewhere = channelsFor(
      routed,
      { kind: 'overstay', severity: 'warning', siteId: '5b0c8f7e-0000-4000-8000-000000000002' },
      MIDDAY,
    );
    expect([...elsewhere]).toEqual(['email']);
  });

  it('silences e-mail and push below the quiet hours’ severity, over midnight, in site time', () => {
    const routed = settings({
      routes: [
        {
          kind: 'device_offline',
          siteId: null,
          channels: ['email', 'push', 'webhook'],
          minSeverity: 'info',
        },
      ],
      quietHours: { start: '22:00', end: '06:00', minSeverity: 'critical' },
    });
    const warning = { kind: 'device_offline' as const, severity: 'warning' as const, siteId: null };
    expect([...channelsFor(routed, warning, LATE_EVENING)]).toEqual(['webhook']);
    expect(channelsFor(routed, warning, MIDDAY).size).toBe(3);
    expect(channelsFor(routed, { ...warning, severity: 'critical' }, LATE_EVENING).size).toBe(3);
  });

  it('reads quiet hours on the clock of the alert’s site', () => {
    const routed = settings({
      routes: [{ kind: 'overstay', siteId: null, channels: ['email'], minSeverity: 'info' }],
      quietHours: { start: '22:00', end: '06:00', minSeverity: 'critical' },
    });
    const overstay = { kind: 'overstay' as const, severity: 'warning' as const, siteId: SITE };
    // 20:30 UTC: 22:30 in Johannesburg (quiet), 20:30 in Lisbon in March (not yet), 23:30 in Nairobi.
    expect(channelsFor(routed, overstay, LATE_EVENING, 'Africa/Johannesburg').size).toBe(0);
    expect([...channelsFor(routed, overstay, LATE_EVENING, 'Europe/Lisbon')]).toEqual(['email']);
    expect(channelsFor(routed, overstay, LATE_EVENING, 'Africa/Nairobi').size).toBe(0);
    // 21:59 and 22:00 on the site's clock: the window starts on the minute.
    const johannesburg = 'Africa/Johannesburg';
    const quiet = { start: '22:00', end: '06:00', minSeverity: 'critical' as const };
    expect(isQuietTime(quiet, new Date('2026-03-02T19:59:00Z'), johannesburg)).toBe(false);
    expect(isQuietTime(quiet, new Date('2026-03-02T20:00:00Z'), johannesburg)).toBe(true);
    expect(isQuietTime(quiet, new Date('2026-03-02T03:59:00Z'), johannesburg)).toBe(true);
    expect(isQuietTime(quiet, new Date('2026-03-02T04:00:00Z'), johannesburg)).toBe(false);
  });

  it('uses a site’s own quiet hours there and the tenant’s elsewhere', () => {
    const OTHER = '5b0c8f7e-0000-4000-8000-000000000002';
    const routed = settings({
      routes: [{ kind: 'overstay', siteId: null, channels: ['push'], minSeverity: 'info' }],
      quietHours: { start: '22:00', end: '06:00', minSeverity: 'critical' },
      // This site works nights and sleeps at midday.
      siteQuietHours: [{ siteId: SITE, start: '11:00', end: '14:00', minSeverity: 'critical' }],
    });
    expect(quietHoursAt(routed, SITE)).toEqual({
      start: '11:00',
      end: '14:00',
      minSeverity: 'critical',
    });
    expect(quietHoursAt(routed, null)).toEqual(routed.quietHours);
    const at = (siteId: string, instant: Date) =>
      channelsFor(routed, { kind: 'overstay', severity: 'warning', siteId }, instant).size;
    expect(at(SITE, MIDDAY)).toBe(0); // 12:00 at the site
    expect(at(SITE, LATE_EVENING)).toBe(1);
    expect(at(OTHER, MIDDAY)).toBe(1);
    expect(at(OTHER, LATE_EVENING)).toBe(0);
  });

  it('reads quiet hours in both directions and an empty window as none', () => {
    expect(isQuietTime({ start: '08:00', end: '17:00', minSeverity: 'critical' }, MIDDAY)).toBe(
      true,
    );
    expect(
      isQuietTime({ start: '08:00', end: '17:00', minSeverity: 'critical' }, LATE_EVENING),
    ).toBe(false);
    expect(isQuietTime({ start: '09:00', end: '09:00', minSeverity: 'critical' }, MIDDAY)).toBe(
      false,
    );
  });

  it('falls back to the defaults for a missing or damaged stored document', () => {
    expect(readAlertSettings(undefined)).toEqual(DEFAULT_ALERT_SETTINGS);
    expect(readAlertSettings({ routes: 'nonsense' })).toEqual(DEFAULT_ALERT_SETTINGS);
    expect(readAlertSettings({ repeatEveryMinutes: 10 }).repeatEveryMinutes).toBe(10);
  });
});
