import { describe, expect, it } from 'vitest';

import { DriverRecordSchema, parseCalendarDate } from './drivers';
import { importSummary } from './onboarding';

describe('parseCalendarDate', () => {
  it.each([
    ['2027-03-31', '2027-03-31'],
    ['2027/3/1', '2027-03-01'],
    ['31/03/2027', '2027-03-31'],
    ['29/02/2028', '2028-02-29'],
  ])('%s → %s', (text, expected) => {
    expect(parseCalendarDate(text)).toBe(expected);
  });

  it.each(['2027-02-30', '03/31/2027', '31-03-27', 'tomorrow', ''])('refuses %s', (text) => {
    expect(parseCalendarDate(text)).toBeNull();
  });
});

describe('DriverRecordSchema', () => {
  it('normalises what people type: names trimmed, phone, licence, plate (spec §5)', () => {
    expect(
      DriverRecordSchema.parse({
        name: ' Sipho ',
        surname: 'Nkosi',
        idNumber: '800101 5009 087',
        phone: '+27 82 123 4567',
        licenceNumber: '1234 5678 ab',
        licenceValidTo: '30/06/2030',
        transportCompany: '',
        plateNumber: 'kp 35-xk gp',
      }),
    ).toEqual({
      name: 'Sipho',
      surname: 'Nkosi',
      idNumber: '8001015009087',
      phone: '0821234567',
      licenceNumber: '12345678AB',
      licenceValidTo: '2030-06-30',
      transportCompany: null,
      plateNumber: 'KP35XKGP',
      approvedUntil: null,
      // Issue 21: a rig's trailers, none here.
      trailer1Plate: null,
      trailer1DiscNumber: null,
      trailer1DiscExpiry: null,
      trailer2Plate: null,
      trailer2DiscNumber: null,
      trailer2DiscExpiry: null,
    });
  });

  it('gives one message per field that is wrong', () => {
    const result = DriverRecordSchema.safeParse({
      name: '',
      idNumber: '8001015009086',
      phone: '12',
      plateNumber: '-',
      approvedUntil: 'soon',
    });
    expect(result.error?.issues.map((issue) => [issue.path[0], issue.message])).toEqual([
      ['name', 'Driver name is required.'],
      ['surname', 'Surname is required.'],
      ['idNumber', 'This is not a valid South African ID number: please check the digits.'],
      ['phone', 'Enter a South African number, e.g. 082 123 4567 or +27 82 123 4567.'],
      ['plateNumber', 'Plate number must have 2 to 10 letters or digits.'],
      ['approvedUntil', 'Approved until: use a date like 2027-03-31 (or 31/03/2027).'],
    ]);
  });

  it('wants a plate when an approval date is given', () => {
    const result = DriverRecordSchema.safeParse({
      name: 'A',
      surname: 'B',
      idNumber: '8001015009087',
      approvedUntil: '2099-01-01',
    });
    expect(result.error?.issues[0]?.message).toBe('Approved until needs a plate number.');
  });
});

describe('importSummary', () => {
  it("reads like the spec's '5 drivers and 3 vehicles'", () => {
    expect(importSummary(5, 3)).toBe('5 drivers and 3 vehicles');
    expect(importSummary(1, 0)).toBe('1 driver and 0 vehicles');
  });
});
