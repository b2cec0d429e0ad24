import { describe, expect, it } from 'vitest';

import {
  aSadlRecordFields,
  buildSadlRecord,
  encryptSadlRecord,
  generateTestSadlKeys,
} from '../testing/sadl-fixture';

import { PUBLISHED_SADL_KEYS } from './sadl-keys';
import { SadlError, decryptSadl, parseRsaPublicKeyPem, parseSadlRecord, readSadl } from './sadl';

const testKeys = generateTestSadlKeys();

describe('parseRsaPublicKeyPem', () => {
  it('reads the published v2 exponents exactly', () => {
    expect(parseRsaPublicKeyPem(PUBLISHED_SADL_KEYS.v2.block128).e).toBe(
      0x187092da6454ceb1853e6915f8466a05n,
    );
    expect(parseRsaPublicKeyPem(PUBLISHED_SADL_KEYS.v2.block74).e).toBe(
      0x309cfed9719fe2a5e20c9bb44765382bn,
    );
  });

  it('reads the published v1 keys as 1024-bit and 592-bit moduli', () => {
    expect(parseRsaPublicKeyPem(PUBLISHED_SADL_KEYS.v1.block128).n.toString(2)).toHaveLength(1024);
    expect(parseRsaPublicKeyPem(PUBLISHED_SADL_KEYS.v1.block74).n.toString(2)).toHaveLength(592);
  });
});

describe('parseSadlRecord', () => {
  it('parses every section of a record built in the card layout', () => {
    const record = buildSadlRecord(aSadlRecordFields());

    const parsed = parseSadlRecord(record);

    expect(parsed).toMatchObject({
      surname: 'TESTER',
      initials: 'AB',
      idNumber: '8001015009087',
      idNumberType: '02',
      licenceNumber: '10230000ABCD',
      vehicleCodes: ['EB', 'C1'],
      vehicleRestrictions: ['0', '0'],
      vehicleLicences: [
        { code: 'EB', restriction: '0', firstIssueDate: '2005-03-01' },
        { code: 'C1', restriction: '0', firstIssueDate: '2010-06-15' },
      ],
      prdpCodes: [],
      prdpExpiry: null,
      dateOfBirth: '1980-01-01',
      validFrom: '2021-05-04',
      validTo: '2026-05-03',
      gender: 'M',
      photo: { tag: 'WI' },
      checks: { isIdNumberValid: true, isDateOfBirthConsistent: true, isGenderConsistent: true },
    });
  });

  it('reads PrDP categories and expiry when the holder has a permit', () => {
    const record = buildSadlRecord(
      aSadlRecordFields({ prdpCodes: 'G,P', prdpExpiry: '2025-11-30' }),
    );

    const parsed = parseSadlRecord(record);

    expect(parsed.prdpCodes).toEqual(['G', 'P']);
    expect(parsed.prdpExpiry).toBe('2025-11-30');
    expect(parsed.licenceNumber).toBe('10230000ABCD');
  });

  it('rejects a record whose section lengths do not add up', () => {
    const record = buildSadlRecord(aSadlRecordFields());
    record[5] = record[5]! + 1;

    expect(() => parseSadlRecord(record)).toThrow(SadlError);
  });

  it('keeps the 1957 birth year intact where a naive 0x57 scan would cut section 2', () => {
    const record = buildSadlRecord(
      aSadlRecordFields({ dateOfBirth: '1957-05-07', idNumber: '5705075009083' }),
    );

    const parsed = parseSadlRecord(record);

    expect(parsed.dateOfBirth).toBe('1957-05-07');
    expect(parsed.validTo).toBe('2026-05-03');
  });
});

describe('decryptSadl', () => {
  it('decrypts a v2 payload made with a test key pair back to the record', () => {
    const record = buildSadlRecord(aSadlRecordFields());
    const raw = encryptSadlRecord(record, testKeys, 'v2');

    const { version, data } = decryptSadl(raw, testKeys.keys);

    expect(version).toBe('v2');
    expect(Buffer.from(data).equals(Buffer.from(record))).toBe(true);
  });

  it('reports a marker mismatch when the wrong keys are used', () => {
    const raw = encryptSadlRecord(buildSadlRecord(aSadlRecordFields()), testKeys, 'v1');

    expect(() => decryptSadl(raw, PUBLISHED_SADL_KEYS)).toThrow(/marker mismatch/);
  });

  it('rejects a payload with an unknown version prefix', () => {
    const raw = encryptSadlRecord(buildSadlRecord(aSadlRecordFields()), testKeys);
    raw[1] = 0x00;

    expect(() => decryptSadl(raw, testKeys.keys)).toThrow(/version/);
  });
});

describe('readSadl', () => {
  it('accepts the 720 encrypted bytes and parses them', () => {
    const raw = encryptSadlRecord(
      buildSadlRecord(aSadlRecordFields({ surname: 'VAN DER MERWE' })),
      testKeys,
    );

    expect(readSadl(raw, testKeys.keys)).toMatchObject({ surname: 'VAN DER MERWE', version: 'v2' });
  });

  it('rejects payloads of any other length', () => {
    expect(() => readSadl(new Uint8Array(700))).toThrow(SadlError);
  });
});
