import {
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
} from 'node:crypto';

import type { SiteSyncKeys, SiteSyncWrappedKey } from '@boomgate/contracts/site-sync';

import { unwrapKey, wrapKey } from '@/platform/sealing';

/**
 * Issue 28 (ADR 0009 "The tenant's keys at the node"): the tenant's keys cross the sync channel
 * wrapped for one node. The node's X25519 key pair is derived from its own ENCRYPTION_KEY (HKDF),
 * so it has nothing new to store and only that node can open what central wraps for it; central
 * agrees a key with a fresh ephemeral X25519 pair per answer (forward secrecy for the wire) and
 * wraps each tenant key with AES-256-GCM bound to the tenant, purpose and version.
 */

/** A tenant key in clear, as the keyring holds it (never on the wire or on disk like this). */
export type PlainTenantKey = {
  purpose: SiteSyncWrappedKey['purpose'];
  version: number;
  state: SiteSyncWrappedKey['state'];
  key: Buffer;
};

// PKCS#8 DER of an X25519 private key is this prefix and the 32 raw bytes (RFC 8410).
const X25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b656e04220420', 'hex');

/** The node's X25519 key pair, the same every time for the same ENCRYPTION_KEY. */
export function nodeKeyPair(master: Buffer) {
  const seed = Buffer.from(
    hkdfSync('sha256', master, Buffer.alloc(0), 'boomgate site-node x25519', 32),
  );
  const privateKey = createPrivateKey({
    key: Buffer.concat([X25519_PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicKey = createPublicKey(privateKey)
    .export({ format: 'der', type: 'spki' })
    .toString('base64');
  return { privateKey, publicKey };
}

const slot = (tenantId: string, key: Pick<PlainTenantKey, 'purpose' | 'version'>) =>
  `site-node:${tenantId}:${key.purpose}:${key.version}`;

function agreedKey(shared: Buffer, tenantId: string, ephemeral: string, node: string): Buffer {
  return Buffer.from(
    hkdfSync(
      'sha256',
      shared,
      Buffer.from(`${ephemeral}|${node}`),
      `boomgate site keys ${tenantId}`,
      32,
    ),
  );
}

/** Central: the keys wrapped for the node whose public key is `nodePublicKey`. Throws on a bad key. */
export function wrapKeysForNode(
  tenantId: string,
  nodePublicKey: string,
  keys: readonly PlainTenantKey[],
): SiteSyncKeys {
  const nodeKey = createPublicKey({
    key: Buffer.from(nodePublicKey, 'base64'),
    format: 'der',
    type: 'spki',
  });
  if (nodeKey.asymmetricKeyType !== 'x25519') throw new Error('nodePublicKey is not an X25519 key');
  const ephemeral = generateKeyPairSync('x25519');
  const ephemeralPublicKey = ephemeral.publicKey
    .export({ format: 'der', type: 'spki' })
    .toString('base64');
  const shared = diffieHellman({ privateKey: ephemeral.privateKey, publicKey: nodeKey });
  const wrapping = agreedKey(shared, tenantId, ephemeralPublicKey, nodePublicKey);
  return {
    tenantId,
    ephemeralPublicKey,
    keys: keys.map((key) => ({
      purpose: key.purpose,
      version: key.version,
      state: key.state,
      wrappedKey: wrapKey(wrapping, key.key, slot(tenantId, key)),
    })),
  };
}

/** The node: opens what central wrapped for it (throws when it was wrapped for another node). */
export function unwrapKeysAtNode(master: Buffer, answer: SiteSyncKeys): PlainTenantKey[] {
  const { privateKey, publicKey } = nodeKeyPair(master);
  const ephemeral = createPublicKey({
    key: Buffer.from(answer.ephemeralPublicKey, 'base64'),
    format: 'der',
    type: 'spki',
  });
  const shared = diffieHellman({ privateKey, publicKey: ephemeral });
  const wrapping = agreedKey(shared, answer.tenantId, answer.ephemeralPublicKey, publicKey);
  return answer.keys.map((key) => ({
    purpose: key.purpose,
    version: key.version,
    state: key.state,
    key: unwrapKey(wrapping, key.wrappedKey, slot(answer.tenantId, key)),
  }));
}

/** `purpose:version:state` of each key: what a node says it holds. */
export const keySetOf = (keys: readonly Pick<PlainTenantKey, 'purpose' | 'version' | 'state'>[]) =>
  keys.map((key) => `${key.purpose}:${key.version}:${key.state}`).sort();
