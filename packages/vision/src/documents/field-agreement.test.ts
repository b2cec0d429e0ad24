import { describe, expect, it } from 'vitest';

import { agreeFields, allCertain, confirmedByAgreement } from './field-agreement';

describe('agreeFields', () => {
  it('confirms the fields both readings extracted alike and lists the others', () => {
    const first = { surname: 'DOE', givenNames: 'JANE MARY', status: 'CITIZEN' };
    const second = { surname: 'DOE', givenNames: 'JANE MARV', status: 'CITIZEN' };

    const result = agreeFields(first, second);

    expect(result.uncertain).toEqual(['givenNames']);
    expect(result.fieldConfidence).toMatchObject({ surname: 0.9, givenNames: 0.5 });
  });

  it('takes fields settled by a check as certain, whatever the second reading says', () => {
    const result = agreeFields(
      { identityNumber: '8001015009087', surname: 'DOE' },
      { identityNumber: '8001015009081', surname: 'DOE' },
      { verified: ['identityNumber'] },
    );

    expect(result.uncertain).toEqual([]);
  });

  it('claims nothing about empty fields and lists everything without a second reading', () => {
    const result = agreeFields({ tare: null, seals: [], gvm: 3500, fees: 'R 300' }, null);

    expect(result.uncertain).toEqual(['gvm', 'fees']);
  });
});

describe('allCertain', () => {
  it('gives every non-empty barcode field the confidence and lists none', () => {
    expect(allCertain({ plate: 'KP35XKGP', vin: null })).toEqual({
      uncertain: [],
      fieldConfidence: { plate: 0.99 },
    });
  });
});

describe('confirmedByAgreement', () => {
  it('drops from uncertain the fields another reading gave the same value', () => {
    expect(
      confirmedByAgreement(
        ['plateNumber', 'displayPlate', 'pattern'],
        { plateNumber: 'CA999111', displayPlate: 'CA 999-111', pattern: 'ZA-WC-TOWN' },
        { plateNumber: 'CA999111', displayPlate: 'CA 999 111', pattern: null },
      ),
    ).toEqual(['displayPlate', 'pattern']);
  });
});
