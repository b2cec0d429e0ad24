import { describe, expect, it } from 'vitest';

import { extractDiscPrintedFields } from './disc';
import { extractIdFront, extractLicenceFront } from './id-front';

const NOW = new Date('2026-01-01T00:00:00Z');

describe('extractLicenceFront', () => {
  it('finds name, ID number, licence number, validity and codes on the card front', () => {
    const text = [
      'DRIVING LICENCE / RYBEWYS',
      'Surname TESTER',
      'Initials AB',
      'ID No. 800101 5009 087',
      '10230000ABCD',
      'Valid 2021/05/04 - 2026/05/03',
      'Code EB C1',
    ].join('\n');

    const front = extractLicenceFront(text, NOW);

    expect(front).toMatchObject({
      nameOnCard: 'AB TESTER',
      idNumber: '8001015009087',
      licenceNumber: '10230000ABCD',
      validFrom: '2021-05-04',
      validTo: '2026-05-03',
      dateOfBirth: '1980-01-01',
      vehicleCodes: ['EB', 'C1'],
    });
  });
});

describe('extractIdFront', () => {
  it('reads the labelled fields of a smart ID card front', () => {
    const text = [
      'REPUBLIC OF SOUTH AFRICA',
      'Surname',
      'DOE',
      'Names',
      'JANE MARY',
      'Sex F  Nationality RSA',
      'Identity Number 8001010001089',
      'Date of Birth 01 JAN 1980',
      'Country of Birth RSA',
      'Status CITIZEN',
    ].join('\n');

    const front = extractIdFront(text, NOW);

    expect(front).toMatchObject({
      surname: 'DOE',
      givenNames: 'JANE MARY',
      identityNumber: '8001010001089',
      dateOfBirth: '1980-01-01',
      sex: 'F',
      status: 'CITIZEN',
    });
  });
});

describe('extractDiscPrintedFields', () => {
  it('reads tare, GVM, persons and date of test printed on a disc', () => {
    const text =
      'Tare/Tarra 1 250 kg\nGVM/BVM 1 830 kg\nPersons/Personne Sitting/Sittende 5 Standing/Staande 0\nDate of test/Datum van toets 2019-03-14';

    expect(extractDiscPrintedFields(text)).toMatchObject({
      tare: 1250,
      gvm: 1830,
      persons: { seated: 5, standing: 0 },
      dateOfTest: '2019-03-14',
    });
  });
});
