import { describe, expect, it } from 'vitest';

import {
  acceptLicenceValues,
  isExpired,
  licenceReadingFromOcr,
  prefillFromLicence,
} from './licence-reading';
import { EMPTY_PERSONAL_INFO } from './personal-info';

const read = (fields: Record<string, unknown>, ok = true) =>
  licenceReadingFromOcr({ ok, fields, extractedText: ok ? JSON.stringify(fields) : '' });

describe('licenceReadingFromOcr', () => {
  it('takes the SADL barcode fields', () => {
    expect(
      read({
        surname: 'DLAMINI',
        initials: 'S',
        nameOnCard: 'S DLAMINI',
        idNumber: '8001015009087',
        licenceNumber: '40170001ABCD',
        validTo: '2031-05-31',
        vehicleCodes: ['C1', 'EC1'],
      }),
    ).toEqual({
      name: null,
      surname: 'DLAMINI',
      nameOnCard: 'S DLAMINI',
      idNumber: '8001015009087',
      licenceNumber: '40170001ABCD',
      validTo: '2031-05-31',
    });
  });

  it('cleans an ID number printed with its country prefix', () => {
    expect(read({ idNumber: '02/8001015009087' })?.idNumber).toBe('8001015009087');
  });

  it('reads JSON extracted text when there are no fields', () => {
    expect(
      licenceReadingFromOcr({
        ok: true,
        fields: {},
        extractedText: '{"licenceNumber":"40170001ABCD"}',
      })?.licenceNumber,
    ).toBe('40170001ABCD');
  });

  it('is null when nothing usable was read', () => {
    expect(read({}, false)).toBeNull();
    expect(read({ surname: '', idNumber: null })).toBeNull();
    expect(read({ vehicleCodes: ['B'] })).toBeNull();
    expect(licenceReadingFromOcr({ ok: true, fields: {}, extractedText: 'not json' })).toBeNull();
  });
});

describe('prefillFromLicence', () => {
  const reading = {
    name: 'SIPHO',
    surname: 'DLAMINI',
    nameOnCard: 'S DLAMINI',
    idNumber: '8001015009087',
    licenceNumber: null,
    validTo: null,
  };

  it('fills blank fields and leaves the phone alone', () => {
    const { info, conflicts } = prefillFromLicence(
      { ...EMPTY_PERSONAL_INFO, phone: '0821234567' },
      reading,
    );
    expect(info).toEqual({
      name: 'SIPHO',
      surname: 'DLAMINI',
      idNumber: '8001015009087',
      phone: '0821234567',
    });
    expect(conflicts).toEqual([]);
  });

  it("keeps the driver's values and reports the ones that differ (case aside)", () => {
    const typed = { name: 'Sipho', surname: 'Zulu', idNumber: '9307150123081', phone: '' };
    const { info, conflicts } = prefillFromLicence(typed, reading);
    expect(info).toEqual(typed);
    expect(conflicts).toEqual([
      { field: 'surname', entered: 'Zulu', read: 'DLAMINI' },
      { field: 'idNumber', entered: '9307150123081', read: '8001015009087' },
    ]);
    expect(acceptLicenceValues(info, conflicts)).toEqual({
      ...typed,
      surname: 'DLAMINI',
      idNumber: '8001015009087',
    });
  });
});

describe('isExpired', () => {
  const today = new Date(2026, 10, 22);
  it.each([
    ['2026-11-21', true],
    ['2026-11-22', false],
    ['2031-05-31', false],
    ['', false],
    [null, false],
    ['31/05/2020', false],
  ])('%s → %s', (validTo, expected) => {
    expect(isExpired(validTo, today)).toBe(expected);
  });
});
