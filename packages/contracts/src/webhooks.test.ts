import { describe, expect, it } from 'vitest';

import {
  IncomingRequestPayloadSchema,
  ProcessRequestBodySchema,
  buildCompletionPayload,
  cleanExtractedIdNumber,
  incomingRequestStatus,
  missingRequirements,
  parseExtractedDiskData,
  resolveDriverIdNumber,
  resolveDriverName,
  resolveDriverPhone,
  resolvePlateNumber,
} from './webhooks';

describe('incomingRequestStatus', () => {
  it('is Complete when both driver name and ID number exist', () => {
    expect(incomingRequestStatus({ driverName: 'Sipho', driverIdNumber: '8001015009087' })).toBe(
      'Complete',
    );
  });

  it('is Incomplete when the ID number is missing', () => {
    expect(incomingRequestStatus({ driverName: 'Sipho', driverIdNumber: null })).toBe('Incomplete');
  });

  it('is Incomplete when the name is blank', () => {
    expect(incomingRequestStatus({ driverName: '  ', driverIdNumber: '8001015009087' })).toBe(
      'Incomplete',
    );
  });
});

describe('resolveDriverName', () => {
  it('takes the licence nameOnCard over an existing name', () => {
    const result = resolveDriverName(
      { driverName: 'From Webhook', driverSurname: 'Dlamini' },
      { licence: { nameOnCard: 'S DLAMINI' }, id: { givenNames: 'Sipho', surname: 'Dlamini' } },
    );

    expect(result).toEqual({ driverName: 'S DLAMINI', driverSurname: 'Dlamini' });
  });

  it('keeps an existing name over the ID givenNames', () => {
    const result = resolveDriverName(
      { driverName: 'From Webhook', driverSurname: null },
      { id: { givenNames: 'Sipho', surname: 'Dlamini' } },
    );

    expect(result).toEqual({ driverName: 'From Webhook', driverSurname: null });
  });

  it('uses the ID givenNames with surname only when no name exists', () => {
    const result = resolveDriverName({}, { id: { givenNames: 'Sipho', surname: 'Dlamini' } });

    expect(result).toEqual({ driverName: 'Sipho', driverSurname: 'Dlamini' });
  });

  it('treats a blank nameOnCard as absent', () => {
    const result = resolveDriverName({ driverName: 'Existing' }, { licence: { nameOnCard: ' ' } });

    expect(result.driverName).toBe('Existing');
  });
});

describe('resolveDriverIdNumber', () => {
  it('takes the ID document identityNumber over the licence idNumber', () => {
    expect(
      resolveDriverIdNumber(
        { driverIdNumber: '1111111111111' },
        { id: { identityNumber: '8001015009087' }, licence: { idNumber: '9002025009081' } },
      ),
    ).toBe('8001015009087');
  });

  it('falls back to the licence idNumber, then the existing one', () => {
    expect(resolveDriverIdNumber({}, { licence: { idNumber: '9002025009081' } })).toBe(
      '9002025009081',
    );
    expect(resolveDriverIdNumber({ driverIdNumber: '1111111111111' }, {})).toBe('1111111111111');
  });
});

describe('cleanExtractedIdNumber', () => {
  it('removes slashes and drops the first two characters', () => {
    expect(cleanExtractedIdNumber('02/8001015009087')).toBe('8001015009087');
  });
});

describe('resolvePlateNumber', () => {
  it('uses the captured registrationNumber over the existing plate, normalised', () => {
    expect(
      resolvePlateNumber(
        { plateNumber: 'OLD123GP' },
        { plate: { registrationNumber: 'nd 123-456' } },
      ),
    ).toBe('ND123456');
  });

  it('keeps the existing plate when nothing was captured', () => {
    expect(resolvePlateNumber({ plateNumber: 'CA123456' }, {})).toBe('CA123456');
  });
});

