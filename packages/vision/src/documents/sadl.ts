/**
 * SA driving-licence card barcode (1998 card): 720 raw PDF417 bytes, textbook-RSA encrypted with
 * published public keys (sa-documents §2). Decrypting = m = c^e mod n per block, then 5-byte block
 * markers are checked and stripped, leaving a 684-byte record that is parsed by its fixed header.
 */
import { type SadlKeyPair, type SadlKeys, PUBLISHED_SADL_KEYS } from './sadl-keys';
import { checkSaIdNumber } from './sa-id';

export const SADL_ENCRYPTED_LENGTH = 720;
export const SADL_DECRYPTED_LENGTH = 684;

const VERSION_PREFIX = { v1: [0x01, 0xe1, 0x02, 0x45], v2: [0x01, 0x9b, 0x09, 0x45] } as const;
export type SadlVersion = keyof typeof VERSION_PREFIX;

const BLOCK_MARKERS = [
  [1, 2, 3, 4, 5],
  [2, 4, 6, 8, 10],
  [4, 8, 12, 16, 20],
  [8, 16, 24, 32, 40],
  [16, 32, 48, 64, 80],
  [32, 64, 96, 0, 32],
] as const;

export class SadlError extends Error {
  override readonly name = 'SadlError';
}

export type RsaPublicKey = { n: bigint; e: bigint };

/** Reads n and e from a PKCS#1 `RSA PUBLIC KEY` PEM (DER SEQUENCE of two INTEGERs). */
export function parseRsaPublicKeyPem(pem: string): RsaPublicKey {
  const b64 = pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  const der = Buffer.from(b64, 'base64');
  let p = 0;
  const readLength = () => {
    let l = der[p++]!;
    if (l & 0x80) {
      let k = l & 0x7f;
      l = 0;
      while (k--) l = l * 256 + der[p++]!;
    }
    return l;
  };
  if (der[p++] !== 0x30) throw new SadlError('RSA key: expected a DER SEQUENCE');
  readLength();
  const ints: bigint[] = [];
  for (let i = 0; i < 2; i++) {
    if (der[p++] !== 0x02) throw new SadlError('RSA key: expected a DER INTEGER');
    const l = readLength();
    let v = 0n;
    for (let j = 0; j < l; j++) v = (v << 8n) | BigInt(der[p + j]!);
    p += l;
    ints.push(v);
  }
  return { n: ints[0]!, e: ints[1]! };
}

export function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
    e >>= 1n;
  }
  return result;
}

export function bytesToBigInt(bytes: Uint8Array): bigint {
  let v = 0n;
  for (const x of bytes) v = (v << 8n) | BigInt(x);
  return v;
}

