import { randomBytes } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { nodeKeyPair, unwrapKeysAtNode, wrapKeysForNode } from './site-sync-keys';

const tenantId = '0190a5d2-6a4b-7c3d-8e9f-0a1b2c3d4e5f';

describe('tenant keys wrapped for a site node (issue 28)', () => {
  const master = randomBytes(32);
  const keys = [
    { purpose: 'data' as const, version: 2, state: 'active' as const, key: randomBytes(32) },
    { purpose: 'data' as const, version: 1, state: 'retiring' as const, key: randomBytes(32) },
    { purpose: 'audit' as const, version: 1, state: 'active' as const, key: randomBytes(32) },
  ];

  it('derives the same node key pair from the same ENCRYPTION_KEY, another from another', () => {
    expect(nodeKeyPair(master).publicKey).toBe(nodeKeyPair(master).publicKey);
    expect(nodeKeyPair(randomBytes(32)).publicKey).not.toBe(nodeKeyPair(master).publicKey);
  });

  it('opens at the node exactly the keys central wrapped, none in clear on the wire', () => {
    const answer = wrapKeysForNode(tenantId, nodeKeyPair(master).publicKey, keys);
    const wire = JSON.stringify(answer);
    for (const key of keys) {
      expect(wire).not.toContain(key.key.toString('base64'));
      expect(wire).not.toContain(key.key.toString('base64url'));
      expect(wire).not.toContain(key.key.toString('hex'));
    }
    const opened = unwrapKeysAtNode(master, answer);
    expect(
      opened.map((key) => [key.purpose, key.version, key.state, key.key.toString('hex')]),
    ).toEqual(keys.map((key) => [key.purpose, key.version, key.state, key.key.toString('hex')]));
  });

  it('cannot be opened by another node, nor moved to another tenant or slot', () => {
    const answer = wrapKeysForNode(tenantId, nodeKeyPair(master).publicKey, keys);
    expect(() => unwrapKeysAtNode(randomBytes(32), answer)).toThrow();
    expect(() =>
      unwrapKeysAtNode(master, { ...answer, tenantId: '0190a5d2-6a4b-7c3d-8e9f-000000000000' }),
    ).toThrow();
    const swapped = { ...answer, keys: [{ ...answer.keys[0]!, version: 7 }] };
    expect(() => unwrapKeysAtNode(master, swapped)).toThrow();
  });

  it('refuses a public key that is not X25519', () => {
    expect(() =>
      wrapKeysForNode(tenantId, Buffer.from('not a key').toString('base64'), keys),
    ).toThrow();
  });
});
