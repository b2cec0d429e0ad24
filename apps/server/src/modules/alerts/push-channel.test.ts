import { createECDH, randomBytes } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { deriveVapidKeys } from './push-channel';

const TENANT_A = '6f1d2c3b-4a59-4687-9a0b-1c2d3e4f5a6b';
const TENANT_B = '7a2e3d4c-5b6a-4798-8b1c-2d3e4f5a6b7c';

describe('deriveVapidKeys', () => {
  it('gives each tenant its own valid P-256 pair, the same on every call and process', () => {
    const key = randomBytes(32);
    const a = deriveVapidKeys(key, TENANT_A);

    expect(deriveVapidKeys(Buffer.from(key), TENANT_A)).toEqual(a);
    expect(deriveVapidKeys(key, TENANT_B).publicKey).not.toBe(a.publicKey);
    expect(deriveVapidKeys(randomBytes(32), TENANT_A).publicKey).not.toBe(a.publicKey);

    // The public key is the private key's point: uncompressed, 65 bytes, as VAPID wants.
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(a.privateKey, 'base64url'));
    expect(ecdh.getPublicKey().toString('base64url')).toBe(a.publicKey);
    expect(Buffer.from(a.publicKey, 'base64url')).toHaveLength(65);
    expect(Buffer.from(a.privateKey, 'base64url')).toHaveLength(32);
  });
});
