import ExcelJS from 'exceljs';

import type { ReportSummary } from '@boomgate/contracts/reports';

const percent = (rate: number | null) => (rate === null ? null : Math.round(rate * 1000) / 10);

/**
 * The report as an XLSX workbook (the scheduled e-mail's attachment): a sheet per table of the
 * Reports screen. Cells are typed values, never formulas.
 */
export async function reportWorkbook(report: ReportSummary): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = (name: string, header: string[], rows: (string | number | null)[][]) => {
    const ws = workbook.addWorksheet(name);
    ws.addRow(header);
    for (const row of rows) ws.addRow(row);
  };
  const { totals, rates, turnaround, weighbridge } = report;
  sheet(
    'Summary',
    ['Figure', 'Value'],
    [
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
  );
  sheet(
    'Days',
    ['Day', 'Entries', 'Granted', 'Refused', 'Arrivals', 'Departures'],
    report.days.map((d) => [d.day, d.entries, d.granted, d.refused, d.arrivals, d.departures]),
  );
  sheet(
    'Hours',
    ['Hour', 'Entries', 'Granted', 'Refused', 'Arrivals', 'Departures'],
    report.hours.map((h) => [h.hour, h.entries, h.granted, h.refused, h.arrivals, h.departures]),
  );
  sheet(
    'Refusals',
    ['Reason', 'Count'],
    report.refusalReasons.map((r) => [r.reason, r.count]),
  );
  sheet(
    'Turnaround',
    ['Transporter', 'Visits', 'Median (min)', '90th percentile (min)'],
    turnaround.byTransporter.map((r) => [r.transporter, r.visits, r.medianMinutes, r.p90Minutes]),
  );
  sheet(
    'Weighbridge',
    ['Transporter', 'Loads', 'Net mass (kg)', 'Checked', 'Overloaded'],
    weighbridge.byTransporter.map((r) => [
      r.transporter,
      r.loads,
      r.netMassKg,
      r.overloadChecked,
      r.overloaded,
    ]),
  );
  sheet(
    'Gates',
    ['Gate', 'Entries'],
    report.busiestGates.map((g) => [g.gateName ?? 'No gate recorded', g.entries]),
  );
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
