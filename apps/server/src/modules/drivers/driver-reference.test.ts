import { randomBytes, randomUUID } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { createDriverReferenceSigner } from './driver-reference';

describe('driver reference', () => {
  const signer = createDriverReferenceSigner(randomBytes(32));
  const tenantId = randomUUID();
  const driverId = randomUUID();

  it('verifies what it signed and names the record', () => {
    const reference = signer.sign(tenantId, driverId);
    expect(reference).toMatch(/^BGD1\.[0-9a-f-]{36}\.[0-9a-f-]{36}\.[A-Za-z0-9_-]{22}$/);
    expect(signer.verify(reference)).toEqual({ tenantId, driverId });
  });

  it('refuses a changed id, a changed signature, another key and junk', () => {
    const reference = signer.sign(tenantId, driverId);
    const [prefix, , , mac] = reference.split('.');
    const flipped = `${mac?.startsWith('A') ? 'B' : 'A'}${mac?.slice(1)}`;
    expect(signer.verify(`${prefix}.${tenantId}.${randomUUID()}.${mac}`)).toBeNull();
    expect(signer.verify(`${prefix}.${tenantId}.${driverId}.${flipped}`)).toBeNull();
    // The last character of 22 carries 4 padding bits: another spelling of the same MAC.
    const last = mac?.at(-1) ?? 'A';
    const respelt = `${mac?.slice(0, -1)}${String.fromCharCode(last.charCodeAt(0) ^ 1)}`;
    expect(signer.verify(`${prefix}.${tenantId}.${driverId}.${respelt}`)).toBeNull();
    expect(createDriverReferenceSigner(randomBytes(32)).verify(reference)).toBeNull();
    expect(signer.verify(`${reference}.extra`)).toBeNull();
    expect(signer.verify('https://example.com')).toBeNull();
    expect(signer.verify('')).toBeNull();
  });
});
