import { z } from 'zod';

import type { DriverRecordField } from './drivers';

/** Spec §9: the bulk file may be at most 10MB (10485760 bytes). */
export const MAX_IMPORT_FILE_BYTES = 10_485_760;
/** A bigger fleet is split over several files; keeps validation and the preview responsive. */
export const MAX_IMPORT_ROWS = 5_000;
/** No value in a driver record is longer; a longer cell is a mistake or an attack. */
export const MAX_IMPORT_CELL_CHARS = 500;

export type ImportColumn = {
  field: DriverRecordField;
  header: string;
  required: boolean;
  help: string;
};

/** The columns of the bulk template, in order. Headers match by letters and digits only. */
export const IMPORT_COLUMNS: readonly ImportColumn[] = [
  { field: 'name', header: 'Driver Name', required: true, help: 'First name(s)' },
  { field: 'surname', header: 'Surname', required: true, help: 'Surname' },
  {
    field: 'idNumber',
    header: 'ID Number',
    required: true,
    help: 'South African ID number, 13 digits',
  },
  { field: 'phone', header: 'Phone', required: false, help: 'e.g. 082 123 4567' },
  { field: 'licenceNumber', header: 'Licence Number', required: false, help: "Driver's licence" },
  {
    field: 'licenceValidTo',
    header: 'Licence Valid To',
    required: false,
    help: 'YYYY-MM-DD or DD/MM/YYYY',
  },
  { field: 'transportCompany', header: 'Transport Company', required: false, help: 'Employer' },
  {
    field: 'plateNumber',
    header: 'Plate Number',
    required: false,
    help: 'The vehicle to approve for entry, e.g. CA 123-456',
  },
  {
    field: 'approvedUntil',
    header: 'Approved Until',
    required: false,
    help: 'Last day of the approval; three months from today if blank',
  },
  // Issue 21: a truck-tractor's trailers (a rig), each with its own plate and licence disc.
  { field: 'trailer1Plate', header: 'Trailer 1 Plate', required: false, help: 'First trailer' },
  {
    field: 'trailer1DiscNumber',
    header: 'Trailer 1 Disc Number',
    required: false,
    help: "First trailer's licence disc number",
  },
  {
    field: 'trailer1DiscExpiry',
    header: 'Trailer 1 Disc Expiry',
    required: false,
    help: 'YYYY-MM-DD or DD/MM/YYYY',
  },
  { field: 'trailer2Plate', header: 'Trailer 2 Plate', required: false, help: 'Second trailer' },
  {
    field: 'trailer2DiscNumber',
    header: 'Trailer 2 Disc Number',
    required: false,
    help: "Second trailer's licence disc number",
  },
  {
    field: 'trailer2DiscExpiry',
    header: 'Trailer 2 Disc Expiry',
    required: false,
    help: 'YYYY-MM-DD or DD/MM/YYYY',
  },
];

/** The header as the template writes it: required columns end with *. */
export const templateHeader = (column: ImportColumn) =>
  column.required ? `${column.header}*` : column.header;

/** "Driver Name*", "driver_name" and "DRIVER NAME" are the same column. */
export const headerKey = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

export const IMPORT_FILE_TYPES = ['csv', 'xlsx'] as const;

export const ImportRowErrorSchema = z.object({
  /** The record field, or null for a problem with the whole row (e.g. a duplicate). */
  field: z.string().nullable(),
  message: z.string(),
});
export type ImportRowError = z.infer<typeof ImportRowErrorSchema>;

export const ImportPreviewRowSchema = z.object({
  /** The line in the spreadsheet (the header is line 1). */
  rowNumber: z.number().int(),
  values: z.record(z.string(), z.string()),
  errors: z.array(ImportRowErrorSchema),
});
export type ImportPreviewRow = z.infer<typeof ImportPreviewRowSchema>;

export const ImportPreviewSchema = z.object({
  fileName: z.string(),
  fileType: z.enum(IMPORT_FILE_TYPES),
  totalRows: z.number().int(),
  validRows: z.number().int(),
  /** What an import would create now: a driver per valid row, a vehicle per valid row with a plate. */
  drivers: z.number().int(),
  vehicles: z.number().int(),
  rows: z.array(ImportPreviewRowSchema),
});
export type ImportPreview = z.infer<typeof ImportPreviewSchema>;

export const ImportRejectedRowSchema = z.object({
  rowNumber: z.number().int(),
  errors: z.array(ImportRowErrorSchema),
});

export const ImportResultSchema = z.object({
  driversImported: z.number().int(),
  vehiclesImported: z.number().int(),
  rejected: z.array(ImportRejectedRowSchema),
  /** e.g. "5 drivers and 3 vehicles" (spec §2). */
  summary: z.string(),
});
export type ImportResult = z.infer<typeof ImportResultSchema>;

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** Spec §2's result line: "5 drivers and 3 vehicles". */
export function importSummary(drivers: number, vehicles: number): string {
  return `${plural(drivers, 'driver')} and ${plural(vehicles, 'vehicle')}`;
}

/** The label of a record field for messages and tables. */
export function importFieldLabel(field: string | null): string | null {
  return IMPORT_COLUMNS.find((column) => column.field === field)?.header ?? null;
}
