import { isSameDay } from 'date-fns';

import type { TruckListEntry } from '@boomgate/contracts/truck-list';

/**
 * Spec §2 summary cards: every truck; those with an order (truck) number; those whose timestamp
 * falls on today's date, in the browser's time zone.
 */
export function truckSummary(entries: readonly TruckListEntry[], now: Date = new Date()) {
  return {
    total: entries.length,
    withOrderNumber: entries.filter((entry) => Boolean(entry.truckNumber?.trim())).length,
    todaysArrivals: entries.filter((entry) => isSameDay(new Date(entry.timestamp), now)).length,
  };
}
