/**
 * Builds SA driving-licence barcode payloads for tests: a 684-byte record in the card's layout,
 * encrypted with a freshly generated TEST key pair (the decoder takes keys as a parameter).
 */
import { generateKeyPairSync } from 'node:crypto';

import { type SadlKeys } from '../documents/sadl-keys';
import { bigIntToBytes, bytesToBigInt, modPow } from '../documents/sadl';

export type SadlFixtureFields = {
  vehicleCodes: [string, string, string, string];
  surname: string;
  initials: string;
  prdpCodes: string;
  idCountry: string;
  licenceCountry: string;
  vehicleRestrictions: [string, string, string, string];
  licenceNumber: string;
  idNumber: string;
  idNumberType: string;
  codeIssueDates: [string | null, string | null, string | null, string | null];
  driverRestrictions: string;
  prdpExpiry: string | null;
  licenceIssueNumber: string;
  dateOfBirth: string | null;
  validFrom: string | null;
  validTo: string | null;
  genderCode: string;
};

export function aSadlRecordFields(overrides: Partial<SadlFixtureFields> = {}): SadlFixtureFields {
  return {
    vehicleCodes: ['EB', 'C1', '', ''],
    surname: 'TESTER',
    initials: 'AB',
    prdpCodes: '',
    idCountry: 'ZA',
    licenceCountry: 'ZA',
    vehicleRestrictions: ['0', '0', '', ''],
    licenceNumber: '10230000ABCD',
    idNumber: '8001015009087',
    idNumberType: '02',
    codeIssueDates: ['2005-03-01', '2010-06-15', null, null],
    driverRestrictions: '00',
    prdpExpiry: null,
    licenceIssueNumber: '02',
    dateOfBirth: '1980-01-01',
    validFrom: '2021-05-04',
    validTo: '2026-05-03',
    genderCode: '01',
    ...overrides,
  };
}

function encodeSection1(values: string[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) {
    for (const ch of values[i]!) out.push(ch.charCodeAt(0));
    if (i === values.length - 1) break;
    // A run of n empty fields after this one is written as n 0xE1 bytes (sa-documents §2.4).
    let empties = 0;
    while (i + 1 + empties < values.length - 1 && values[i + 1 + empties] === '') empties++;
    if (empties > 0) {
      for (let k = 0; k < empties; k++) out.push(0xe1);
      i += empties;
    } else {
      out.push(0xe0);
    }
  }
  return out;
}

function encodeSection2(f: SadlFixtureFields): number[] {
  const nibbles: number[] = [];
  const digits = (s: string) => nibbles.push(...[...s].map(Number));
  const date = (d: string | null) => (d ? digits(d.replace(/-/g, '')) : nibbles.push(10));
  digits(f.idNumberType);
  f.codeIssueDates.forEach(date);
  digits(f.driverRestrictions);
  date(f.prdpExpiry);
  digits(f.licenceIssueNumber);
  date(f.dateOfBirth);
  date(f.validFrom);
  date(f.validTo);
  digits(f.genderCode);
  if (nibbles.length % 2) nibbles.push(10);
  const out: number[] = [];
  for (let i = 0; i < nibbles.length; i += 2) out.push((nibbles[i]! << 4) | nibbles[i + 1]!);
  return out;
}

/** The 684-byte decrypted record. */
export function buildSadlRecord(fields: SadlFixtureFields): Uint8Array {
  const s1 = encodeSection1([
    ...fields.vehicleCodes,
    fields.surname,
    fields.initials,
    fields.prdpCodes,
    fields.idCountry,
    fields.licenceCountry,
    ...fields.vehicleRestrictions,
    fields.licenceNumber,
    fields.idNumber,
  ]);
  const s2 = encodeSection2(fields);
  const l3 = 684 - 10 - s1.length - s2.length;
  const photo = new Array<number>(l3).fill(0x11);
  photo.splice(0, 7, 0x57, 0x49, 0x04, 0x00, 0xfa, 0x00, 0xc8);
  const header = [
    0x02,
    0x3a,
    0x91,
    0x03,
    0x00,
    s1.length,
    0x01,
    s2.length,
    0x80 | (l3 >> 8),
    l3 & 0xff,
  ];
  return Uint8Array.from([...header, ...s1, ...s2, ...photo]);
}

type PrivateKey = { n: bigint; d: bigint };

export type TestSadlKeys = { keys: SadlKeys; private128: PrivateKey; private74: PrivateKey };

function generate(bits: number) {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  const jwk = privateKey.export({ format: 'jwk' });
  return {
    pem: publicKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    key: {
      n: bytesToBigInt(Buffer.from(jwk.n!, 'base64url')),
      d: bytesToBigInt(Buffer.from(jwk.d!, 'base64url')),
    },
  };
}

/** A test key pair per block size (1024-bit and 592-bit, like the real ones). Same keys for v1 and v2. */
export function generateTestSadlKeys(): TestSadlKeys {
  const k128 = generate(1024);
  const k74 = generate(592);
  const pair = { block128: k128.pem, block74: k74.pem };
  return { keys: { v1: pair, v2: pair }, private128: k128.key, private74: k74.key };
}

const MARKERS = [
  [1, 2, 3, 4, 5],
  [2, 4, 6, 8, 10],
  [4, 8, 12, 16, 20],
  [8, 16, 24, 32, 40],
  [16, 32, 48, 64, 80],
  [32, 64, 96, 0, 32],
];

/** The 720 barcode bytes: version prefix, 00 00, six blocks "encrypted" with the private exponent. */
export function encryptSadlRecord(
  record: Uint8Array,
  test: TestSadlKeys,
  version: 'v1' | 'v2' = 'v2',
): Uint8Array {
  const out = new Uint8Array(720);
  out.set(version === 'v2' ? [0x01, 0x9b, 0x09, 0x45] : [0x01, 0xe1, 0x02, 0x45], 0);
  let o = 0;
  for (let i = 0; i < 6; i++) {
    const size = i < 5 ? 128 : 74;
    const plain = new Uint8Array(size);
    plain.set(MARKERS[i]!, 0);
    plain.set(record.subarray(o, o + size - 5), 5);
    o += size - 5;
    const key = i < 5 ? test.private128 : test.private74;
    out.set(bigIntToBytes(modPow(bytesToBigInt(plain), key.d, key.n), size), 6 + 128 * i);
  }
  return out;
}
