import { describe, expect, it } from 'vitest';

import type { CitedReadings } from '@/modules/documents';

import {
  crossCheckWarnings,
  driverDetails,
  licenceMaxGvmKg,
  parseDocumentDate,
} from './entry-rules';
import { faceClaimWarnings } from './entry-verdicts';

const NONE: CitedReadings = {
  disc: null,
  identity: null,
  licence: null,
  passport: null,
  ticket: null,
};
const SENT = {
  driverName: null,
  driverSurname: null,
  driverIdNumber: null,
  driverPhone1: null,
  driverPhone2: null,
  driverPhone3: null,
  driverPassportNumber: null,
};

describe('parseDocumentDate', () => {
  it.each([
    ['2027-07-31', '2027-07-31'],
    ['2027/07/31', '2027-07-31'],
    ['20270731', '2027-07-31'],
    ['31/07/2027', '2027-07-31'],
    ['31-07-2027', '2027-07-31'],
    ['31.07.2027', '2027-07-31'],
    ['31 JUL 2027', '2027-07-31'],
    ['31 July 2027', '2027-07-31'],
    ['2027-02-30', null],
    ['soon', null],
    [null, null],
  ])('reads %s as %s', (text, expected) => {
    expect(parseDocumentDate(text)).toBe(expected);
  });
});

describe('licenceMaxGvmKg', () => {
  it.each([
    ['B', 3_500],
    ['EB', 3_500],
    ['C1', 16_000],
    ['B, C1', 16_000],
    ['EC', Number.POSITIVE_INFINITY],
    ['A', 0],
    ['', null],
  ])('%s allows up to %s kg', (codes, kg) => {
    expect(licenceMaxGvmKg(codes)).toBe(kg);
  });
});

describe('crossCheckWarnings', () => {
  const check = (readings: Partial<CitedReadings>, registeredDriverName: string | null = null) =>
    crossCheckWarnings({
      plateNumber: 'CA123456',
      readings: { ...NONE, ...readings },
      registeredDriverName,
      today: '2026-11-26',
    }).map((warning) => warning.code);
  const disc = { plate: 'CA 123-456', vehicleRegisterNo: null, dateOfExpiry: null, gvm: null };
  const licence = {
    nameOnCard: 'T MOKOENA',
    idNumber: null,
    validTo: null,
    prdpExpiry: null,
    prdpCode: null,
    vehicleCode: null,
    phone1: null,
    phone2: null,
    phone3: null,
  };
  const identity = {
    identityNumber: null,
    givenNames: 'Thabo',
    surname: 'Mokoena',
    dateOfExpiry: null,
    phone1: null,
    phone2: null,
  };

  it('finds nothing wrong with agreeing documents', () => {
    expect(check({ disc, licence, identity }, 'Thabo Mokoena')).toEqual([]);
  });

  it('flags a disc for another plate, a different surname and a licence for lighter vehicles', () => {
    expect(check({ disc: { ...disc, plate: 'CA654321' } })).toEqual(['plate_mismatch']);
    expect(check({ licence, identity: { ...identity, surname: 'Botha' } })).toEqual([
      'name_mismatch',
    ]);
    expect(check({ licence }, 'Johan Botha')).toEqual(['name_mismatch']);
    expect(
      check({ disc: { ...disc, gvm: '3 600 kg' }, licence: { ...licence, vehicleCode: 'B' } }),
    ).toEqual(['licence_code_insufficient']);
    expect(
      check({ disc: { ...disc, gvm: '3500' }, licence: { ...licence, vehicleCode: 'B' } }),
    ).toEqual([]);
  });

  it('reads an accented surname as the MRZ writes it, and a licence ID after its country code', () => {
    expect(
      check(
        {
          licence: { ...licence, nameOnCard: 'T MÜLLER' },
          identity: { ...identity, surname: 'Muller' },
        },
        'Thabo Müller',
      ),
    ).toEqual([]);
    expect(
      check({
        licence: { ...licence, idNumber: '02/8001015009087' },
        identity: { ...identity, identityNumber: '8001015009087' },
      }),
    ).toEqual([]);
    expect(
      check({
        licence: { ...licence, idNumber: '02/8001015009087' },
        identity: { ...identity, identityNumber: '8001015009095' },
      }),
    ).toEqual(['name_mismatch']);
  });

  it('counts a document as valid through its expiry day', () => {
    expect(check({ disc: { ...disc, dateOfExpiry: '2026-11-26' } })).toEqual([]);
    expect(check({ disc: { ...disc, dateOfExpiry: '25/11/2026' } })).toEqual(['document_expired']);
  });
});

describe('driverDetails (spec §5 precedence)', () => {
  it('takes the licence name, the ID document number and the ID phone first', () => {
    const { details, warnings } = driverDetails(
      {
        ...NONE,
        identity: {
          identityNumber: '8001015009087',
          givenNames: 'Thabo',
          surname: 'Mokoena',
          dateOfExpiry: null,
          phone1: '0821111111',
          phone2: null,
        },
        licence: {
          nameOnCard: 'T MOKOENA',
          idNumber: '8001015009088',
          validTo: null,
          prdpExpiry: null,
          prdpCode: null,
          vehicleCode: null,
          phone1: '0832222222',
          phone2: null,
          phone3: null,
        },
      },
      { ...SENT, driverPhone1: '0843333333' },
    );
    expect(details).toMatchObject({
      driverName: 'T MOKOENA',
      driverSurname: null,
      driverIdNumber: '8001015009087',
      driverPhone1: '0821111111',
      driverPhone2: '0832222222',
      driverPhone3: '0843333333',
    });
    expect(warnings).toEqual([]);
  });

  it('keeps what the client sent when no document is cited', () => {
    const sent = { ...SENT, driverName: 'Sipho', driverIdNumber: '8001015009087' };
    expect(driverDetails(NONE, sent)).toEqual({ details: sent, warnings: [] });
  });
});

describe('faceClaimWarnings', () => {
  it('warns of a claim without evidence, or stronger than it, never of a weaker one', () => {
    const evidence = { comparisonId: 'c', faceVerified: false, matchScore: 41.5 };
    expect(faceClaimWarnings({ faceVerified: false, matchScore: null }, null)).toEqual([]);
    expect(faceClaimWarnings({ faceVerified: true }, null)[0]?.code).toBe('face_claim_unbacked');
    expect(faceClaimWarnings({ faceVerified: false, matchScore: 80 }, null)[0]?.code).toBe(
      'face_claim_unbacked',
    );
    expect(faceClaimWarnings({ faceVerified: true }, evidence)[0]?.code).toBe(
      'face_claim_contradicted',
    );
    expect(faceClaimWarnings({ faceVerified: false, matchScore: 41.5 }, evidence)).toEqual([]);
    expect(
      faceClaimWarnings(
        { faceVerified: false },
        { ...evidence, faceVerified: true, matchScore: 90 },
      ),
    ).toEqual([]);
  });
});
