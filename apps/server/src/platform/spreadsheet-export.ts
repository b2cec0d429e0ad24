import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';

import ExcelJS from 'exceljs';

import { csvLines } from './csv';

export type ExportFormat = 'csv' | 'xlsx';
export type ExportCell = string | number | null;

/** A streamed download: the row count goes in a header before the body, for progress. */
export type ExportFile = {
  rowCount: number;
  fileName: string;
  contentType: string;
  body: Readable;
};

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** Every batch of a keyset-paged read, one short read at a time (a long download holds no connection). */
export async function* keysetBatches<Row, Cursor>(
  read: (after: Cursor | undefined, limit: number) => Promise<Row[]>,
  cursorOf: (row: Row) => Cursor,
  batchRows = 2_000,
): AsyncGenerator<Row[]> {
  let after: Cursor | undefined;
  for (;;) {
    const batch = await read(after, batchRows);
    if (batch.length > 0) yield batch;
    const last = batch.at(-1);
    if (last === undefined || batch.length < batchRows) return;
    after = cursorOf(last);
  }
}

function csvStream(header: readonly string[], rows: AsyncIterable<ExportCell[][]>): Readable {
  async function* chunks() {
    yield `\uFEFF${csvLines([header])}`;
    for await (const batch of rows)
      yield csvLines(batch.map((row) => row.map((cell) => (cell === null ? null : String(cell)))));
  }
  return Readable.from(chunks());
}

/**
 * exceljs's streaming writer commits each row into the zip as it goes; between batches it waits
 * while the response is full, so a slow download never piles rows up in memory. Cells are typed
 * strings and numbers, never formulas, so a value starting with '=' stays text in a spreadsheet.
 */
function xlsxStream(
  sheetName: string,
  header: readonly string[],
  rows: AsyncIterable<ExportCell[][]>,
): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: false,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(sheetName);
  void (async () => {
    try {
      sheet.addRow([...header]).commit();
      for await (const batch of rows) {
        if (out.destroyed) return;
        for (const row of batch) sheet.addRow(row).commit();
        if (out.writableNeedDrain) await Promise.race([once(out, 'drain'), once(out, 'close')]);
      }
      sheet.commit();
      await workbook.commit();
    } catch (error) {
      out.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  })();
  return out;
}

/**
 * A spreadsheet streamed from batches of rows: CSV (formula cells neutralised, a byte-order mark
 * for Excel) or XLSX, header row first.
 */
export function spreadsheetStream<Row>(
  format: ExportFormat,
  {
    header,
    sheetName,
    batches,
    cells,
  }: {
    header: readonly string[];
    sheetName: string;
    batches: AsyncIterable<Row[]>;
    cells: (row: Row) => ExportCell[];
  },
): Readable {
  async function* rows() {
    for await (const batch of batches) yield batch.map(cells);
  }
  return format === 'csv' ? csvStream(header, rows()) : xlsxStream(sheetName, header, rows());
}
