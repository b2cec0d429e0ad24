import { describe, expect, it } from 'vitest';

import { addMonths, siteDay, siteDayRange, siteTimestamp, startOfSiteDay } from './calendar';

describe('siteDay', () => {
  it('uses the site time zone, not UTC', () => {
    // 23:30 UTC on 21 Nov is already 22 Nov in Johannesburg (UTC+2).
    expect(siteDay(new Date('2026-11-21T23:30:00Z'))).toBe('2026-11-22');
    expect(siteDay(new Date('2026-11-21T21:30:00Z'))).toBe('2026-11-21');
  });
});

describe('startOfSiteDay', () => {
  it('is midnight SAST, which is 22:00 UTC the day before', () => {
    expect(startOfSiteDay(new Date('2026-11-22T10:00:00Z')).toISOString()).toBe(
      '2026-11-21T22:00:00.000Z',
    );
  });
});

describe('addMonths', () => {
  it('adds calendar months', () => {
    expect(addMonths('2026-11-22', 3)).toBe('2027-02-22');
  });
});

describe('siteDayRange', () => {
  it('bounds SAST days: from midnight SAST up to the next midnight, both days inclusive', () => {
    expect(siteDayRange('2026-03-10', '2026-03-11')).toEqual({
      from: new Date('2026-03-09T22:00:00Z'),
      until: new Date('2026-03-11T22:00:00Z'),
    });
  });

  it('follows a zone with summer time across its change', () => {
    // London moves to BST (UTC+1) on 29 March 2026.
    expect(siteDayRange('2026-03-29', '2026-03-29', 'Europe/London')).toEqual({
      from: new Date('2026-03-29T00:00:00Z'),
      until: new Date('2026-03-29T23:00:00Z'),
    });
  });
});

describe('siteTimestamp', () => {
  it('writes local time with its offset', () => {
    expect(siteTimestamp(new Date('2026-03-10T21:30:00Z'))).toBe('2026-03-10T23:30:00+02:00');
    expect(siteTimestamp(new Date('2026-01-05T12:00:00Z'), 'UTC')).toBe(
      '2026-01-05T12:00:00+00:00',
    );
    expect(siteTimestamp(new Date('2026-07-01T00:00:00Z'), 'Europe/London')).toBe(
      '2026-07-01T01:00:00+01:00',
    );
  });
});
