import { describe, expect, it } from 'vitest';

import { aTruck } from '@/testing/gate-api';

import { truckSummary } from './truck-summary';

describe('truckSummary (spec §2 cards)', () => {
  it("counts all trucks, those with an order number and today's arrivals", () => {
    const now = new Date(2026, 10, 22, 12, 0);
    const entries = [
      aTruck({ truckNumber: 'T-1', timestamp: new Date(2026, 10, 22, 0, 1).toISOString() }),
      aTruck({ truckNumber: null, timestamp: new Date(2026, 10, 22, 23, 59).toISOString() }),
      aTruck({ truckNumber: '  ', timestamp: new Date(2026, 10, 21, 23, 59).toISOString() }),
      aTruck({ truckNumber: 'T-4', timestamp: new Date(2025, 10, 22, 12, 0).toISOString() }),
    ];
    expect(truckSummary(entries, now)).toEqual({ total: 4, withOrderNumber: 2, todaysArrivals: 2 });
  });

  it('is all zero without trucks', () => {
    expect(truckSummary([])).toEqual({ total: 0, withOrderNumber: 0, todaysArrivals: 0 });
  });
});
