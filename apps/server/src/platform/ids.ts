import { randomBytes, randomUUID } from 'node:crypto';

export const newId = (): string => randomUUID();

/** 256 bits from the CSPRNG, URL-safe: session tokens and other bearer secrets. */
export const newToken = (): string => randomBytes(32).toString('base64url');

let lastUuidV7Ms = 0;
let uuidV7Sequence = 0;

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then 12 bits of a counter that keeps ids made
 * in the same millisecond by this process in order (method 1 of the RFC), then 62 random bits.
 * Site facts (issue 28) get their ids here, at the site: sortable by time, unique without central.
 */
export function newUuidV7(now: number = Date.now()): string {
  let ms = Math.max(now, lastUuidV7Ms);
  if (ms === lastUuidV7Ms) {
    uuidV7Sequence += 1;
    if (uuidV7Sequence > 0xfff) {
      // 4096 ids in one millisecond: borrow the next millisecond rather than repeat.
      ms += 1;
      uuidV7Sequence = 0;
    }
  } else {
    uuidV7Sequence = 0;
  }
  lastUuidV7Ms = ms;
  const bytes = randomBytes(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | (uuidV7Sequence >> 8);
  bytes[7] = uuidV7Sequence & 0xff;
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
