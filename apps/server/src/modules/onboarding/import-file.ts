import { promisify } from 'node:util';
import zlib from 'node:zlib';

import { CsvError, parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';

import type { DriverRecordField } from '@boomgate/contracts/drivers';
import {
  IMPORT_COLUMNS,
  MAX_IMPORT_CELL_CHARS,
  MAX_IMPORT_FILE_BYTES,
  MAX_IMPORT_ROWS,
  headerKey,
} from '@boomgate/contracts/onboarding';

import { AppError } from '@/platform/errors';

export type ImportFileType = 'csv' | 'xlsx';

/** One data line of the file: its spreadsheet line number and the cells of known columns. */
export type ImportFileRow = {
  rowNumber: number;
  values: Partial<Record<DriverRecordField, string>>;
};

export type ImportFile = { fileType: ImportFileType; rows: ImportFileRow[] };

/** What the workbook may expand to: a 10 MB XLSX of drivers is a few MB of XML, never this. */
const MAX_XLSX_UNCOMPRESSED_BYTES = 64 * 1024 * 1024;
const MAX_XLSX_ENTRIES = 2_000;

const unsupported = (message: string) => new AppError('UNSUPPORTED_MEDIA_TYPE', message);
const TYPE_MESSAGE = 'Upload the bulk file as CSV (UTF-8) or XLSX.';

/**
 * Reads an uploaded bulk file. The type comes from the bytes (an XLSX is a ZIP: `PK\3\4`; a CSV
 * must be UTF-8 text) and must agree with the file name's extension.
 */
export async function readImportFile(fileName: string, bytes: Buffer): Promise<ImportFile> {
  if (bytes.length > MAX_IMPORT_FILE_BYTES) {
    throw new AppError('PAYLOAD_TOO_LARGE', 'The file is larger than 10MB.');
  }
  if (bytes.length === 0) throw new AppError('INVALID', 'The file is empty.');
  const extension = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  const fileType = sniffImportFileType(bytes);
  if (extension !== 'csv' && extension !== 'xlsx') {
    throw unsupported(
      extension === 'xls'
        ? 'Old Excel (.xls) files are not supported: save the sheet as .xlsx or CSV.'
        : TYPE_MESSAGE,
    );
  }
  if (fileType !== extension) {
    throw unsupported(
      extension === 'xlsx'
        ? 'This file is not a valid XLSX workbook.'
        : 'This CSV is not UTF-8 text. In Excel, save it as "CSV UTF-8".',
    );
  }
  const table = fileType === 'xlsx' ? await readXlsx(bytes) : readCsv(bytes);
  return { fileType, rows: toRows(table) };
}

/** `xlsx` for a ZIP holding a workbook, `csv` for UTF-8 text, else null. */
export function sniffImportFileType(bytes: Buffer): ImportFileType | null {
  if (bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) {
    const names = zipEntryNames(bytes);
    return names?.has('[Content_Types].xml') && names.has('xl/workbook.xml') ? 'xlsx' : null;
  }
  if (bytes.includes(0)) return null;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return 'csv';
  } catch {
    return null;
  }
}

/** A ZIP entry as its central directory describes it. */
type ZipEntry = { name: string; method: number; compressed: number; localHeader: number };

/**
 * The entry names from the ZIP's central directory, after checking what the entries claim to
 * expand to (a "zip bomb" is refused before anything is inflated). Null when it is no valid ZIP.
 */
function zipEntryNames(bytes: Buffer): Set<string> | null {
  const entries = zipEntries(bytes);
  return entries && new Set(entries.map((entry) => entry.name));
}

function zipEntries(bytes: Buffer): ZipEntry[] | null {
  const END_OF_DIRECTORY = 0x06054b50;
  const DIRECTORY_ENTRY = 0x02014b50;
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (bytes.readUInt32LE(at) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) return null;
  const count = bytes.readUInt16LE(end + 10);
  const directoryOffset = bytes.readUInt32LE(end + 16);
  // ZIP64 markers: no spreadsheet of drivers needs them.
  if (count === 0xffff || directoryOffset === 0xffffffff) return null;
  if (count > MAX_XLSX_ENTRIES) throw unsupported('This workbook has too many parts.');
  const entries: ZipEntry[] = [];
  let total = 0;
  let at = directoryOffset;
  for (let index = 0; index < count; index++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== DIRECTORY_ENTRY) return null;
    const method = bytes.readUInt16LE(at + 10);
    const compressed = bytes.readUInt32LE(at + 20);
    const uncompressed = bytes.readUInt32LE(at + 24);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const localHeader = bytes.readUInt32LE(at + 42);
    total += uncompressed;
    if (
      total > MAX_XLSX_UNCOMPRESSED_BYTES ||
      (compressed > 0 && uncompressed / compressed > 200 && uncompressed > 1024 * 1024)
    ) {
      throw tooMuchData();
    }
    const name = bytes.toString('utf8', at + 46, at + 46 + nameLength);
    entries.push({ name, method, compressed, localHeader });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

const tooMuchData = () =>
  new AppError('PAYLOAD_TOO_LARGE', 'This workbook expands to too much data.');

const inflateRaw = promisify(zlib.inflateRaw);

/**
 * The central directory's sizes are only claims: JSZip inflates whatever data follows each local
 * header. So every entry is inflated here first with a cap on what it may really produce (zlib
 * stops at `maxOutputLength`), and the workbook is refused past MAX_XLSX_UNCOMPRESSED_BYTES.
 */
async function assertInflatesWithinCap(bytes: Buffer): Promise<void> {
  const LOCAL_HEADER = 0x04034b50;
  const invalid = () => unsupported('This file is not a valid XLSX workbook.');
  const entries = zipEntries(bytes);
  if (!entries) throw invalid();
  let remaining = MAX_XLSX_UNCOMPRESSED_BYTES;
  for (const entry of entries) {
    const at = entry.localHeader;
    if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== LOCAL_HEADER) throw invalid();
    const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
    if (start + entry.compressed > bytes.length) throw invalid();
    const data = bytes.subarray(start, start + entry.compressed);
    if (entry.method === 0) {
      remaining -= data.length; // stored: the data is its own size
    } else if (entry.method === 8) {
      let inflated: Buffer;
      try {
        inflated = await inflateRaw(data, { maxOutputLength: Math.max(1, remaining + 1) });
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooMuchData();
        throw invalid();
      }
      remaining -= inflated.length;
    } else {
      throw invalid(); // JSZip reads only stored and deflated entries
    }
    if (remaining < 0) throw tooMuchData();
  }
}

