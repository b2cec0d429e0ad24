import { describe, expect, it } from 'vitest';

import {
  DriversLicenceBodySchema,
  IdentityDocumentBodySchema,
  LicenceDiscBodySchema,
  PassportBodySchema,
} from '@boomgate/contracts/documents';

import {
  discFromFields,
  identityFromFields,
  licenceFromFields,
  passportFromFields,
} from './document-readings';

describe('document readings from engine fields', () => {
  it('reads a licence disc, accepting the older vehRegisterNo spelling', () => {
    const disc = discFromFields({
      licenceNumber: 'CA123456',
      vehRegisterNo: 'BCD123X',
      vin: 'AAVZZZ6RZ4U012345',
      dateOfExpiry: '2027-03-31',
      isLengthValid: true,
    });
    expect(disc).toMatchObject({
      licenceNumber: 'CA123456',
      vehicleRegisterNo: 'BCD123X',
      vin: 'AAVZZZ6RZ4U012345',
      dateOfExpiry: '2027-03-31',
      make: null,
    });
    expect(LicenceDiscBodySchema.safeParse(disc).success).toBe(true);
  });

  it('reads an ID document, the ID number without slashes or spaces', () => {
    const id = identityFromFields({ identityNumber: '800101/5009 087', surname: 'MOKOENA' });
    expect(id.identityNumber).toBe('8001015009087');
    expect(IdentityDocumentBodySchema.safeParse(id).success).toBe(true);
  });

  it('reads a driving licence from the barcode record (codes as lists)', () => {
    const licence = licenceFromFields({
      nameOnCard: 'T MOKOENA',
      licenceNumber: '40170000ABCD',
      idNumber: '8001015009087',
      vehicleCodes: ['C1', 'EC1'],
      vehicleCode: 'C1, EC1',
      prdpCodes: ['G'],
      prdpExpiry: '2027-01-01',
      validTo: '2029-05-31',
    });
    expect(licence).toMatchObject({
      vehicleCode: 'C1, EC1',
      prdpCode: 'G',
      prdpExpiry: '2027-01-01',
      validTo: '2029-05-31',
    });
    expect(DriversLicenceBodySchema.safeParse(licence).success).toBe(true);
  });

  it('reads a passport MRZ, documentNumber as the passport number', () => {
    const passport = passportFromFields({ documentNumber: 'ZE000509', surname: 'BANDA' });
    expect(passport.passportNumber).toBe('ZE000509');
    expect(PassportBodySchema.safeParse(passport).success).toBe(true);
  });

  it('cuts text to what the server stores', () => {
    const disc = discFromFields({ description: 'x'.repeat(500), vin: 'y'.repeat(90) });
    expect(disc.description).toHaveLength(120);
    expect(disc.vin).toHaveLength(40);
    expect(LicenceDiscBodySchema.safeParse(disc).success).toBe(true);
  });
});