describe('resolveDriverPhone', () => {
  it('takes the ID phone1 first', () => {
    expect(
      resolveDriverPhone(
        { driverPhone1: '0800000000' },
        { id: { phone1: '0821111111' }, licence: { phone1: '0832222222' } },
      ),
    ).toBe('0821111111');
  });

  it('then the licence phones in order, then the original', () => {
    expect(
      resolveDriverPhone({}, { licence: { phone2: '0843333333', phone3: '0854444444' } }),
    ).toBe('0843333333');
    expect(resolveDriverPhone({}, { licence: { phone3: '0854444444' } })).toBe('0854444444');
    expect(resolveDriverPhone({ driverPhone1: '0800000000' }, { licence: {} })).toBe('0800000000');
  });
});

describe('missingRequirements', () => {
  it('lists plate, licence and ID document when nothing exists or was captured', () => {
    expect(missingRequirements({}, {})).toEqual([
      'Number Plate',
      "Driver's License",
      'ID Document',
    ]);
  });

  it('accepts existing webhook data in place of captures', () => {
    expect(
      missingRequirements(
        { plateNumber: 'CA123456', driverName: 'Sipho', driverIdNumber: '8001015009087' },
        {},
      ),
    ).toEqual([]);
  });

  it('accepts captured documents in place of existing data', () => {
    expect(
      missingRequirements({}, { plate: { registrationNumber: 'CA123456' }, licence: {}, id: {} }),
    ).toEqual([]);
  });
});

describe('buildCompletionPayload', () => {
  it('applies every rule and validates as a completion payload', () => {
    const payload = buildCompletionPayload(
      {
        plateNumber: 'CA123456',
        driverName: null,
        driverPhone1: '0800000000',
        transportName: 'Haul Co',
      },
      {
        licence: { nameOnCard: 'S DLAMINI', licenceNumber: '0123456789AB', validTo: '2030-01-01' },
        id: {
          identityNumber: '8001015009087',
          surname: 'Dlamini',
          dateOfBirth: '1980-01-01',
          sex: 'M',
        },
      },
    );

    expect(ProcessRequestBodySchema.parse(payload)).toEqual({
      plateNumber: 'CA123456',
      driverName: 'S DLAMINI',
      driverSurname: null,
      driverIdNumber: '8001015009087',
      driverPhone: '0800000000',
      transportName: 'Haul Co',
      driverLicenseNumber: '0123456789AB',
      driverLicenseValidTo: '2030-01-01',
      driverDateOfBirth: '1980-01-01',
      driverSex: 'M',
      // Issue 15: none typed; the server stores none.
      corrections: [],
      // Issue 21: no trailers presented with this completion.
      trailerPlates: [],
      trailerLicenceDiscIds: [],
      // Issue 21: no weighbridge ticket, licence or ID document read in the dialog.
      weighbridgeTicketCaptureId: null,
      driversLicenceCaptureId: null,
      identityDocumentCaptureId: null,
    });
  });
});

describe('parseExtractedDiskData', () => {
  it('reads transporterName and visitId', () => {
    expect(parseExtractedDiskData('{"transporterName":"Haul Co","visitId":42}')).toEqual({
      transporterName: 'Haul Co',
      visitId: '42',
    });
  });

  it('answers nulls for text that is not a JSON object', () => {
    expect(parseExtractedDiskData('not json')).toEqual({ transporterName: null, visitId: null });
  });
});

describe('IncomingRequestPayloadSchema', () => {
  it('normalises the plate and stores disc data objects as JSON text', () => {
    const parsed = IncomingRequestPayloadSchema.parse({
      plateNumber: 'ca 123-456',
      extractedDiskData: { transporterName: 'Haul Co' },
    });

    expect(parsed).toMatchObject({
      plateNumber: 'CA123456',
      extractedDiskData: '{"transporterName":"Haul Co"}',
    });
  });

  it('refuses a key the entry does not have, such as a smuggled tenantId (SEC-10, strict)', () => {
    const result = IncomingRequestPayloadSchema.safeParse({
      plateNumber: 'CA123456',
      tenantId: 'another-tenant',
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.code).toBe('unrecognized_keys');
  });

  it('refuses a payload with nothing to identify the vehicle or driver', () => {
    expect(IncomingRequestPayloadSchema.safeParse({ transportName: 'Haul Co' }).success).toBe(
      false,
    );
  });
});
