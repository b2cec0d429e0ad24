import { generateKeyPairSync } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import type { SiteSyncChangesPage } from '@boomgate/contracts/site-sync';

import { canonicalJson, signSiteSyncPage, verifySiteSyncPage } from './site-sync-signature';

function aKeyPair() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKey: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    privateKey: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
  };
}

const unsigned: Omit<SiteSyncChangesPage, 'signature'> = {
  tenantId: '0190c1d2-0000-7000-8000-000000000001',
  siteId: '0190c1d2-0000-7000-8000-000000000002',
  since: 10,
  nextSince: 12,
  highWater: 12,
  generatedAt: '2026-11-27T10:00:00.000Z',
  changes: [
    {
      version: 11,
      table: 'approved_vehicles',
      id: 'a',
      deleted: false,
      row: { plate_number: 'CA123', is_active: true, trailers: [{ plate: 'T1' }] },
    },
    { version: 12, table: 'watchlist_entries', id: 'b', deleted: true, row: null },
  ],
};

describe('canonicalJson', () => {
  it('sorts keys recursively and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('gives the same text for the same value built in another key order', () => {
    const reordered = JSON.parse(JSON.stringify(unsigned)) as Record<string, unknown>;
    const backwards = Object.fromEntries(Object.entries(reordered).reverse());
    expect(canonicalJson(backwards)).toBe(canonicalJson(unsigned));
  });
});

describe('verifySiteSyncPage', () => {
  const keys = aKeyPair();
  const page = signSiteSyncPage(unsigned, keys.privateKey);

  it('accepts a page signed with the pinned key, also after a JSON round trip', () => {
    expect(verifySiteSyncPage(page, keys.publicKey)).toBe(true);
    const overTheWire = JSON.parse(JSON.stringify(page)) as SiteSyncChangesPage;
    expect(verifySiteSyncPage(overTheWire, keys.publicKey)).toBe(true);
  });

  it('refuses a page whose row was changed', () => {
    const tampered = structuredClone(page);
    (tampered.changes[0]!.row as Record<string, unknown>).is_active = false;
    expect(verifySiteSyncPage(tampered, keys.publicKey)).toBe(false);
  });

  it('refuses a page whose versions or range were changed', () => {
    expect(verifySiteSyncPage({ ...page, nextSince: 13 }, keys.publicKey)).toBe(false);
    expect(verifySiteSyncPage({ ...page, changes: page.changes.slice(1) }, keys.publicKey)).toBe(
      false,
    );
  });

  it('refuses a page signed by another key, and malformed keys or signatures', () => {
    const other = aKeyPair();
    expect(verifySiteSyncPage(page, other.publicKey)).toBe(false);
    expect(verifySiteSyncPage(signSiteSyncPage(unsigned, other.privateKey), keys.publicKey)).toBe(
      false,
    );
    expect(verifySiteSyncPage(page, 'not a key')).toBe(false);
    expect(verifySiteSyncPage({ ...page, signature: 'AAAA' }, keys.publicKey)).toBe(false);
  });
});
