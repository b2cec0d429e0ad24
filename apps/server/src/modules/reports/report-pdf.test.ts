import { describe, expect, it } from 'vitest';

import type { ReportSummary } from '@boomgate/contracts/reports';

import { readPdf } from '@/testing/pdf';

import { reportPdf } from './report-pdf';

const counts = { entries: 0, granted: 0, refused: 0, arrivals: 0, departures: 0 };
const weighbridge = { loads: 3, weighed: 3, netMassKg: 84_250, overloadChecked: 2, overloaded: 1 };

const report: ReportSummary = {
  from: '2026-03-09',
  to: '2026-03-15',
  siteId: null,
  timeZone: 'Africa/Johannesburg',
  totals: {
    entries: 41,
    granted: 37,
    refused: 4,
    arrivals: 30,
    departures: 28,
    approved: 39,
    faceVerified: 20,
    corrected: 2,
  },
  rates: { approval: 37 / 41, faceVerification: 20 / 41, manualCorrection: null },
  days: Array.from({ length: 7 }, (_, i) => ({
    ...counts,
    day: `2026-03-${String(9 + i).padStart(2, '0')}`,
    entries: i + 3,
  })),
  hours: Array.from({ length: 24 }, (_, hour) => ({
    ...counts,
    hour,
    entries: hour === 7 ? 12 : 0,
  })),
  onSite: [],
  refusalReasons: [{ reason: 'guard_refused', count: 4 }],
  turnaround: {
    visits: 5,
    medianMinutes: 47.5,
    p90Minutes: 95,
    distribution: [],
    byTransporter: [
      { transporter: 'Kumba Haulage', visits: 5, medianMinutes: 47.5, p90Minutes: 95 },
    ],
  },
  weighbridge: {
    ...weighbridge,
    overloadRate: 0.5,
    byTransporter: [{ ...weighbridge, transporter: 'Kumba Haulage', overloadRate: 0.5 }],
  },
  busiestGates: [{ gateId: null, gateName: 'North gate', entries: 41 }],
};

/** The cell after `label` in the document's text (tables are written row by row). */
const after = (texts: string[], label: string) => texts[texts.indexOf(label) + 1];

describe('reportPdf', () => {
  it('writes a valid PDF holding the report figures, over as many pages as they need', async () => {
    const pdf = await reportPdf(report, 'Boomgate weekly report: 2026-03-09 to 2026-03-15');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const { pageCount, texts } = readPdf(pdf);
    // Summary, seven days and 24 hours do not fit one A4 page.
    expect(pageCount).toBe(2);
    expect(texts[0]).toBe('Boomgate weekly report: 2026-03-09 to 2026-03-15');
    expect(after(texts, 'Entries')).toBe('41');
    expect(after(texts, 'Refused')).toBe('4');
    expect(after(texts, 'Approval rate (%)')).toBe('90.2');
    expect(after(texts, 'Manual corrections (%)')).toBe('n/a');
    expect(after(texts, 'Median turnaround (min)')).toBe('47.5');
    expect(after(texts, 'Net mass (kg)')).toBe('84250');
    // The Days table's last row (the first '2026-03-15' is the summary's To).
    const lastDay = texts.lastIndexOf('2026-03-15');
    expect(texts.slice(lastDay, lastDay + 2)).toEqual(['2026-03-15', '9']);
    expect(after(texts, 'guard_refused')).toBe('4');
    expect(after(texts, 'North gate')).toBe('41');
    for (const section of [
      'Summary',
      'Days',
      'Hours',
      'Refusals',
      'Turnaround',
      'Weighbridge',
      'Gates',
    ]) {
      expect(texts).toContain(section);
    }
  });

  it('says None for an empty table', async () => {
    const { texts } = readPdf(await reportPdf({ ...report, busiestGates: [] }, 'Report'));
    expect(texts.slice(texts.indexOf('Gates'))).toEqual(['Gates', 'Gate', 'Entries', 'None']);
  });
});