export function bigIntToBytes(value: bigint, size: number): Uint8Array {
  const out = new Uint8Array(size);
  let v = value;
  for (let i = size - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

function rsaBlock(bytes: Uint8Array, key: RsaPublicKey, size: number): Uint8Array {
  return bigIntToBytes(modPow(bytesToBigInt(bytes), key.e, key.n), size);
}

export function sadlVersion(raw: Uint8Array): SadlVersion | null {
  for (const version of ['v1', 'v2'] as const) {
    if (VERSION_PREFIX[version].every((b, i) => raw[i] === b)) return version;
  }
  return null;
}

export function isSadlPayload(raw: Uint8Array): boolean {
  return raw.length === SADL_ENCRYPTED_LENGTH && sadlVersion(raw) !== null;
}

/** Decrypts the 720 raw barcode bytes into the 684-byte record. Keys are a parameter (tests use their own). */
export function decryptSadl(
  raw: Uint8Array,
  keys: SadlKeys = PUBLISHED_SADL_KEYS,
): { version: SadlVersion; data: Uint8Array } {
  if (raw.length !== SADL_ENCRYPTED_LENGTH) {
    throw new SadlError(`Expected ${SADL_ENCRYPTED_LENGTH} bytes, got ${raw.length}.`);
  }
  const version = sadlVersion(raw);
  if (!version) throw new SadlError('Unknown licence barcode version prefix.');
  const pair: SadlKeyPair = keys[version];
  const k128 = parseRsaPublicKeyPem(pair.block128);
  const k74 = parseRsaPublicKeyPem(pair.block74);
  const out = new Uint8Array(SADL_DECRYPTED_LENGTH);
  let o = 0;
  for (let i = 0; i < 6; i++) {
    const start = 6 + 128 * i;
    const size = i < 5 ? 128 : 74;
    const block = rsaBlock(raw.subarray(start, start + size), i < 5 ? k128 : k74, size);
    if (!BLOCK_MARKERS[i]!.every((x, j) => block[j] === x)) {
      throw new SadlError(`Block ${i}: marker mismatch (wrong key or damaged scan).`);
    }
    out.set(block.subarray(5), o);
    o += size - 5;
  }
  return { version, data: out };
}

export type SadlVehicleLicence = {
  code: string;
  restriction: string;
  firstIssueDate: string | null;
};

export type SadlRecord = {
  surname: string;
  initials: string;
  idNumber: string;
  /** `02` = SA ID number; anything else is e.g. a traffic register number. */
  idNumberType: string;
  idCountryOfIssue: string;
  licenceNumber: string;
  licenceCountryOfIssue: string;
  licenceIssueNumber: string;
  validFrom: string | null;
  validTo: string | null;
  dateOfBirth: string | null;
  gender: 'M' | 'F' | null;
  genderCode: string;
  /** Non-empty licence codes, e.g. ['B', 'EB']. */
  vehicleCodes: string[];
  vehicleRestrictions: string[];
  vehicleLicences: SadlVehicleLicence[];
  driverRestrictions: string;
  prdpCodes: string[];
  prdpExpiry: string | null;
  photo: { tag: string; sizeBytes: number };
  checks: {
    isIdNumberValid: boolean;
    isDateOfBirthConsistent: boolean;
    isGenderConsistent: boolean;
  };
};

/** Parses the 684-byte decrypted record (sa-documents §2.4), with the 10 + L1 + L2 + L3 = 684 integrity check. */
export function parseSadlRecord(d: Uint8Array): SadlRecord {
  if (d.length !== SADL_DECRYPTED_LENGTH) {
    throw new SadlError(`Expected a ${SADL_DECRYPTED_LENGTH}-byte record, got ${d.length}.`);
  }
  const l1 = d[5]!;
  const l2 = d[7]!;
  const l3 = ((d[8]! & 0x0f) << 8) | d[9]!;
  if (10 + l1 + l2 + l3 !== d.length) {
    throw new SadlError(
      'Section lengths do not add up to the record size (integrity check failed).',
    );
  }
  const fields: string[] = [];
  let current = '';
  let previous = -1;
  for (const b of d.subarray(10, 10 + l1)) {
    if (b === 0xe0) {
      fields.push(current);
      current = '';
    } else if (b === 0xe1) {
      if (previous !== 0xe1) fields.push(current);
      fields.push('');
      current = '';
    } else {
      current += String.fromCharCode(b);
    }
    previous = b;
  }
  fields.push(current);
  if (fields.length !== 15) {
    throw new SadlError(`Section 1 has ${fields.length} fields, expected 15.`);
  }
  const nibbles: number[] = [];
  for (const b of d.subarray(10 + l1, 10 + l1 + l2)) nibbles.push(b >> 4, b & 15);
  let q = 0;
  const take = (n: number) => {
    if (q + n > nibbles.length) throw new SadlError('Section 2 ended early.');
    const s = nibbles.slice(q, q + n).join('');
    q += n;
    return s;
  };
  const two = () => take(2);
  const date = (): string | null => {
    if (nibbles[q] === 10) {
      q++;
      return null;
    }
    const s = take(8);
    if (!/^\d{8}$/.test(s)) throw new SadlError('Section 2 holds a malformed date.');
    return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6)}`;
  };
  const idNumberType = two();
  const codeDates = [date(), date(), date(), date()];
  const driverRestrictions = two();
  const prdpExpiry = date();
  const licenceIssueNumber = two();
  const dateOfBirth = date();
  const validFrom = date();
  const validTo = date();
  const genderCode = two();
  const gender = genderCode === '01' ? 'M' : genderCode === '02' ? 'F' : null;

  const codes = fields.slice(0, 4);
  const restrictions = fields.slice(9, 13);
  const vehicleLicences = codes
    .map((code, i) => ({
      code,
      restriction: restrictions[i] ?? '',
      firstIssueDate: codeDates[i] ?? null,
    }))
    .filter((v) => v.code !== '');
  const idNumber = fields[14]!;
  const id = checkSaIdNumber(idNumber);
  const dob = dateOfBirth?.replace(/-/g, '').slice(2);
  return {
    surname: fields[4]!,
    initials: fields[5]!,
    idNumber,
    idNumberType,
    idCountryOfIssue: fields[7]!,
    licenceNumber: fields[13]!,
    licenceCountryOfIssue: fields[8]!,
    licenceIssueNumber,
    validFrom,
    validTo,
    dateOfBirth,
    gender,
    genderCode,
    vehicleCodes: vehicleLicences.map((v) => v.code),
    vehicleRestrictions: vehicleLicences.map((v) => v.restriction),
    vehicleLicences,
    driverRestrictions,
    prdpCodes: fields[6]
      ? fields[6]
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : [],
    prdpExpiry,
    photo: {
      tag: String.fromCharCode(d[10 + l1 + l2]!, d[11 + l1 + l2]!),
      sizeBytes: l3,
    },
    checks: {
      isIdNumberValid: id.isValid,
      isDateOfBirthConsistent: !!dob && idNumber.slice(0, 6) === dob,
      isGenderConsistent: id.isValid && gender !== null && id.sex === gender,
    },
  };
}

/** Accepts either the 720 encrypted barcode bytes or an already decrypted 684-byte record. */
export function readSadl(
  payload: Uint8Array,
  keys: SadlKeys = PUBLISHED_SADL_KEYS,
): SadlRecord & { version: SadlVersion | null } {
  if (payload.length === SADL_ENCRYPTED_LENGTH) {
    const { version, data } = decryptSadl(payload, keys);
    return { ...parseSadlRecord(data), version };
  }
  if (payload.length === SADL_DECRYPTED_LENGTH)
    return { ...parseSadlRecord(payload), version: null };
  throw new SadlError(
    `A licence record is ${SADL_ENCRYPTED_LENGTH} (encrypted) or ${SADL_DECRYPTED_LENGTH} (decrypted) bytes, got ${payload.length}.`,
  );
}
