import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';

import ExcelJS from 'exceljs';

import { csvLines } from './csv';
import type { Database, DbExecutor, Tx } from './db';

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

/** An audited event, as the audit module records it (structural: platform does not import it). */
type ExportAuditEvent = {
  tenantId: string;
  actorUserId: string | null;
  action: string;
  targetType?: string;
  ip?: string;
  details?: Record<string, unknown>;
};

/** What one export of a range of site days reads, how it is audited and how it is laid out. */
export type ExportSpec<Row, Cursor> = {
  /** The audit action (e.g. entry-logs.exported) and the kind of thing exported. */
  action: string;
  targetType: string;
  /** The download's name before `-<from>-to-<to>.<format>`. */
  fileStem: string;
  sheetName: string;
  header: readonly string[];
  /** How many rows the export will hold (audited, and sent before the body for progress). */
  count: (tx: Tx) => Promise<number>;
  /** The next `limit` rows after `after` (undefined: the first), in the export's order. */
  read: (tx: Tx, after: Cursor | undefined, limit: number) => Promise<Row[]>;
  cursorOf: (row: Row) => Cursor;
  cells: (row: Row) => ExportCell[];
};

/**
 * Issue 23: every export's one path. Counts the rows and records the audit event (filters, format
 * and row count) in one transaction, then streams the file a keyset batch at a time, each batch
 * its own short transaction of the tenant (a long download holds no connection).
 */
export async function exportWithAudit<Row, Cursor>(
  {
    database,
    audit,
  }: {
    database: Pick<Database, 'withTenant'>;
    audit: { record: (tx: DbExecutor, event: ExportAuditEvent) => Promise<unknown> };
  },
  request: {
    actor: { tenantId: string; userId: string };
    query: { from: string; to: string; format: ExportFormat; siteId?: string };
    ip?: string;
  },
  spec: ExportSpec<Row, Cursor>,
): Promise<ExportFile> {
  const { actor, query, ip } = request;
  const tenantId = actor.tenantId;
  const rowCount = await database.withTenant(tenantId, async (tx) => {
    const count = await spec.count(tx);
    await audit.record(tx, {
      tenantId,
      actorUserId: actor.userId,
      action: spec.action,
      targetType: spec.targetType,
      ip,
      details: {
        from: query.from,
        to: query.to,
        format: query.format,
        ...(query.siteId ? { siteId: query.siteId } : {}),
        rows: count,
      },
    });
    return count;
  });
  const batches = keysetBatches(
    (after: Cursor | undefined, limit: number) =>
      database.withTenant(tenantId, (tx) => spec.read(tx, after, limit)),
    spec.cursorOf,
  );
  return {
    rowCount,
    fileName: `${spec.fileStem}-${query.from}-to-${query.to}.${query.format}`,
    contentType: EXPORT_CONTENT_TYPES[query.format],
    body: spreadsheetStream(query.format, {
      header: spec.header,
      sheetName: spec.sheetName,
      batches,
      cells: spec.cells,
    }),
  };
}
