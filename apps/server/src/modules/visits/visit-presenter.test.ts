import { describe, expect, it } from 'vitest';

import { VisitSchema } from '@boomgate/contracts/visits';

import { toVisit } from './visits.routes';
import type { VisitView } from './visits.service';

/**
 * Issue 27c (ADR 0010): On Site is written as presented in production, so the presenter's output
 * must be exactly zod's encoding of it, even with jsonb's key order in the exit mismatches.
 */
describe('toVisit', () => {
  it('builds exactly what zod encodes, for every role', () => {
    const row = {
      id: '0b9d6c54-64f1-4a43-9d8a-2a5b9b3f6a11',
      kind: 'vehicle',
      siteId: 'a2f1c7de-3f7e-4a8f-9a56-5b1d1e2f3a4b',
      gateId: null,
      entryLogId: null,
      plateNumber: 'CA123456',
      personName: 'Sipho Nkosi',
      personIdNumber: '8001015009087',
      company: null,
      enteredAt: new Date('2026-11-27T10:00:00Z'),
      enteredBy: null,
      enteredByName: null,
      reEntry: false,
      overstay: true,
      exitedAt: new Date('2026-11-27T11:31:00Z'),
      exitGateId: null,
      exitSource: 'guard',
      exitedBy: null,
      exitedByName: null,
      exitTicketNumber: 'T-2',
      exitSealNumbers: ['S1'],
      exitMismatches: [
        { code: 'ticket_number_mismatch', exit: 'T-2', entry: 'T-1', message: 'Ticket differs.' },
      ],
    } as unknown as VisitView;
    for (const role of ['tenant_admin', 'security_guard'] as const) {
      const presented = toVisit(row, role);
      expect(JSON.stringify(presented)).toBe(JSON.stringify(VisitSchema.encode(presented)));
    }
  });
});
