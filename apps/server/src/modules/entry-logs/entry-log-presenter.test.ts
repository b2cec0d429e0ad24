import { describe, expect, it } from 'vitest';

import { EntryLogSchema } from '@boomgate/contracts/entry-logs';

import { entryAsSeenBy, entryLogPresenter } from './entry-logs.routes';
import type { EntryLogRow } from './entry-logs.table';

const images = { urlFor: (key: string | null) => (key ? `/api/images/${key}` : null) };

/**
 * Issue 27c (ADR 0010): in production the entry list is written as the presenter built it, so its
 * output must be exactly zod's encoding of it: the schema's keys, in the schema's order, even
 * when the row's jsonb warnings come back with PostgreSQL's key order and a key the schema lacks.
 */
describe('entryLogPresenter', () => {
  const row = {
    id: '0b9d6c54-64f1-4a43-9d8a-2a5b9b3f6a11',
    timestamp: new Date('2026-11-27T10:00:00Z'),
    category: 'contracted',
    plateNumber: 'CA123456',
    extractedPlate: 'CA123456',
    vehicleApproved: true,
    faceVerified: false,
    entryGranted: false,
    matchScore: 0.42,
    refusalReason: 'face_mismatch',
    driverName: 'Sipho',
    driverSurname: 'Nkosi',
    driverIdNumber: '8001015009087',
    driverPhone1: '0821234567',
    driverPhone2: null,
    driverPhone3: null,
    driverPassportNumber: null,
    transportName: 'Acme Haulage',
    vehicleLicenceDiscId: null,
    identityDocumentId: null,
    driversLicenceId: null,
    passportRecordId: null,
    weighbridgeTicketId: null,
    trailerPlates: ['CA111111'],
    trailerLicenceDiscIds: [],
    plateImageKey: 't/plates/a.jpg',
    vehicleDiskImageKey: null,
    driverFaceImageKey: 't/faces/b.jpg',
    driverLicenseImageKey: null,
    passportImageKey: null,
    permitImageKeys: ['t/permits/c.jpg'],
    // As jsonb returns them: shorter keys first, and a key the contract does not name.
    warnings: [
      {
        code: 'rule_warning',
        rule: 'expired',
        fields: ['licenceDisc.expiry'],
        source: 'document_rules',
        message: 'The licence disc has expired.',
        severity: 'warning',
        internal: 'not for the wire',
      },
      { code: 'plate_mismatch', fields: [], message: 'Read plate differs.', severity: 'info' },
    ],
    recordedBy: 'a2f1c7de-3f7e-4a8f-9a56-5b1d1e2f3a4b',
    recordedByName: 'Thandi Guard',
    siteId: null,
    gateId: null,
    override: {
      reason: 'Supervisor checked the documents',
      overriddenAt: new Date('2026-11-27T10:05:00Z'),
      overriddenBy: 'c3d4e5f6-0000-4a8f-9a56-5b1d1e2f3a4b',
      overriddenByName: 'Lerato Supervisor',
      enteredBy: null,
      enteredByName: null,
    },
  } as unknown as EntryLogRow;

  it('builds exactly what zod encodes, for every role', () => {
    const present = entryLogPresenter(images);
    for (const role of ['tenant_admin', 'security_guard'] as const) {
      const presented = entryAsSeenBy(role, present(row));
      expect(JSON.stringify(presented)).toBe(JSON.stringify(EntryLogSchema.encode(presented)));
    }
  });
});
