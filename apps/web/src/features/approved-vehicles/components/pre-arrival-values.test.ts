import { describe, expect, it } from 'vitest';

import { defaultApprovalDate, emptyPreArrivalValues, toRegistration } from './pre-arrival-values';

const today = new Date(2026, 10, 22, 9, 0);
const valid = {
  ...emptyPreArrivalValues('', today),
  plateNumber: ' kp 35-xk gp ',
  driverName: '  Sipho Nkosi ',
  driverLicense: '   ',
  company: '',
  driverPhoto: 'data:image/jpeg;base64,AA',
  biometricConsent: true,
};

describe('pre-arrival registration values (spec §5)', () => {
  it('defaults the approval date to three months from today', () => {
    expect(defaultApprovalDate(today)).toBe('2027-02-22');
    expect(emptyPreArrivalValues('CA123456', today)).toMatchObject({
      plateNumber: 'CA123456',
      approvedUntil: '2027-02-22',
      driverPhoto: null,
      biometricConsent: false,
    });
  });

  it('sends the plate upper-cased and stripped, names trimmed, empty licence and company as null', () => {
    expect(toRegistration(valid, today)).toEqual({
      body: {
        plateNumber: 'KP35XKGP',
        driverName: 'Sipho Nkosi',
        driverLicense: null,
        company: null,
        driverPhoto: 'data:image/jpeg;base64,AA',
        approvedUntil: '2027-02-22',
        isActive: true,
        biometricConsent: true,
        trailers: [],
      },
    });
  });

  it("sends a rig's trailers, normalised, blank rows dropped (issue 21)", () => {
    const result = toRegistration(
      {
        ...valid,
        trailers: [
          { plateNumber: ' ab 12-cd gp ', discNumber: ' MVL1CC42 ', discExpiry: '2027-03-31' },
          { plateNumber: ' ', discNumber: '', discExpiry: '' },
        ],
      },
      today,
    );
    expect(result).toMatchObject({
      body: {
        trailers: [{ plateNumber: 'AB12CDGP', discNumber: 'MVL1CC42', discExpiry: '2027-03-31' }],
      },
    });
  });

  it('names the trailer whose disc has no plate, and refuses a plate given twice', () => {
    expect(
      toRegistration(
        { ...valid, trailers: [{ plateNumber: '', discNumber: 'D1', discExpiry: '' }] },
        today,
      ),
    ).toEqual({ problem: { key: 'trailerPlate', trailer: 1 } });
    const twice = { plateNumber: 'AB12CDGP', discNumber: '', discExpiry: '' };
    expect(toRegistration({ ...valid, trailers: [twice, twice] }, today)).toEqual({
      problem: { key: 'trailers', detail: 'Each trailer has its own plate' },
    });
  });

  it('keeps a licence and a company, trimmed', () => {
    const result = toRegistration(
      { ...valid, driverLicense: ' 40170000ABCD ', company: ' Kumba Haulage ' },
      today,
    );
    expect(result).toMatchObject({
      body: { driverLicense: '40170000ABCD', company: 'Kumba Haulage' },
    });
  });

  it.each([[{ plateNumber: '  ' }], [{ driverName: '   ' }], [{ plateNumber: '--' }]])(
    'requires plate number and driver name (%j)',
    (change) => {
      expect(toRegistration({ ...valid, ...change }, today)).toEqual({
        problem: { key: 'missing' },
      });
    },
  );

  it('requires a plate of 2 to 10 letters and digits', () => {
    expect(toRegistration({ ...valid, plateNumber: 'A' }, today)).toMatchObject({
      problem: { key: 'invalidPlate' },
    });
    expect(toRegistration({ ...valid, plateNumber: 'ABCDEFGHIJK' }, today)).toMatchObject({
      problem: { key: 'invalidPlate' },
    });
  });

  it('requires the driver photo', () => {
    expect(toRegistration({ ...valid, driverPhoto: null }, today)).toEqual({
      problem: { key: 'photoRequired' },
    });
  });

  it("requires the driver's consent before the photo is sent (POPIA)", () => {
    expect(toRegistration({ ...valid, biometricConsent: false }, today)).toMatchObject({
      problem: { key: 'consentRequired' },
    });
  });

  it('accepts no end date, today or later; refuses a past date', () => {
    expect(toRegistration({ ...valid, approvedUntil: '' }, today)).toMatchObject({
      body: { approvedUntil: null },
    });
    expect(toRegistration({ ...valid, approvedUntil: '2026-11-22' }, today)).toMatchObject({
      body: { approvedUntil: '2026-11-22' },
    });
    expect(toRegistration({ ...valid, approvedUntil: '2026-11-21' }, today)).toMatchObject({
      problem: { key: 'invalidDate' },
    });
  });

  it('checks the rest against the contract (names of at most 120 characters)', () => {
    expect(toRegistration({ ...valid, driverName: 'x'.repeat(121) }, today)).toMatchObject({
      problem: { key: 'invalid' },
    });
  });
});
