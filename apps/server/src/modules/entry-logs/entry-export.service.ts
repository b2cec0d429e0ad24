import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';

import ExcelJS from 'exceljs';

import { ENTRY_EXPORT_COLUMNS, type ExportEntryLogsQuery } from '@boomgate/contracts/exports';

import type { AuditService } from '@/modules/audit';
import type { Actor } from '@/modules/sessions';
import { siteDayRange, siteTimestamp } from '@/platform/calendar';
import { csvLines } from '@/platform/csv';
import type { Database } from '@/platform/db';
import type { PageCursor } from '@/platform/page-cursor';
import { maskIdentifier } from '@/platform/personal-data';

import type {
  EntryExportRow,
  ExportRange,
  createEntryExportRepository,
} from './entry-export.repository';

/** Rows per read: each batch is one short transaction, so a long download holds no connection. */
const BATCH_ROWS = 2_000;

export type EntryExportFile = {
  rowCount: number;
  fileName: string;
  contentType: string;
  body: Readable;
};

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

/** One entry as the export's cells, in ENTRY_EXPORT_COLUMNS order. */
export function entryExportCells(row: EntryExportRow): (string | number | null)[] {
  return [
    siteTimestamp(row.timestamp),
    row.plateNumber,
    row.extractedPlate,
    row.category,
    row.driverName,
    row.driverSurname,
    maskIdentifier(row.driverIdNumber ?? row.driverPassportNumber),
    row.transportName,
    row.reference,
    yesNo(row.vehicleApproved),
    yesNo(row.faceVerified),
    yesNo(row.entryGranted),
    row.refusalReason,
    row.gateName,
    row.exitedAtMs === null ? null : siteTimestamp(new Date(Number(row.exitedAtMs))),
    row.turnaroundMinutes === null ? null : Number(row.turnaroundMinutes),
    row.warnings.map((warning) => warning.message).join('; ') || null,
  ];
}

function csvStream(batches: AsyncIterable<EntryExportRow[]>): Readable {
  async function* chunks() {
    yield `\uFEFF${csvLines([ENTRY_EXPORT_COLUMNS])}`;
    for await (const batch of batches) {
      yield csvLines(
        batch.map((row) =>
          entryExportCells(row).map((cell) => (cell === null ? null : String(cell))),
        ),
      );
    }
  }
  return Readable.from(chunks());
}

/**
 * exceljs's streaming writer commits each row into the zip as it goes; between batches it waits
 * while the response is full, so a slow download never piles rows up in memory. Cells are typed
 * strings and numbers, never formulas, so a value starting with '=' stays text in a spreadsheet.
 */
function xlsxStream(batches: AsyncIterable<EntryExportRow[]>): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: false,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet('Entries');
  void (async () => {
    try {
      sheet.addRow([...ENTRY_EXPORT_COLUMNS]).commit();
      for await (const batch of batches) {
        if (out.destroyed) return;
        for (const row of batch) sheet.addRow(entryExportCells(row)).commit();
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
 * Issue 23: the entries of a range of site days, streamed as CSV or XLSX a batch at a time (a
 * million rows never sit in memory), audited with the filters and the row count.
 */
export function createEntryExportService({
  database,
  audit,
  repository,
}: {
  database: Pick<Database, 'withTenant'>;
  audit: Pick<AuditService, 'record'>;
  repository: ReturnType<typeof createEntryExportRepository>;
}) {
  async function* batches(tenantId: string, range: ExportRange) {
    let after: PageCursor | undefined;
    for (;;) {
      const batch = await database.withTenant(tenantId, (tx) =>
        repository.entryBatch(tx, tenantId, range, BATCH_ROWS, after),
      );
      if (batch.length > 0) yield batch;
      const last = batch.at(-1);
      if (!last || batch.length < BATCH_ROWS) return;
      after = { timestamp: last.timestamp, id: last.id };
    }
  }

  return {
    async exportEntries(
      actor: Actor,
      query: ExportEntryLogsQuery,
      ip?: string,
    ): Promise<EntryExportFile> {
      const range = { ...siteDayRange(query.from, query.to), siteId: query.siteId };
      const rowCount = await database.withTenant(actor.tenantId, async (tx) => {
        const count = await repository.countEntries(tx, actor.tenantId, range);
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'entry-logs.exported',
          targetType: 'entry_log',
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
      const rows = batches(actor.tenantId, range);
      return {
        rowCount,
        fileName: `entries-${query.from}-to-${query.to}.${query.format}`,
        contentType: query.format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_TYPE,
        body: query.format === 'csv' ? csvStream(rows) : xlsxStream(rows),
      };
    },
  };
}
