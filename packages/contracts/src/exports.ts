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

/**
 * Issue 23: the other exports of a range of site days take the same query as the entry export:
 * GET /api/exports/refusals, /api/exports/watchlist-hits and /api/exports/weighbridge-tickets.
 */
export const ExportRangeQuerySchema = ExportEntryLogsQuerySchema;
export type ExportRangeQuery = ExportEntryLogsQuery;

/** Refused entries (GET /api/exports/refusals), in order. */
export const REFUSAL_EXPORT_COLUMNS = [
  'Timestamp',
  'Plate',
  'Extracted Plate',
  'Category',
  'Driver Name',
  'Driver Surname',
  'ID Number (masked)',
  'Transport',
  'Approved',
  'Face Verified',
  'Refusal Reason',
  'Gate',
  'Warnings',
] as const;

/**
 * Entries that cited a weighbridge ticket (GET /api/exports/weighbridge-tickets), in order.
 * Overloaded: the ticket's gross mass over the GVM on the licence disc, for a single vehicle whose
 * ticket and disc both show a mass; empty when it cannot be checked (a rig, a missing mass).
 */
export const WEIGHBRIDGE_TICKET_EXPORT_COLUMNS = [
  'Timestamp',
  'Plate',
  'Transport',
  'Ticket Number',
  'Vehicle Reg',
  'Tare Weight (kg)',
  'Gross Weight (kg)',
  'Net Weight (kg)',
  'Weights Consistent',
  'GVM (kg)',
  'Overloaded',
  'Granted',
  'Gate',
] as const;

/** Watchlist hits at the gate and in the incoming feed (GET /api/exports/watchlist-hits), in order. */
export const WATCHLIST_HIT_EXPORT_COLUMNS = [
  'Timestamp',
  'Kind',
  'Value',
  'Severity',
  'Reason',
  'Covert',
  'Decision',
  'Where',
  'Entry ID',
] as const;
