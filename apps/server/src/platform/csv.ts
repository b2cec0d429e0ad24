import { stringify } from 'csv-stringify/sync';

/**
 * Spreadsheet programs run a cell that starts with = + - @ (or a tab or carriage return that
 * hides one) as a formula: "CSV injection" (OWASP). Such a cell gets a leading apostrophe, which
 * Excel, LibreOffice and Google Sheets show as text. Numbers like -5 lose nothing a person reads.
 */
export function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/**
 * A CSV file for download: RFC 4180 quoting by csv-stringify, every cell neutralised, CRLF line
 * ends and a UTF-8 byte-order mark so Excel reads accented names correctly.
 */
export function toCsv(header: readonly string[], rows: readonly (readonly (string | null)[])[]) {
  return `\uFEFF${csvLines([header, ...rows])}`;
}

/** Rows as CSV lines (no byte-order mark): a streamed export writes its file a batch at a time. */
export function csvLines(rows: readonly (readonly (string | null)[])[]): string {
  const cells = rows.map((row) => row.map((value) => neutraliseFormula(value ?? '')));
  return stringify(cells, { record_delimiter: 'windows' });
}

/** `attachment; filename=…` with only safe characters in the name. */
export function attachment(fileName: string): string {
  return `attachment; filename="${fileName.replace(/[^A-Za-z0-9._-]/g, '_')}"`;
}
