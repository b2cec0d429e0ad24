import type { ReportSummary } from '@boomgate/contracts/reports';

const percent = (rate: number | null) => (rate === null ? null : Math.round(rate * 1000) / 10);

export type ReportCell = string | number | null;
export type ReportTable = { name: string; header: string[]; rows: ReportCell[][] };

/**
 * The report's figures as the tables of the Reports screen: the scheduled e-mail's attachment
 * holds them as workbook sheets (XLSX) or document sections (PDF), the same figures either way.
 */
export function reportTables(report: ReportSummary): ReportTable[] {
  const { totals, rates, turnaround, weighbridge } = report;
  return [
    {
      name: 'Summary',
      header: ['Figure', 'Value'],
      rows: [
        ['From', report.from],
        ['To', report.to],
        ['Time zone', report.timeZone],
        ['Entries', totals.entries],
        ['Granted', totals.granted],
        ['Refused', totals.refused],
        ['Arrivals', totals.arrivals],
        ['Departures', totals.departures],
        ['Approval rate (%)', percent(rates.approval)],
        ['Face verified (%)', percent(rates.faceVerification)],
        ['Manual corrections (%)', percent(rates.manualCorrection)],
        ['Median turnaround (min)', turnaround.medianMinutes],
        ['90th percentile turnaround (min)', turnaround.p90Minutes],
        ['Weighbridge loads', weighbridge.loads],
        ['Net mass (kg)', weighbridge.netMassKg],
        ['Loads checked for overload', weighbridge.overloadChecked],
        ['Overloaded loads', weighbridge.overloaded],
      ],
    },
    {
      name: 'Days',
      header: ['Day', 'Entries', 'Granted', 'Refused', 'Arrivals', 'Departures'],
      rows: report.days.map((d) => [
        d.day,
        d.entries,
        d.granted,
        d.refused,
        d.arrivals,
        d.departures,
      ]),
    },
    {
      name: 'Hours',
      header: ['Hour', 'Entries', 'Granted', 'Refused', 'Arrivals', 'Departures'],
      rows: report.hours.map((h) => [
        h.hour,
        h.entries,
        h.granted,
        h.refused,
        h.arrivals,
        h.departures,
      ]),
    },
    {
      name: 'Refusals',
      header: ['Reason', 'Count'],
      rows: report.refusalReasons.map((r) => [r.reason, r.count]),
    },
    {
      name: 'Turnaround',
      header: ['Transporter', 'Visits', 'Median (min)', '90th percentile (min)'],
      rows: turnaround.byTransporter.map((r) => [
        r.transporter,
        r.visits,
        r.medianMinutes,
        r.p90Minutes,
      ]),
    },
    {
      name: 'Weighbridge',
      header: ['Transporter', 'Loads', 'Net mass (kg)', 'Checked', 'Overloaded'],
      rows: weighbridge.byTransporter.map((r) => [
        r.transporter,
        r.loads,
        r.netMassKg,
        r.overloadChecked,
        r.overloaded,
      ]),
    },
    {
      name: 'Gates',
      header: ['Gate', 'Entries'],
      rows: report.busiestGates.map((g) => [g.gateName ?? 'No gate recorded', g.entries]),
    },
  ];
}
