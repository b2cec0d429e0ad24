import { z } from 'zod';

import { IdSchema, PageQuerySchema, TimestampSchema } from './primitives';

export const TruckListEntrySchema = z.object({
  id: IdSchema,
  timestamp: TimestampSchema,
  truckNumber: z.string().nullable(),
  plateNumber: z.string(),
  /** 'contracted' when the plate is an approved vehicle, else 'other'. */
  category: z.enum(['contracted', 'other']),
  transportName: z.string().nullable(),
  /**
   * Issue 15: the gate entry recorded for this plate first at or after the read (within
   * TRUCK_ENTRY_LINK_WINDOW_MS), opened at /entry-logs/{id}; null when none was.
   */
  entryLogId: IdSchema.nullable(),
  /**
   * Issue 21: the trailers that entry recorded with the truck-tractor (a rig), in order; empty
   * for a rigid vehicle or a read without an entry.
   */
  trailerPlates: z.array(z.string()),
});
export type TruckListEntry = z.infer<typeof TruckListEntrySchema>;
/** How far apart a camera read and a gate entry of the same plate may be to be linked: 2 hours. */
export const TRUCK_ENTRY_LINK_WINDOW_MS = 2 * 60 * 60 * 1000;

export const TruckListSchema = z.array(TruckListEntrySchema);

/**
 * GET /api/truck-list answers one page (newest first, `PageQuerySchema`); these headers carry the
 * spec §2 summary cards over every read of the tenant, not just the page.
 */
export const TRUCK_LIST_COUNT_HEADERS = {
  /** Total Trucks. */
  total: 'x-total-count',
  /** With Order Number: reads that have a truckNumber. */
  withOrderNumber: 'x-with-order-number-count',
  /** Today's Arrivals: reads on today's date at the site (SAST). */
  todaysArrivals: 'x-today-count',
} as const;
export type TruckListSummary = Record<keyof typeof TRUCK_LIST_COUNT_HEADERS, number>;

/** GET /api/truck-list: one page, optionally one site's reads (issue 16). */
export const TruckListQuerySchema = PageQuerySchema.extend({ siteId: IdSchema.optional() });
