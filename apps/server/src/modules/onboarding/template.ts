import ExcelJS from 'exceljs';

import { IMPORT_COLUMNS, templateHeader } from '@boomgate/contracts/onboarding';

import { toCsv } from '@/platform/csv';

/** The bulk template as CSV: the header line only, so nothing sample-like can be imported. */
export function csvTemplate(): string {
  return toCsv(IMPORT_COLUMNS.map(templateHeader), []);
}

const DATE_FIELDS = new Set(['licenceValidTo', 'approvedUntil']);

/**
 * The bulk template as XLSX: a Drivers sheet with the header (text-formatted cells, so ID numbers
 * and phone numbers keep their digits and leading zeros; date-formatted date columns, so a typed
 * date is read as a date) and an Instructions sheet.
 */
export async function xlsxTemplate(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Boomgate';
  const sheet = workbook.addWorksheet('Drivers', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = IMPORT_COLUMNS.map((column) => ({
    header: templateHeader(column),
    key: column.field,
    width: Math.max(16, column.header.length + 4),
    style: { numFmt: DATE_FIELDS.has(column.field) ? 'yyyy-mm-dd' : '@' },
  }));
  sheet.getRow(1).font = { bold: true };
  const help = workbook.addWorksheet('Instructions');
  help.columns = [
    { header: 'Column', key: 'column', width: 22 },
    { header: 'Required', key: 'required', width: 10 },
    { header: 'What to enter', key: 'help', width: 60 },
  ];
  help.getRow(1).font = { bold: true };
  for (const column of IMPORT_COLUMNS) {
    help.addRow({
      column: column.header,
      required: column.required ? 'Yes' : 'No',
      help: column.help,
    });
  }
  help.addRow({});
  help.addRow({
    column: 'Note',
    help: 'One driver per row. A plate number also approves that vehicle for entry. Only the first sheet is read.',
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
