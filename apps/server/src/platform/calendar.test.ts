import { describe, expect, it } from 'vitest';

import { addMonths, siteDay, startOfSiteDay } from './calendar';

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
