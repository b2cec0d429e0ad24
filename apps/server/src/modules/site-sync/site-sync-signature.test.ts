import { generateKeyPairSync } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import {
  canonicalJson,
  centralPublicKeyFrom,
  signChangesPage,
  verifyChangesPage,
} from './site-sync-signature';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const spki = publicKey.export({ format: 'der', type: 'spki' }).toString('base64');

const page = {
  tenantId: '0190a000-0000-7000-8000-000000000001',
  siteId: '0190a000-0000-7000-8000-000000000002',
  since: 0,
  nextSince: 2,
  highWater: 2,
  changes: [
    {
      version: 1,
      table: 'watchlist_entries' as const,
      id: 'a',
      deleted: false,
      row: { z: 1, a: [{ y: 2, b: 1 }] },
    },
    { version: 2, table: 'approved_vehicles' as const, id: 'b', deleted: true, row: null },
  ],
  generatedAt: '2026-11-27T13:00:00.000Z',
};

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { f: 1, e: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"e":2,"f":1}]},"b":1}',
    );
  });

  it('leaves out undefined members as JSON does', () => {
    expect(canonicalJson({ b: undefined, a: 1 })).toBe('{"a":1}');
  });
});

describe('page signatures', () => {
  it('verifies a page signed by the pinned key, whatever its key order on the wire', () => {
    const signed = signChangesPage(page, privateKey);
    const reordered = JSON.parse(JSON.stringify({ signature: signed.signature, ...page }));

    expect(verifyChangesPage(reordered, centralPublicKeyFrom(spki))).toBe(true);
  });

  it('refuses a page changed after signing', () => {
    const signed = signChangesPage(page, privateKey);
    const tampered = { ...signed, nextSince: 1 };

    expect(verifyChangesPage(tampered, centralPublicKeyFrom(spki))).toBe(false);
  });

  it('refuses a page signed by another key, and a malformed signature', () => {
    const other = generateKeyPairSync('ed25519').privateKey;

    expect(verifyChangesPage(signChangesPage(page, other), publicKey)).toBe(false);
    expect(verifyChangesPage({ ...page, signature: 'not base64 !' }, publicKey)).toBe(false);
  });

  it('refuses a public key that is not Ed25519', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey;

    expect(() =>
      centralPublicKeyFrom(rsa.export({ format: 'der', type: 'spki' }).toString('base64')),
    ).toThrow();
  });
});