/** A line of the sheet: its number as the spreadsheet shows it, and its cells. */
type SheetLine = { line: number; cells: string[] };

function readCsv(bytes: Buffer): SheetLine[] {
  const text = bytes.toString('utf8');
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  // Excel in locales with a decimal comma writes ";" between cells.
  const delimiter = firstLine.includes(';') && !firstLine.includes(',') ? ';' : ',';
  try {
    // With `info: true` csv-parse returns { record, info } objects; its types do not say so.
    const records = parse(text, {
      bom: true,
      delimiter,
      relax_column_count: true,
      // Blank lines and lines of empty cells are no rows; `info.lines` keeps the line numbers a
      // spreadsheet shows (for a cell spanning lines, its last line).
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      info: true,
      max_record_size: 64 * 1024,
      // Header + the row limit + one more: enough to know the limit was passed, no more read.
      to: MAX_IMPORT_ROWS + 2,
    }) as unknown as { record: string[]; info: { lines: number } }[];
    if (records.length >= MAX_IMPORT_ROWS + 2) throw tooManyRows();
    return records.map(({ record, info }) => ({ line: info.lines, cells: record }));
  } catch (error) {
    if (error instanceof CsvError) {
      throw new AppError('INVALID', `The CSV could not be read: ${error.message}`);
    }
    throw error;
  }
}

async function readXlsx(bytes: Buffer): Promise<SheetLine[]> {
  await assertInflatesWithinCap(bytes);
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs types its input as an ArrayBuffer; JSZip reads a copy of exactly these bytes.
    const arrayBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    await workbook.xlsx.load(arrayBuffer as ExcelJS.Buffer);
  } catch {
    throw unsupported('This file is not a valid XLSX workbook.');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new AppError('INVALID', 'The workbook has no sheet.');
  if (sheet.actualRowCount > MAX_IMPORT_ROWS + 1) throw tooManyRows();
  const table: SheetLine[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, line) => {
    const cells: string[] = [];
    for (let column = 1; column <= Math.min(row.cellCount, 64); column++) {
      cells.push(cellText(row.getCell(column).value));
    }
    table.push({ line, cells });
  });
  return table;
}

/** What a person sees in the cell. Formulas are never run: their saved result is used. */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'number') {
    return Number.isInteger(value) ? value.toFixed(0) : String(value);
  }
  if (typeof value === 'string' || typeof value === 'boolean') return String(value);
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('hyperlink' in value) return String(value.text);
  if ('formula' in value || 'sharedFormula' in value) {
    const result = value.result;
    return result === undefined || (typeof result === 'object' && 'error' in result)
      ? ''
      : cellText(result);
  }
  return '';
}

const tooManyRows = () =>
  new AppError(
    'INVALID',
    `The file has more than ${MAX_IMPORT_ROWS.toLocaleString('en-ZA')} rows: split it into smaller files.`,
  );

/** Maps the header to record fields and turns every non-blank line under it into a row. */
function toRows(table: SheetLine[]): ImportFileRow[] {
  const headerIndex = table.findIndex(({ cells }) => cells.some((cell) => cell.trim() !== ''));
  const header = table[headerIndex]?.cells;
  if (!header) throw new AppError('INVALID', 'The file is empty: it has no header row.');
  const fieldAt = new Map<number, DriverRecordField>();
  header.forEach((cell, index) => {
    const key = headerKey(cell);
    const column = IMPORT_COLUMNS.find(
      (candidate) => headerKey(candidate.header) === key || headerKey(candidate.field) === key,
    );
    if (!column) return;
    if ([...fieldAt.values()].includes(column.field)) {
      throw new AppError('INVALID', `The column "${column.header}" appears twice.`);
    }
    fieldAt.set(index, column.field);
  });
  const missing = IMPORT_COLUMNS.filter(
    (column) => column.required && ![...fieldAt.values()].includes(column.field),
  );
  if (missing.length > 0) {
    throw new AppError(
      'INVALID',
      `The file is missing the column(s) ${missing.map((column) => column.header).join(', ')}. ` +
        'Download the template to see the columns.',
    );
  }
  const rows: ImportFileRow[] = [];
  for (const { line, cells } of table.slice(headerIndex + 1)) {
    const values: ImportFileRow['values'] = {};
    for (const [index, field] of fieldAt) {
      const cell = (cells[index] ?? '').trim();
      if (cell !== '') values[field] = cell.slice(0, MAX_IMPORT_CELL_CHARS + 1);
    }
    if (Object.keys(values).length > 0) rows.push({ rowNumber: line, values });
  }
  if (rows.length > MAX_IMPORT_ROWS) throw tooManyRows();
  if (rows.length === 0)
    throw new AppError('INVALID', 'The file has no driver rows under its header.');
  return rows;
}
