import { describe, expect, it } from 'vitest';

import { IncomingRequestEntrySchema } from '@boomgate/contracts/webhooks';

import { toIncomingRequestEntry } from './webhooks.routes';
import type { IncomingRequestListRow } from './webhooks.table';

/**
 * Issue 27c (ADR 0010): the feed is written as presented in production, so the presenter's output
 * must be exactly zod's encoding of it, even with jsonb's key order (and an unnamed key) in the
 * stored warnings and rule evidence.
 */
describe('toIncomingRequestEntry', () => {
  it('builds exactly what zod encodes', () => {
    const row = {
      id: '0b9d6c54-64f1-4a43-9d8a-2a5b9b3f6a11',
      timestamp: new Date('2026-11-27T10:00:00Z'),
      plateNumber: 'CA123456',
      driverName: 'Sipho',
      driverSurname: 'Nkosi',
      driverIdNumber: '8001015009087',
      driverPhone1: '0821234567',
      transportName: 'Acme Haulage',
      referenceNumber: 'REF-1',
      weighbridgeTicketId: null,
      extractedDiskData: null,
      completedAt: new Date('2026-11-27T10:20:00Z'),
      entryLogId: null,
      trailerPlates: ['CA111111'],
      trailerLicenceDiscIds: [],
      trailerDiscs: [],
      warnings: [{ code: 'rig_mismatch', message: 'Ticket names another trailer.', extra: 1 }],
      ruleEvidence: [{ source: 'stated', document: 'identityDocument', captureId: null }],
    } as unknown as IncomingRequestListRow;
    const presented = toIncomingRequestEntry(row);
    expect(JSON.stringify(presented)).toBe(
      JSON.stringify(IncomingRequestEntrySchema.encode(presented)),
    );
  });
});
