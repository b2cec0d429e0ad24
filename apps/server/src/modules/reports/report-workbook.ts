import ExcelJS from 'exceljs';

import type { ReportSummary } from '@boomgate/contracts/reports';

import { reportTables } from './report-tables';

/**
 * The report as an XLSX workbook (the scheduled e-mail's attachment): a sheet per table of the
 * Reports screen. Cells are typed values, never formulas.
 */
export async function reportWorkbook(report: ReportSummary): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  for (const table of reportTables(report)) {
    const ws = workbook.addWorksheet(table.name);
    ws.addRow(table.header);
    for (const row of table.rows) ws.addRow(row);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
