import { z } from 'zod';

import { IdSchema } from './primitives';

/** Issue 23: entries for a range of site days (SAST by default), both days inclusive. */
export const ExportEntryLogsQuerySchema = z
  .object({
    format: z.enum(['csv', 'xlsx']).default('csv'),
    from: z.iso.date(),
    to: z.iso.date(),
    siteId: IdSchema.optional(),
  })
  .refine((query) => query.from <= query.to, {
    message: 'The range must start on or before its last day.',
    path: ['to'],
  });
export type ExportEntryLogsQuery = z.infer<typeof ExportEntryLogsQuerySchema>;

/** The export's columns, in order (the first row of the CSV and of the sheet). */
export const ENTRY_EXPORT_COLUMNS = [
  'Timestamp',
  'Plate',
  'Extracted Plate',
  'Category',
  'Driver Name',
  'Driver Surname',
  'ID Number (masked)',
  'Transport',
  'Reference',
  'Approved',
  'Face Verified',
  'Granted',
  'Refusal Reason',
  'Gate',
  'Exit Time',
  'Turnaround Minutes',
  'Warnings',
] as const;

/** How many entries the streamed export holds, sent before the body so the browser shows progress. */
export const EXPORT_ROW_COUNT_HEADER = 'x-export-row-count';
