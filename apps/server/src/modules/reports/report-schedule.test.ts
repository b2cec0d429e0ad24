import { describe, expect, it } from 'vitest';

import { nextSendAt, reportPeriod } from './report-schedule';

describe('nextSendAt', () => {
  it('is 06:00 SAST the next day, or today when it is still before 06:00', () => {
    // 2026-03-10 is a Tuesday; 06:00 SAST is 04:00 UTC.
    expect(nextSendAt('daily', new Date('2026-03-10T03:59:59Z')).toISOString()).toBe(
      '2026-03-10T04:00:00.000Z',
    );
    expect(nextSendAt('daily', new Date('2026-03-10T04:00:00Z')).toISOString()).toBe(
      '2026-03-11T04:00:00.000Z',
    );
    // 23:30 SAST on the 10th is already the 10th's evening: the next send is the 11th.
    expect(nextSendAt('daily', new Date('2026-03-10T21:30:00Z')).toISOString()).toBe(
      '2026-03-11T04:00:00.000Z',
    );
  });

  it('is the next Monday 06:00 SAST for a weekly report', () => {
    expect(nextSendAt('weekly', new Date('2026-03-10T08:00:00Z')).toISOString()).toBe(
      '2026-03-16T04:00:00.000Z',
    );
    expect(nextSendAt('weekly', new Date('2026-03-16T03:59:00Z')).toISOString()).toBe(
      '2026-03-16T04:00:00.000Z',
    );
    expect(nextSendAt('weekly', new Date('2026-03-16T04:00:00Z')).toISOString()).toBe(
      '2026-03-23T04:00:00.000Z',
    );
  });
});

describe('reportPeriod', () => {
  it('covers the SAST day before, or the Monday to Sunday before', () => {
    expect(reportPeriod('daily', new Date('2026-03-11T04:00:00Z'))).toEqual({
      from: '2026-03-10',
      to: '2026-03-10',
    });
    expect(reportPeriod('weekly', new Date('2026-03-16T04:00:00Z'))).toEqual({
      from: '2026-03-09',
      to: '2026-03-15',
    });
  });
});
