import { randomBytes } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import {
  OBJECT_HEADER_BYTES,
  blindIndex,
  columnContext,
  isSealedObject,
  masterKeyId,
  objectContext,
  openObject,
  openObjectChunks,
  openValue,
  readObjectHeader,
  sealObject,
  sealValue,
  sealedChunkSpan,
  sealedValueVersion,
  unwrapKey,
  wrapKey,
} from './sealing';

const tenantA = '11111111-1111-4111-8111-111111111111';
const tenantB = '22222222-2222-4222-8222-222222222222';
const dataKey = { version: 3, key: randomBytes(32) };
const keys = (version: number) => (version === dataKey.version ? dataKey.key : undefined);
const idColumn = columnContext(tenantA, 'drivers.id_number');

describe('sealed values', () => {
  it('open with the same tenant and column, and name their key version', () => {
    const sealed = sealValue(dataKey, '8001015009087', idColumn);

    expect(sealed).not.toContain('8001015009087');
    expect(sealed.startsWith('sv1.3.')).toBe(true);
    expect(sealedValueVersion(sealed)).toBe(3);
    expect(openValue(keys, sealed, idColumn)).toBe('8001015009087');
    // Random IVs: the same number never seals to the same text.
    expect(sealValue(dataKey, '8001015009087', idColumn)).not.toBe(sealed);
  });

  it('refuse a tampered ciphertext, another tenant, another column and an unknown key', () => {
    const sealed = sealValue(dataKey, '8001015009087', idColumn);
    const parts = sealed.split('.');
    const body = Buffer.from(parts[4] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    const tampered = [...parts.slice(0, 4), body.toString('base64url')].join('.');

    expect(() => openValue(keys, tampered, idColumn)).toThrow();
    expect(() => openValue(keys, sealed, columnContext(tenantB, 'drivers.id_number'))).toThrow();
    expect(() => openValue(keys, sealed, columnContext(tenantA, 'drivers.phone'))).toThrow();
    expect(() => openValue(() => randomBytes(32), sealed, idColumn)).toThrow();
    expect(() => openValue(() => undefined, sealed, idColumn)).toThrow(/not available/);
    // The version is bound in: relabelling a value as another version does not open it.
    const relabelled = sealed.replace(/^sv1\.3\./, 'sv1.4.');
    expect(() => openValue(() => dataKey.key, relabelled, idColumn)).toThrow();
  });
});

describe('blind index', () => {
  it('matches the same number however it is spaced, per column and per tenant key', () => {
    const key = randomBytes(32);
    const a = blindIndex(key, 'id_number', '800101 5009 087');

    expect(a).toBe(blindIndex(key, 'id_number', '8001015009087'));
    expect(a).not.toBe(blindIndex(key, 'passport', '8001015009087'));
    expect(a).not.toBe(blindIndex(randomBytes(32), 'id_number', '8001015009087'));
    expect(a).not.toContain('8001015009087');
  });
});

describe('sealed objects', () => {
  const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(150_000)]);
  const objectKey = `${tenantA}/captures/${crypto.randomUUID()}.jpg`;
  const context = objectContext(tenantA, objectKey);

  it('round-trip in chunks with no image magic bytes left', () => {
    const sealed = sealObject(dataKey, jpeg, context);

    expect(isSealedObject(sealed)).toBe(true);
    expect(sealed.subarray(0, 4).toString('latin1')).toBe('BGS1');
    expect(sealed.indexOf(Buffer.from([0xff, 0xd8, 0xff]))).not.toBe(0);
    expect(readObjectHeader(sealed)).toEqual({
      version: 3,
      chunkSize: 65_536,
      length: jpeg.length,
    });
    expect(openObject(keys, sealed, context).equals(jpeg)).toBe(true);
    expect(openObject(keys, sealObject(dataKey, Buffer.alloc(0), context), context).length).toBe(0);
  });

  it('refuse tampering, truncation, another object, another tenant and a forged header', () => {
    const sealed = sealObject(dataKey, jpeg, context);
    const flipped = Buffer.from(sealed);
    flipped[flipped.length - 100] = (flipped[flipped.length - 100] ?? 0) ^ 1;
    const longer = Buffer.from(sealed);
    longer.writeBigUInt64BE(BigInt(jpeg.length + 1), 12);

    expect(() => openObject(keys, flipped, context)).toThrow();
    expect(() => openObject(keys, sealed.subarray(0, sealed.length - 1), context)).toThrow();
    expect(() =>
      openObject(
        keys,
        sealed,
        objectContext(tenantA, `${tenantA}/faces/${crypto.randomUUID()}.jpg`),
      ),
    ).toThrow();
    expect(() => openObject(keys, sealed, objectContext(tenantB, objectKey))).toThrow();
    expect(() => openObject(keys, longer, context)).toThrow();
  });

  it('open a byte range from only the chunks it touches', () => {
    const sealed = sealObject(dataKey, jpeg, context);
    const header = readObjectHeader(sealed);
    if (!header) throw new Error('no header');
    for (const [start, end] of [
      [0, 9],
      [65_530, 65_545],
      [140_000, jpeg.length - 1],
    ] as const) {
      const span = sealedChunkSpan(header, start, end);
      const plain = openObjectChunks(
        keys,
        sealed.subarray(0, OBJECT_HEADER_BYTES),
        sealed.subarray(span.start, span.end + 1),
        context,
        span.first,
      );
      const offset = start - span.first * header.chunkSize;
      expect(
        plain.subarray(offset, offset + end - start + 1).equals(jpeg.subarray(start, end + 1)),
      ).toBe(true);
    }
  });
});

describe('wrapped data keys', () => {
  it('unwrap only with the same master key and slot', () => {
    const master = randomBytes(32);
    const key = randomBytes(32);
    const wrapped = wrapKey(master, key, `${tenantA}:data:1`);

    expect(unwrapKey(master, wrapped, `${tenantA}:data:1`).equals(key)).toBe(true);
    expect(() => unwrapKey(master, wrapped, `${tenantB}:data:1`)).toThrow();
    expect(() => unwrapKey(master, wrapped, `${tenantA}:data:2`)).toThrow();
    expect(() => unwrapKey(randomBytes(32), wrapped, `${tenantA}:data:1`)).toThrow();
    expect(masterKeyId(master)).toMatch(/^[0-9a-f]{16}$/);
    expect(masterKeyId(master)).not.toBe(masterKeyId(randomBytes(32)));
  });
});
